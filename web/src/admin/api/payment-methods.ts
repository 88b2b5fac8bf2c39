import { queryOptions } from "@tanstack/react-query";
import { adminPaymentMethodSchema } from "@tp/domain/admin-api";
import { z } from "zod";
import { adminGet, adminRootKey } from "./admin-request.ts";

const paymentMethodListSchema = z.array(adminPaymentMethodSchema);

/** GET /admin/payment-methods: every method, configured or not, in the funding list's order. */
export function paymentMethodsQuery() {
  return queryOptions({
    queryKey: [...adminRootKey, "payment-methods"],
    queryFn: ({ signal }) => adminGet("/admin/payment-methods", paymentMethodListSchema, signal),
  });
}

export function paymentMethodPath(id: string): string {
  return `/admin/payment-methods/${encodeURIComponent(id)}`;
}

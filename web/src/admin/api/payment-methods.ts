import { queryOptions } from "@tanstack/react-query";
import { adminPaymentMethodSchema, paymentMethodChangeSchema } from "@tp/domain/admin-api";
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

const paymentMethodChangeListSchema = z.array(paymentMethodChangeSchema);

/** GET /admin/payment-method-changes: changes waiting for a second admin, oldest first. */
export function pendingPaymentMethodChangesQuery() {
  return queryOptions({
    queryKey: [...adminRootKey, "payment-method-changes"],
    queryFn: ({ signal }) =>
      adminGet("/admin/payment-method-changes", paymentMethodChangeListSchema, signal),
  });
}

export function paymentMethodChangePath(id: number, decision: "confirm" | "discard"): string {
  return `/admin/payment-method-changes/${id}/${decision}`;
}

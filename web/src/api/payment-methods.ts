import { queryOptions } from "@tanstack/react-query";
import { type PaymentMethodView, paymentMethodListDataSchema } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

export const paymentMethodsQueryKey = ["payment-methods"] as const;

/** Staff change methods rarely; a minute is fresh enough and a focus refetch catches up. */
export const payment_methods_stale_ms = 60_000;

/** GET /payment-methods: every method in the funding list's order, available or not. */
export async function fetchPaymentMethods(signal?: AbortSignal): Promise<PaymentMethodView[]> {
  const reply = await apiRequest<unknown>("/payment-methods", { signal });
  const parsed = paymentMethodListDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The payment methods reply does not match its schema");
  return parsed.data;
}

export function paymentMethodsQueryOptions() {
  return queryOptions({
    queryKey: paymentMethodsQueryKey,
    queryFn: ({ signal }) => fetchPaymentMethods(signal),
    staleTime: payment_methods_stale_ms,
  });
}

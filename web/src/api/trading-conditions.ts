import { useQuery } from "@tanstack/react-query";
import { type TradingConditions, tradingConditionsSchema } from "@tp/domain/api";
import { apiRequest } from "./client.ts";

/** A development setting changes only with a restart; a minute is fresh enough. */
const trading_conditions_stale_ms = 60_000;

/** GET /trading-conditions (PRODUCT.md D2). */
export async function fetchTradingConditions(signal?: AbortSignal): Promise<TradingConditions> {
  const reply = await apiRequest<unknown>("/trading-conditions", { signal });
  const parsed = tradingConditionsSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The trading conditions reply does not match its schema");
  return parsed.data;
}

export function useTradingConditions() {
  return useQuery({
    queryKey: ["trading-conditions"],
    queryFn: ({ signal }) => fetchTradingConditions(signal),
    staleTime: trading_conditions_stale_ms,
    refetchInterval: trading_conditions_stale_ms,
  });
}

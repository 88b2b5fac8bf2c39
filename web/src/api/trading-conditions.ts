import { useQuery } from "@tanstack/react-query";
import type { TradingConditions } from "@tp/domain/api";
import { apiRequest } from "./client.ts";

/** A development setting changes only with a restart; a minute is fresh enough. */
const trading_conditions_stale_ms = 60_000;

/**
 * GET /trading-conditions (PRODUCT.md D2). Every page asks (the banner is in the root
 * layout), so its two fields are checked here by hand rather than with tradingConditionsSchema:
 * zod stays off the first load of the public pages (issue 13 item 8). The server checks the
 * reply against that schema before sending it.
 */
export async function fetchTradingConditions(signal?: AbortSignal): Promise<TradingConditions> {
  const reply = await apiRequest<{
    real_trading_on_simulated_prices?: unknown;
    practice_top_up_level?: unknown;
  }>("/trading-conditions", { signal });
  const flag = reply.data?.real_trading_on_simulated_prices;
  const topUpLevel = reply.data?.practice_top_up_level;
  if (typeof flag !== "boolean" || typeof topUpLevel !== "number" || !(topUpLevel >= 0)) {
    throw new Error("The trading conditions reply does not match its schema");
  }
  return { real_trading_on_simulated_prices: flag, practice_top_up_level: topUpLevel };
}

export function useTradingConditions() {
  return useQuery({
    queryKey: ["trading-conditions"],
    queryFn: ({ signal }) => fetchTradingConditions(signal),
    staleTime: trading_conditions_stale_ms,
    refetchInterval: trading_conditions_stale_ms,
  });
}

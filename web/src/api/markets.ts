import { type QueryClient, useQuery } from "@tanstack/react-query";
import { type MarketState, marketStates } from "@tp/domain/market-state";
import { z } from "zod";
import { apiRequest } from "./client.ts";
import { dashboard_refetch_ms, dashboard_stale_ms, dashboardRetry } from "./polling.ts";

/** One row of GET /markets: an asset with its last price, 24 h change and price source. */
export const marketViewSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  option_type: z.string(),
  chart_symbol: z.string(),
  precision: z.number().int(),
  price: z.number().nullable(),
  at: z.string().nullable(),
  change_24h_percent: z.number().nullable(),
  source: z.string().nullable(),
  is_open: z.boolean(),
  /** open | closed (outside trading hours) | halted (feed stale): domain/src/market-state.ts. */
  state: z.enum(marketStates),
  next_open_at: z.string().nullable(),
  /** Whether the real account may trade it now (false while its prices are simulated). */
  real_trading: z.boolean(),
});
export type MarketView = z.infer<typeof marketViewSchema>;

const marketsDataSchema = z.object({ markets: z.array(marketViewSchema) });

export const marketsQueryKey = ["markets"] as const;

/** GET /markets: every catalogue asset, whether or not a price has arrived for it yet. */
export async function fetchMarkets(signal?: AbortSignal): Promise<MarketView[]> {
  const reply = await apiRequest<unknown>("/markets", { signal });
  const parsed = marketsDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The markets reply does not match its schema");
  return parsed.data.markets;
}

/** The list read once and kept fresh by the stream's market_state events (no polling). */
export function marketsQueryOptions() {
  return {
    queryKey: marketsQueryKey,
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchMarkets(signal),
    staleTime: dashboard_stale_ms,
    retry: dashboardRetry,
  };
}

/**
 * A `market_state` stream message: the asset's row in the cached list takes the new state
 * in place (no refetch), so the trade box, chart banner, panel and ticker change at once.
 */
export function applyMarketState(
  queryClient: QueryClient,
  event: { symbol: string; state: MarketState; next_open_at: string | null },
): void {
  queryClient.setQueryData<MarketView[]>(marketsQueryKey, (markets) =>
    markets?.map((market) =>
      market.symbol === event.symbol
        ? {
            ...market,
            state: event.state,
            is_open: event.state === "open",
            next_open_at: event.state === "closed" ? event.next_open_at : null,
          }
        : market,
    ),
  );
}

/**
 * The market list. While the live socket is up its ticks carry the prices, so the list is
 * read once; while it is down the list is polled (SPEC §7 dashboard client, PRODUCT.md D10).
 */
export function useMarkets({ live }: { live: boolean }) {
  return useQuery({
    ...marketsQueryOptions(),
    refetchInterval: live ? false : dashboard_refetch_ms,
  });
}

import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type MarketHaltsPage, marketHaltsDataSchema } from "@tp/domain/market-status-api";
import { apiRequest } from "./client.ts";

/** The market status page lists this many halts a page. */
export const market_halts_page_size = 10;

/** GET /market-halts: feed halts newest first, each with the trades refunded because of it. */
export async function fetchMarketHalts(
  page: number,
  limit: number,
  signal?: AbortSignal,
): Promise<MarketHaltsPage> {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  const reply = await apiRequest<unknown>(`/market-halts?${query}`, { signal });
  const parsed = marketHaltsDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The market halts reply does not match its schema");
  return parsed.data;
}

export function marketHaltsQueryOptions(page: number, limit = market_halts_page_size) {
  return queryOptions({
    queryKey: ["market-halts", page, limit] as const,
    queryFn: ({ signal }) => fetchMarketHalts(page, limit, signal),
    placeholderData: keepPreviousData,
  });
}

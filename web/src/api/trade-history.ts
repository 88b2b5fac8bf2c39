import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { type TradeView, tradeHistoryDataSchema } from "@tp/domain/api";
import type { z } from "zod";
import { apiRequest } from "./client.ts";

export type TradeHistoryPage = z.infer<typeof tradeHistoryDataSchema>;
export type AccountKind = "real" | "practice";

/** SPEC §9: history pages show 10 trades a page. */
export const history_page_size = 10;
/**
 * The dashboard reads this many of the newest trades: its open-trades list and chart lines
 * come from them (a trade lasts at most an hour; 100 open at once is past any real use).
 */
export const dashboard_trades_max = 100;

export const tradeHistoryRootKey = ["trade-history"] as const;

export function tradeHistoryQueryKey(kind: AccountKind, page: number, limit: number) {
  return [...tradeHistoryRootKey, kind, page, limit] as const;
}

/** GET /real-trade-history or /practice-trade-history: one page, newest first. */
export async function fetchTradeHistory(
  kind: AccountKind,
  page: number,
  limit: number,
  signal?: AbortSignal,
): Promise<TradeHistoryPage> {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  const reply = await apiRequest<unknown>(`/${kind}-trade-history?${query}`, { signal });
  const parsed = tradeHistoryDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The trade history reply does not match its schema");
  return parsed.data;
}

export function tradeHistoryQueryOptions(kind: AccountKind, page: number, limit: number) {
  return queryOptions({
    queryKey: tradeHistoryQueryKey(kind, page, limit),
    queryFn: ({ signal }) => fetchTradeHistory(kind, page, limit, signal),
  });
}

export function accountKindOf(trade: Pick<TradeView, "is_practice">): AccountKind {
  return trade.is_practice ? "practice" : "real";
}

/**
 * Puts a trade event (opened or settled) into every cached history page of its account: a
 * known trade is replaced where it stands; a new one goes on top of page 1 and the later
 * pages, whose rows have all moved down by one, are refetched. A page that holds no rows
 * (its read failed, or has not landed) is read again unless a read is on its way: with the
 * socket live nothing polls, so a dashboard whose first read failed showed no open trade
 * however many events came.
 */
export function upsertTrade(queryClient: QueryClient, trade: TradeView): void {
  const kind = accountKindOf(trade);
  let isNew = true;
  for (const [, page] of queryClient.getQueriesData<TradeHistoryPage>({
    queryKey: [...tradeHistoryRootKey, kind],
  })) {
    if (page?.data.some((row) => row.id === trade.id)) isNew = false;
  }
  const queries = queryClient.getQueryCache().findAll({ queryKey: [...tradeHistoryRootKey, kind] });
  for (const query of queries) {
    const [, , pageNumber, limit] = query.queryKey as ReturnType<typeof tradeHistoryQueryKey>;
    const page = query.state.data as TradeHistoryPage | undefined;
    if (page === undefined) {
      if (query.state.fetchStatus === "idle") {
        void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
      }
      continue;
    }
    if (!isNew) {
      if (!page.data.some((row) => row.id === trade.id)) continue;
      queryClient.setQueryData<TradeHistoryPage>(query.queryKey, {
        ...page,
        data: page.data.map((row) => (row.id === trade.id ? trade : row)),
      });
    } else if (pageNumber === 1) {
      const total = page.pagination.total + 1;
      queryClient.setQueryData<TradeHistoryPage>(query.queryKey, {
        data: [trade, ...page.data].slice(0, limit),
        pagination: {
          ...page.pagination,
          total,
          last_page: Math.max(1, Math.ceil(total / limit)),
        },
      });
    } else {
      void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    }
  }
}

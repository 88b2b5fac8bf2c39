import { useInfiniteQuery } from "@tanstack/react-query";
import {
  type CryptoNewsPage,
  cryptoNewsPageSchema,
  type NewsItem,
  news_page_max,
} from "@tp/domain/market-info";
import { apiRequest } from "../api/client.ts";
import { marketInfoRetry } from "./market-info-retry.ts";

export const cryptoNewsQueryKey = ["crypto-news"] as const;

/** GET /crypto-news?page=N (SPEC §7): ten articles a page; the server asks its provider. */
export async function fetchCryptoNewsPage(
  page: number,
  signal?: AbortSignal,
): Promise<CryptoNewsPage> {
  const reply = await apiRequest<unknown>(`/crypto-news?page=${page}`, { signal });
  const parsed = cryptoNewsPageSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The crypto news reply does not match its schema");
  return parsed.data;
}

/**
 * SPEC §7 "appends unseen ids": each page adds only the articles not shown yet, in order.
 * (News moves while one scrolls: an article pushed from page 1 to page 2 comes back.)
 */
export function appendUnseen(shown: readonly NewsItem[], next: readonly NewsItem[]): NewsItem[] {
  const seen = new Set(shown.map((item) => item.id));
  const merged = [...shown];
  for (const item of next) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    merged.push(item);
  }
  return merged;
}

export function useCryptoNews() {
  return useInfiniteQuery({
    queryKey: cryptoNewsQueryKey,
    queryFn: ({ pageParam, signal }) => fetchCryptoNewsPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.next_page !== null && last.next_page <= news_page_max ? last.next_page : undefined,
    retry: marketInfoRetry,
    // A page list refetched as a whole would re-ask every page already read.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

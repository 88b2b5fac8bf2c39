import { queryOptions } from "@tanstack/react-query";
import { type TransactionHistoryData, transactionHistoryDataSchema } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

/** SPEC §9: history pages show 10 rows a page. */
export const transaction_page_size = 10;

export const transactionHistoryRootKey = ["transaction-history"] as const;

/** GET /transaction-history?page=&limit=: deposits and withdrawals, newest first. */
export async function fetchTransactionHistory(
  page: number,
  limit: number,
  signal?: AbortSignal,
): Promise<TransactionHistoryData> {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  const reply = await apiRequest<unknown>(`/transaction-history?${query}`, { signal });
  const parsed = transactionHistoryDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The transaction history reply does not match its schema");
  return parsed.data;
}

export function transactionHistoryQueryOptions(page: number, limit = transaction_page_size) {
  return queryOptions({
    queryKey: [...transactionHistoryRootKey, page, limit] as const,
    queryFn: ({ signal }) => fetchTransactionHistory(page, limit, signal),
  });
}

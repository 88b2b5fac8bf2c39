import { queryOptions } from "@tanstack/react-query";
import {
  type SignInHistoryPage,
  sign_in_history_page_size_default,
  signInHistoryDataSchema,
} from "@tp/domain/sessions-api";
import { apiRequest } from "./client.ts";

export const signInHistoryRootKey = ["sign-in-history"] as const;

/** GET /sign-in-history?page=&limit=: the trader's sign-in attempts, newest first. */
export async function fetchSignInHistory(
  page: number,
  limit: number,
  signal?: AbortSignal,
): Promise<SignInHistoryPage> {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  const reply = await apiRequest<unknown>(`/sign-in-history?${query}`, { signal });
  const parsed = signInHistoryDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The sign-in history reply does not match its schema");
  return parsed.data;
}

export function signInHistoryQueryOptions(page: number, limit = sign_in_history_page_size_default) {
  return queryOptions({
    queryKey: [...signInHistoryRootKey, page, limit] as const,
    queryFn: ({ signal }) => fetchSignInHistory(page, limit, signal),
  });
}

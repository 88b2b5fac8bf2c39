import { queryOptions } from "@tanstack/react-query";
import type { UserView } from "@tp/domain/api";
import { apiRequest } from "./client.ts";

export const userQueryKey = ["user"] as const;

/** SPEC §7: GET /user is refetched on window focus and goes stale after 2 s. */
export const user_stale_ms = 2_000;

/** The signed-in trader, or null when the reply carries no user (SPEC §4 clears the session). */
export async function fetchUser(signal?: AbortSignal): Promise<UserView | null> {
  const reply = await apiRequest<{ user?: UserView }>("/user", { signal });
  return reply.data?.user ?? null;
}

export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: ({ signal }) => fetchUser(signal),
    staleTime: user_stale_ms,
    refetchOnWindowFocus: true,
  });
}

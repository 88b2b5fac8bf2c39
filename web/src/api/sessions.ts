import { queryOptions } from "@tanstack/react-query";
import { type ActiveSession, activeSessionsDataSchema } from "@tp/domain/sessions-api";
import { apiRequest } from "./client.ts";

export const sessionsQueryKey = ["sessions"] as const;

/** GET /sessions: the trader's live sessions, most recently used first; `current` is this one. */
export async function fetchSessions(signal?: AbortSignal): Promise<ActiveSession[]> {
  const reply = await apiRequest<unknown>("/sessions", { signal });
  const parsed = activeSessionsDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The sessions reply does not match its schema");
  return parsed.data.sessions;
}

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: ({ signal }) => fetchSessions(signal),
  });
}

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type RealityCheckSettings,
  realityCheckSettingsDataSchema,
  type SessionFigures,
  sessionFiguresSchema,
} from "@tp/domain/responsible-trading";
import { apiRequest } from "./client.ts";

export const realityCheckQueryKey = ["responsible-trading", "reality-check"] as const;
export const sessionFiguresQueryKey = ["responsible-trading", "session"] as const;

/** GET /responsible-trading/reality-check: on or off and the interval (default on, 60 min). */
export async function fetchRealityCheck(signal?: AbortSignal): Promise<RealityCheckSettings> {
  const reply = await apiRequest<unknown>("/responsible-trading/reality-check", { signal });
  const parsed = realityCheckSettingsDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The reality check reply does not match its schema");
  return parsed.data.reality_check;
}

export function realityCheckQueryOptions() {
  return queryOptions({
    queryKey: realityCheckQueryKey,
    queryFn: ({ signal }) => fetchRealityCheck(signal),
  });
}

/** PUT /responsible-trading/reality-check; the session's timer re-reads the figures after. */
export function useSaveRealityCheckMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RealityCheckSettings) =>
      apiRequest<unknown>("/responsible-trading/reality-check", { method: "PUT", body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: realityCheckQueryKey });
      await queryClient.invalidateQueries({ queryKey: sessionFiguresQueryKey });
    },
  });
}

/** GET /responsible-trading/session: this session's start, setting and real-trading figures. */
export async function fetchSessionFigures(signal?: AbortSignal): Promise<SessionFigures> {
  const reply = await apiRequest<unknown>("/responsible-trading/session", { signal });
  const parsed = sessionFiguresSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The session figures reply does not match its schema");
  return parsed.data;
}

export function sessionFiguresQueryOptions() {
  return queryOptions({
    queryKey: sessionFiguresQueryKey,
    queryFn: ({ signal }) => fetchSessionFigures(signal),
    // Read when a check is due (and after the setting changes), not on every focus.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

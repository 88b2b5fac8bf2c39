import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type RealityCheckSettings,
  realityCheckSettingsDataSchema,
  type SessionFigures,
  sessionFiguresSchema,
} from "@tp/domain/responsible-trading";
import {
  type Exclusion,
  exclusionDataSchema,
  type StartExclusionRequest,
  type TraderLimit,
  traderLimitsDataSchema,
  type UpdateTraderLimitsRequest,
} from "@tp/domain/trader-limits";
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

export const traderLimitsQueryKey = ["responsible-trading", "limits"] as const;
export const exclusionQueryKey = ["responsible-trading", "exclusion"] as const;

/** GET /responsible-trading/limits: every kind, in force, used, its reset and any pending change. */
export async function fetchTraderLimits(signal?: AbortSignal): Promise<TraderLimit[]> {
  const reply = await apiRequest<unknown>("/responsible-trading/limits", { signal });
  const parsed = traderLimitsDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The limits reply does not match its schema");
  return parsed.data.limits;
}

export function traderLimitsQueryOptions() {
  return queryOptions({
    queryKey: traderLimitsQueryKey,
    queryFn: ({ signal }) => fetchTraderLimits(signal),
  });
}

/**
 * PUT /responsible-trading/limits with the kinds the trader changed (null removes one): the
 * server's message says whether some wait out the cooling-off, and its limits are the new view.
 */
export function useSaveTraderLimitsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateTraderLimitsRequest) => {
      const reply = await apiRequest<unknown>("/responsible-trading/limits", {
        method: "PUT",
        body,
      });
      const parsed = traderLimitsDataSchema.safeParse(reply.data);
      if (!parsed.success) throw new Error("The limits reply does not match its schema");
      return { message: reply.message ?? null, limits: parsed.data.limits };
    },
    onSuccess: ({ limits }) => {
      queryClient.setQueryData(traderLimitsQueryKey, limits);
    },
  });
}

/** GET /responsible-trading/exclusion: the time-out, self-exclusion or closure in force, or null. */
export async function fetchExclusion(signal?: AbortSignal): Promise<Exclusion | null> {
  const reply = await apiRequest<unknown>("/responsible-trading/exclusion", { signal });
  const parsed = exclusionDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The break reply does not match its schema");
  return parsed.data.exclusion;
}

export function exclusionQueryOptions() {
  return queryOptions({
    queryKey: exclusionQueryKey,
    queryFn: ({ signal }) => fetchExclusion(signal),
  });
}

/** POST /responsible-trading/exclusion: starts a time-out or self-exclusion at once. */
export function useStartExclusionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: StartExclusionRequest) => {
      const reply = await apiRequest<unknown>("/responsible-trading/exclusion", {
        method: "POST",
        body,
      });
      const parsed = exclusionDataSchema.safeParse(reply.data);
      if (!parsed.success) throw new Error("The break reply does not match its schema");
      return { message: reply.message ?? null, exclusion: parsed.data.exclusion };
    },
    onSuccess: ({ exclusion }) => {
      queryClient.setQueryData(exclusionQueryKey, exclusion);
    },
  });
}

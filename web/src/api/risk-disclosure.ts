import { useQuery } from "@tanstack/react-query";
import type { RiskDisclosure } from "@tp/domain/losing-accounts";
import { apiRequest } from "./client.ts";

export const riskDisclosureQueryKey = ["risk-disclosure"] as const;

/** The figure is computed once a day: a page view does not need a fresh copy. */
export const risk_disclosure_stale_ms = 10 * 60_000;

/** GET /risk-disclosure: the share of real-money accounts that lost money, its period and method. */
export async function fetchRiskDisclosure(signal?: AbortSignal): Promise<RiskDisclosure> {
  // The schema (and zod with it) loads with the request, not with the app's first screen:
  // the footer asks for this on every page.
  const [reply, { riskDisclosureSchema }] = await Promise.all([
    apiRequest<unknown>("/risk-disclosure", { signal }),
    import("@tp/domain/risk-disclosure-api"),
  ]);
  const parsed = riskDisclosureSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The risk disclosure reply does not match its schema");
  return parsed.data;
}

export function useRiskDisclosure() {
  return useQuery({
    queryKey: riskDisclosureQueryKey,
    queryFn: ({ signal }) => fetchRiskDisclosure(signal),
    staleTime: risk_disclosure_stale_ms,
  });
}

import { useQuery } from "@tanstack/react-query";
import { type MarketInfoProviders, marketInfoProvidersSchema } from "@tp/domain/market-info";
import { apiRequest } from "../api/client.ts";

export const marketInfoProvidersQueryKey = ["market-info-providers"] as const;

/** GET /market-info/providers: which optional providers the operator has set up. */
export async function fetchMarketInfoProviders(signal?: AbortSignal): Promise<MarketInfoProviders> {
  const reply = await apiRequest<unknown>("/market-info/providers", { signal });
  const parsed = marketInfoProvidersSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The providers reply does not match its schema");
  return parsed.data;
}

/**
 * The set-up providers; the navigation shows a provider's page only once this says it is
 * set up (issue 13: no link to an error page). Settings change only with a restart, so the
 * answer is kept for the session.
 */
export function useMarketInfoProviders(): MarketInfoProviders | undefined {
  return useQuery({
    queryKey: marketInfoProvidersQueryKey,
    queryFn: ({ signal }) => fetchMarketInfoProviders(signal),
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}

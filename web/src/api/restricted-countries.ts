import { useQuery } from "@tanstack/react-query";
import type { RestrictedCountries } from "@tp/domain/restricted-countries-api";
import { apiRequest } from "./client.ts";

export const restrictedCountriesQueryKey = ["restricted-countries"] as const;

/** The operator's list changes with a restart at most: a page view needs no fresh copy. */
export const restricted_countries_stale_ms = 10 * 60_000;

/** GET /restricted-countries: where sign-up is refused and real money blocked (issue 14 item 4). */
export async function fetchRestrictedCountries(signal?: AbortSignal): Promise<RestrictedCountries> {
  const [reply, { restrictedCountriesSchema }] = await Promise.all([
    apiRequest<unknown>("/restricted-countries", { signal }),
    import("@tp/domain/restricted-countries-api"),
  ]);
  const parsed = restrictedCountriesSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The restricted countries reply does not match its schema");
  return parsed.data;
}

/**
 * Whether `country` is restricted: undefined while the list loads or when it cannot be read
 * (the server refuses either way; the page only says it sooner).
 */
export function useCountryRestricted(country: string | undefined): boolean | undefined {
  const list = useQuery({
    queryKey: restrictedCountriesQueryKey,
    queryFn: ({ signal }) => fetchRestrictedCountries(signal),
    staleTime: restricted_countries_stale_ms,
  });
  if (!list.data || country === undefined) return undefined;
  return list.data.countries.some((entry) => entry.name === country);
}

import { z } from "zod";

/** GET /restricted-countries's data: the RESTRICTED_COUNTRIES in force, code and name. */
export const restrictedCountriesSchema = z.object({
  countries: z.array(z.object({ code: z.string().length(2), name: z.string() })),
});

export type RestrictedCountries = z.infer<typeof restrictedCountriesSchema>;

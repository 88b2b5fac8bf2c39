import { apiSuccessSchema } from "@tp/domain/api";
import type { Country } from "@tp/domain/countries";
import { countryCodes } from "@tp/domain/country-codes";
import {
  realMoneyRestrictedMessage,
  signUpRestrictedMessage,
} from "@tp/domain/restricted-countries";
import { restrictedCountriesSchema } from "@tp/domain/restricted-countries-api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import type { Config } from "../config.ts";
import { AppError, validationError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";

/**
 * Restricted countries (issue 14 item 4): RESTRICTED_COUNTRIES, parsed at start into the
 * sign-up list's names, is checked against the country a user declared. The checks read
 * only the config and the country the caller already has (a trade's session carries it),
 * so they add no database round trip.
 */
export function isRestrictedCountry(
  config: Pick<Config, "RESTRICTED_COUNTRIES">,
  country: string,
): boolean {
  return (config.RESTRICTED_COUNTRIES as readonly string[]).includes(country);
}

/** Sign-up: a 422 on `country`, the message the form shows too. */
export function refuseSignUpFrom(config: Pick<Config, "RESTRICTED_COUNTRIES">, country: string) {
  if (isRestrictedCountry(config, country)) {
    throw validationError({ country: [signUpRestrictedMessage(country)] });
  }
}

/** A real-money trade or deposit: 403 COUNTRY_RESTRICTED. Practice and withdrawals never ask. */
export function refuseRealMoneyIn(config: Pick<Config, "RESTRICTED_COUNTRIES">, country: string) {
  if (isRestrictedCountry(config, country)) {
    throw new AppError("COUNTRY_RESTRICTED", realMoneyRestrictedMessage(country));
  }
}

/** GET /restricted-countries: the list in force, for the sign-up form, dashboard and cashier. */
export async function restrictedCountryRoutes(app: FastifyInstance, context: AppContext) {
  const countries = context.config.RESTRICTED_COUNTRIES.map((name: Country) => ({
    code: countryCodes[name],
    name,
  }));
  app.withTypeProvider<ZodTypeProvider>().get(
    "/restricted-countries",
    {
      schema: {
        tags: ["site"],
        summary:
          "Countries where sign-up is refused and residents' real-money deposits and trades are blocked (RESTRICTED_COUNTRIES)",
        response: { 200: apiSuccessSchema(restrictedCountriesSchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: { countries } }),
  );
}

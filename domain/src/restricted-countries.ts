import type { Country } from "./countries.ts";
import { countryCodes } from "./country-codes.ts";

/**
 * Restricted countries (issue 14 item 4, PRODUCT.md D17): places where retail binary
 * options are banned. The operator lists them in RESTRICTED_COUNTRIES as ISO 3166-1
 * alpha-2 codes; sign-up from them is refused and residents' real money is blocked
 * (practice trading and withdrawals stay). The country is the one the trader declared.
 * No zod here: the dashboard and the deposit page read it on their first load.
 */

/**
 * The default list, each with why (the README's table says the same):
 * - the EU's 27 member states: ESMA's product intervention banned the marketing,
 *   distribution and sale of binary options to retail clients (2018), made permanent by
 *   each national regulator;
 * - the EEA's Iceland, Liechtenstein and Norway: the same measures, through the EEA;
 * - the United Kingdom: FCA permanent ban on sale to retail consumers (April 2019);
 * - Australia: ASIC product intervention order banning issue and distribution to retail
 *   clients (May 2021);
 * - Israel: the Israel Securities Authority's ban on offering them (2017);
 * - Canada: the provincial regulators' Multilateral Instrument 91-102 prohibits offering
 *   binary options of under 30 days to individuals (2017);
 * - the United States: binary options may be offered only on CFTC- or SEC-registered
 *   exchanges; an offshore platform may not take US residents.
 */
export const default_restricted_country_codes = [
  // European Union
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  // European Economic Area
  "IS",
  "LI",
  "NO",
  "GB",
  "AU",
  "IL",
  "CA",
  "US",
] as const;

const countryByCode: ReadonlyMap<string, Country> = new Map(
  (Object.entries(countryCodes) as Array<[Country, string]>).map(([name, code]) => [code, name]),
);

/** The sign-up country of an ISO 3166-1 alpha-2 code (upper case), or undefined. */
export function countryOfCode(code: string): Country | undefined {
  return countryByCode.get(code);
}

/**
 * Parses RESTRICTED_COUNTRIES: comma-separated codes, spaces and case ignored; empty means
 * none. Unknown codes are returned so the start can refuse them by name.
 */
export function parseRestrictedCountryCodes(
  text: string,
): { ok: true; countries: Country[] } | { ok: false; unknown: string[] } {
  const codes = text
    .split(",")
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code.length > 0);
  const unknown = codes.filter((code) => !countryByCode.has(code));
  if (unknown.length > 0) return { ok: false, unknown };
  return { ok: true, countries: [...new Set(codes.map((code) => countryByCode.get(code)!))] };
}

/** The sign-up form's and the server's message on `country`. */
export function signUpRestrictedMessage(country: string): string {
  return `We cannot open accounts for residents of ${country}: binary options may not be offered to retail traders there.`;
}

/** The refusal of a real-money trade or deposit (COUNTRY_RESTRICTED). */
export function realMoneyRestrictedMessage(country: string): string {
  return `Real-money trading and deposits are not available in ${country}, the country on your account. Practice trading and withdrawals remain available.`;
}

/** The dashboard's note for a resident of a restricted country. */
export function tradingRestrictedNotice(country: string): string {
  return `Real-money trading is not available in ${country}, the country on your account. Practice trading is available.`;
}

/** The deposit page's note: why deposits are off. */
export function depositsRestrictedNotice(country: string): string {
  return `Deposits are off: binary options may not be offered to retail traders in ${country}, the country on your account, so real-money deposits and trading are not available. Withdrawals remain available.`;
}

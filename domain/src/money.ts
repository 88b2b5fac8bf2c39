/**
 * Money is integer US cents below the API edge. JavaScript numbers are exact for integers
 * up to 2^53 - 1, so every cents value is guarded with Number.isSafeInteger: a value past
 * that bound would silently round and lose money, which is a programmer error, not input.
 */

export type Cents = number;

export const CENTS_PER_DOLLAR = 100;

/** Largest amount the platform will ever hold in one figure: $90 trillion in cents is safe. */
export function assertCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`not a safe integer number of cents: ${value}`);
  }
  return value;
}

/**
 * Dollars as a number with at most 2 decimals (as the API carries them) → cents.
 * Returns null when the value has more than 2 decimals or is not finite, so callers can
 * answer with a validation message instead of rounding a trader's money away.
 *
 * Decided on the number's shortest decimal form (what the JSON said), not on dollars * 100:
 * floating-point noise in the product grows with the amount, and a fixed tolerance would
 * either refuse large valid amounts or accept small invalid ones.
 */
export function centsFromDollars(dollars: number): Cents | null {
  if (!Number.isFinite(dollars)) return null;
  const text = String(Math.abs(dollars));
  // Exponent forms are either below a cent (1e-7) or far beyond any safe amount (1e+21).
  if (text.includes("e")) return dollars === 0 ? 0 : null;
  const [whole = "0", fraction = ""] = text.split(".");
  if (fraction.length > 2) return null;
  const magnitude = Number(whole) * CENTS_PER_DOLLAR + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(magnitude)) return null;
  return magnitude === 0 ? 0 : dollars < 0 ? -magnitude : magnitude;
}

/** Cents → dollars as the API speaks them (a number with at most 2 decimals). */
export function dollarsFromCents(cents: Cents): number {
  assertCents(cents);
  return cents / CENTS_PER_DOLLAR;
}

const usdFormat = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "$1,234.50" — balances are shown in en-US with 2 decimals (SPEC §9). */
export function formatUsdFromCents(cents: Cents): string {
  return usdFormat.format(dollarsFromCents(cents));
}

/** Same format for a dollars figure already read from the API. */
export function formatUsd(dollars: number): string {
  return usdFormat.format(dollars);
}

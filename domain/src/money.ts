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
 */
export function centsFromDollars(dollars: number): Cents | null {
  if (!Number.isFinite(dollars)) return null;
  const scaled = dollars * CENTS_PER_DOLLAR;
  const cents = Math.round(scaled);
  // 0.1 * 100 = 10.000000000000002: allow binary noise far below a cent, nothing more.
  if (Math.abs(scaled - cents) > 1e-6) return null;
  if (!Number.isSafeInteger(cents)) return null;
  return cents === 0 ? 0 : cents; // no -0
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

/**
 * The real share of losing accounts (issue 14 item 5, PRODUCT.md D17): the words the
 * server's public disclosure, the footer, the first-real-trade warning and the
 * /risk-disclosure page all use. No zod here: the footer is on every page's first load.
 */

/** A day's figure as GET /risk-disclosure gives it (risk-disclosure-api.ts checks it). */
export interface LosingAccountsSnapshot {
  computed_at: string;
  period_start: string;
  period_end: string;
  /** Real-money trader accounts with at least one stake in the period. */
  accounts_traded: number;
  /** Of those, the accounts whose trading result over the period is below zero. */
  accounts_lost: number;
  /** LOSING_ACCOUNTS_MIN_ACCOUNTS when it was computed. */
  min_accounts: number;
  /** Whole percent; null below the minimum (never a made-up figure). */
  lost_percent: number | null;
}

export interface RiskDisclosure {
  /** Null until the first day's figure has been computed. */
  snapshot: LosingAccountsSnapshot | null;
  /** The sentence the risk warnings add. */
  sentence: string;
  /** How the figure is computed, in words. */
  method: string;
}

/** The months the figure looks back over. */
export const losing_accounts_period_months = 12;

export const notEnoughDataSentence =
  "There is not yet enough data to state the share of real-money accounts on this platform that lost money trading in the last 12 months.";

/** The risk warning's sentence for a figure, or the not-enough-data one. */
export function losingAccountsSentence(lostPercent: number | null): string {
  if (lostPercent === null) return notEnoughDataSentence;
  return `${lostPercent}% of real-money accounts on this platform lost money trading in the last 12 months.`;
}

/** The method, stated on the public page and in the API reply. */
export function losingAccountsMethod(minAccounts: number): string {
  return [
    "Once a day the platform takes every real-money trader account (practice accounts and staff are left out) that placed at least one trade in the 12 months before the computation.",
    "For each account it adds up the account's trading entries in the ledger over those 12 months: stakes count as negative, payouts and refunds as positive; deposits, withdrawals and fees are not trading and are left out.",
    "Entries count by the moment they were posted: a trade still open at the computation has only its stake in the ledger, so it counts as a loss of its whole stake until it settles.",
    "A refunded trade (its stake returned in full) adds its stake and its refund, which cancel out: it is neither a loss nor a gain, and its account still counts as having traded.",
    "A trade staked before the 12 months and settled within them adds its payout or refund but not its stake; an account counts only with at least one stake within the 12 months.",
    "An account whose sum is below zero lost money.",
    "The figure is the number of accounts that lost money divided by the number of accounts that traded, rounded to a whole percent (halves up).",
    `When fewer than ${minAccounts} accounts traded, no percentage is stated.`,
    "Each day's result is stored, so the figure shown is the one computed that day.",
  ].join(" ");
}

/** Whole percent of `lost` among `traded`, halves rounded up, in integers (no float drift). */
export function roundedPercent(lost: number, traded: number): number {
  if (!(Number.isSafeInteger(lost) && Number.isSafeInteger(traded) && traded > 0)) {
    throw new RangeError("roundedPercent: lost and traded are whole numbers, traded above 0");
  }
  return Math.floor((200 * lost + traded) / (2 * traded));
}

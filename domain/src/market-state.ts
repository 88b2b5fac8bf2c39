/**
 * Whether an asset trades now (issue 11). One word for the API, the stream and every screen:
 * - `open`: inside its trading hours, and the feed is live;
 * - `closed`: outside its trading hours (domain/src/market-hours.ts), with the next opening;
 * - `halted`: inside its hours but the feed is stale (or this process cannot see it), so
 *   trading pauses until live prices return.
 */
export const marketStates = ["open", "closed", "halted"] as const;
export type MarketState = (typeof marketStates)[number];

export const marketStateMessages = {
  /** Followed by " — opens in 2 h 14 min" when the opening is known. */
  closed: "Market closed",
  halted: "Prices delayed — trading paused",
  /** On the real account while the asset's prices are simulated (PRODUCT.md D2). */
  realUnavailable: "Real-account trading is not available while prices are simulated.",
} as const;

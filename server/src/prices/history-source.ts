import type { FeedSource } from "../feeds/tick.ts";
import type { BackfilledCandle } from "./price-history.ts";

/**
 * Where a feed's past comes from (issue 11: history from the first minute): the provider's
 * own history API for a real feed (Binance klines, the multi-asset provider's candles), the
 * seeded generator's deterministic past for the simulator. The backfill asks each source
 * for the 1-minute candles missing between the newest stored one and now, on start and
 * after every gap, and stores them marked as backfilled: for the chart only, never to
 * settle a trade (PRODUCT.md D1).
 */
export interface HistorySource {
  readonly source: FeedSource;
  /** Catalogue symbols this source has history for. */
  readonly symbols: readonly string[];
  /**
   * 1-minute candles of `symbol` with fromMs <= bucket < toMs, oldest first (buckets aligned
   * to the minute). Resolves with what the provider gave; rejects on a failure it cannot
   * get past (the backfill logs it and tries again at the next gap).
   */
  minuteCandles(
    symbol: string,
    fromMs: number,
    toMs: number,
    signal: AbortSignal,
  ): Promise<BackfilledCandle[]>;
}

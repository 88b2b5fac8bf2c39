/**
 * The chart's bar sizes (issue 11): GET /candles serves each, the chart's picker offers each.
 * 1 s and 1 m are stored; 5 m and up are aggregated in the database from the 1-minute
 * candles, in buckets aligned to the epoch (so 4 h and 1 d start at 00:00 UTC).
 */
export const candleIntervals = ["1s", "1m", "5m", "15m", "1h", "4h", "1d"] as const;
export type CandleInterval = (typeof candleIntervals)[number];

export const candle_interval_ms: Readonly<Record<CandleInterval, number>> = {
  "1s": 1_000,
  "1m": 60_000,
  "5m": 5 * 60_000,
  "15m": 15 * 60_000,
  "1h": 60 * 60_000,
  "4h": 4 * 60 * 60_000,
  "1d": 24 * 60 * 60_000,
};

export function isCandleInterval(value: string): value is CandleInterval {
  return (candleIntervals as readonly string[]).includes(value);
}

import { type CandleInterval, candle_interval_ms, candleIntervals } from "@tp/domain/candles";
import { z } from "zod";
import { apiRequest } from "./client.ts";

// The chart's bar sizes: one list with the server (domain/src/candles.ts), re-exported here
// so the chart keeps importing its API from one file.
export { type CandleInterval, candle_interval_ms, candleIntervals };

/**
 * The start of the bar `atMs` falls in, as the server buckets it: from the Unix epoch,
 * which is 00:00 UTC, so a day bar starts at 00:00 UTC and a 4-hour bar at 00, 04, 08… UTC.
 */
export function bucketStartMs(atMs: number, interval: CandleInterval): number {
  const size = candle_interval_ms[interval];
  return Math.floor(atMs / size) * size;
}

const candleSchema = z.object({
  /** Epoch milliseconds of the candle's start. */
  time: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
});
export type Candle = z.infer<typeof candleSchema>;

const candlesDataSchema = z.object({ candles: z.array(candleSchema) });

/**
 * GET /candles: the newest candles (at most 1000, oldest first) of one asset, of the range
 * `fromMs`..now when given (the chart fills what it missed while the socket was down), else
 * the newest the server keeps. The chart reads them once per symbol and interval, then
 * builds on them from live ticks.
 */
export async function fetchCandles(
  symbol: string,
  interval: CandleInterval,
  signal?: AbortSignal,
  range: { fromMs?: number } = {},
): Promise<Candle[]> {
  const query = new URLSearchParams({ symbol, interval });
  if (range.fromMs !== undefined) query.set("from", new Date(range.fromMs).toISOString());
  const reply = await apiRequest<unknown>(`/candles?${query}`, { signal });
  const parsed = candlesDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The candles reply does not match its schema");
  return parsed.data.candles;
}

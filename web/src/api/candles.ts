import { z } from "zod";
import { apiRequest } from "./client.ts";

/** The chart's bar sizes: GET /candles serves 1-second and 1-minute candles. */
export const candleIntervals = ["1s", "1m"] as const;
export type CandleInterval = (typeof candleIntervals)[number];

export const candle_interval_ms: Record<CandleInterval, number> = { "1s": 1_000, "1m": 60_000 };

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
 * GET /candles: the newest candles (at most 1000, oldest first) of one asset. The chart reads
 * them once per symbol and interval, then builds on them from live ticks.
 */
export async function fetchCandles(
  symbol: string,
  interval: CandleInterval,
  signal?: AbortSignal,
): Promise<Candle[]> {
  const query = new URLSearchParams({ symbol, interval });
  const reply = await apiRequest<unknown>(`/candles?${query}`, { signal });
  const parsed = candlesDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The candles reply does not match its schema");
  return parsed.data.candles;
}

import { findAsset } from "@tp/domain/catalogue";
import type { Queryable } from "../db/database.ts";
import { simulatedMinuteBars } from "../feeds/simulated-history.ts";
import { simulatedStartPrices } from "../feeds/simulated-market.ts";
import type { HistorySource } from "./history-source.ts";
import { closeBefore } from "./price-history.ts";

/**
 * The simulator's past as a history source: the seeded walk of feeds/simulated-history.ts,
 * continuing from the close stored before the gap (or the built-in start level on an empty
 * database), so the chart has no jump where stored history meets the filled past, and the
 * live simulator, which resumes from the newest close, none where the past meets it.
 */
export function createSimulatedHistorySource(options: {
  database: Queryable;
  seed: number;
  symbols: readonly string[];
}): HistorySource {
  const { database, seed } = options;
  return {
    source: "simulated",
    symbols: options.symbols,
    async minuteCandles(symbol, fromMs, toMs) {
      const asset = findAsset(symbol);
      const startLevel = simulatedStartPrices[symbol];
      if (!asset || startLevel === undefined) {
        throw new Error(`simulated history: ${symbol} is not in the catalogue`);
      }
      const firstMinuteMs = Math.ceil(fromMs / 60_000) * 60_000;
      const open = (await closeBefore(database, symbol, firstMinuteMs)) ?? startLevel;
      return simulatedMinuteBars(seed, asset, firstMinuteMs, toMs, open).map((bar) => ({
        symbol,
        bucketMs: bar.timeMs,
        open: bar.open,
        high: bar.high,
        low: bar.low,
        close: bar.close,
        source: "simulated" as const,
      }));
    },
  };
}

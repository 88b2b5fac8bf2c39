import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/database.ts";
import type { FeedSource } from "../feeds/tick.ts";
import type { HistorySource } from "./history-source.ts";
import { newestMinuteBefore, recordBackfilledCandles } from "./price-history.ts";

/**
 * History from the first minute (issue 11): the 1-minute candles missing between the newest
 * stored one (live or backfilled) and the current minute, at most PRICE_HISTORY_HOURS back,
 * asked of each symbol's history source and stored marked as backfilled (chart only, never
 * to settle a trade). Run at start, before the feeds (the simulator resumes from the newest
 * close), and for one symbol after a real feed's gap. Idempotent and safe in two processes
 * at once: a bucket already stored is left as it is (live candles always win), and the
 * simulated past is the same whoever makes it.
 */

/**
 * PRICE_HISTORY_HOURS' default: two days, so the 24 h change has its reference and a 1-day
 * chart more than one bar. A first start on PGlite makes 115,200 simulated minutes (about 3 s
 * of CPU: 240 steps each, then the inserts); later starts fill only the time they were down.
 */
export const price_history_hours_default = 48;
const minute_ms = 60_000;
const hour_ms = 60 * minute_ms;
/** The start waits at most this long for history; the rest is filled at the next start or gap. */
export const backfill_start_timeout_ms = 60_000;
/** Candles per INSERT: a symbol's two days in one statement, its parameters still small. */
export const backfill_chunk_candles = 5_000;

export interface BackfillReport {
  source: FeedSource;
  symbols: number;
  /** Candles stored (buckets already held are not counted). */
  candles: number;
  /** Symbols whose source failed (logged; tried again at the next gap or start). */
  failed: number;
  ms: number;
}

export interface HistoryBackfill {
  /** Fills every symbol of every source; sources run side by side. Never rejects. */
  run(signal: AbortSignal): Promise<BackfillReport[]>;
  /**
   * Fills one symbol's gap up to the current minute: from the newest candle stored before it,
   * or from `sinceMs` (when the feed was lost) when given. Resolves with the candles stored;
   * rejects when the source fails. A second call for a symbol being filled joins the first.
   */
  backfillGap(
    symbol: string,
    options?: { sinceMs?: number; signal?: AbortSignal },
  ): Promise<number>;
}

export function createHistoryBackfill(options: {
  database: Queryable;
  clock: Clock;
  log: FastifyBaseLogger;
  sources: readonly HistorySource[];
  /** How far back to fill (PRICE_HISTORY_HOURS); 0 fills nothing. */
  hours: number;
}): HistoryBackfill {
  const { database, clock, log, sources, hours } = options;
  const inFlight = new Map<string, Promise<number>>();

  async function fill(
    source: HistorySource,
    symbol: string,
    signal: AbortSignal,
    sinceMs: number | undefined,
  ): Promise<number> {
    if (hours <= 0) return 0;
    // The current minute is the live feed's: only whole minutes of the past are filled.
    const currentMinuteMs = Math.floor(clock.now().getTime() / minute_ms) * minute_ms;
    const earliestMs = currentMinuteMs - hours * hour_ms;
    let fromMs: number;
    if (sinceMs !== undefined) {
      fromMs = Math.floor(sinceMs / minute_ms) * minute_ms;
    } else {
      const newestMs = await newestMinuteBefore(database, symbol, currentMinuteMs);
      fromMs = newestMs === undefined ? earliestMs : newestMs + minute_ms;
    }
    fromMs = Math.max(fromMs, earliestMs);
    if (fromMs >= currentMinuteMs) return 0;
    const candles = (await source.minuteCandles(symbol, fromMs, currentMinuteMs, signal)).filter(
      // Only what was asked for: another symbol, an unaligned or a live bucket is not stored.
      (candle) =>
        candle.symbol === symbol &&
        candle.bucketMs % minute_ms === 0 &&
        candle.bucketMs >= fromMs &&
        candle.bucketMs < currentMinuteMs,
    );
    let stored = 0;
    for (let start = 0; start < candles.length; start += backfill_chunk_candles) {
      signal.throwIfAborted();
      const chunk = candles.slice(start, start + backfill_chunk_candles);
      stored += await recordBackfilledCandles(database, "candles_1m", chunk);
    }
    return stored;
  }

  function fillOnce(
    source: HistorySource,
    symbol: string,
    signal: AbortSignal,
    sinceMs?: number,
  ): Promise<number> {
    const running = inFlight.get(symbol);
    if (running) return running;
    const filling = fill(source, symbol, signal, sinceMs).finally(() => inFlight.delete(symbol));
    inFlight.set(symbol, filling);
    return filling;
  }

  async function runSource(source: HistorySource, signal: AbortSignal): Promise<BackfillReport> {
    const startedMs = performance.now();
    let candles = 0;
    let failed = 0;
    for (const symbol of source.symbols) {
      if (signal.aborted) {
        failed += 1;
        continue;
      }
      try {
        candles += await fillOnce(source, symbol, signal);
      } catch (error) {
        failed += 1;
        log.warn({ err: error, source: source.source, symbol }, "could not backfill price history");
      }
    }
    const report = {
      source: source.source,
      symbols: source.symbols.length,
      candles,
      failed,
      ms: Math.round(performance.now() - startedMs),
    };
    log.info({ ...report, hours }, "price history backfilled");
    return report;
  }

  return {
    async run(signal) {
      if (hours <= 0) return [];
      return Promise.all(sources.map((source) => runSource(source, signal)));
    },
    backfillGap(symbol, gapOptions = {}) {
      const source = sources.find((candidate) => candidate.symbols.includes(symbol));
      if (!source) return Promise.resolve(0);
      return fillOnce(
        source,
        symbol,
        gapOptions.signal ?? new AbortController().signal,
        gapOptions.sinceMs,
      );
    },
  };
}

/** One pass over every source (start-up): see createHistoryBackfill. */
export function backfillHistory(options: {
  database: Queryable;
  clock: Clock;
  log: FastifyBaseLogger;
  sources: readonly HistorySource[];
  hours: number;
  signal: AbortSignal;
}): Promise<BackfillReport[]> {
  return createHistoryBackfill(options).run(options.signal);
}

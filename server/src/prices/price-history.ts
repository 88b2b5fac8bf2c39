import { type CandleInterval, candle_interval_ms } from "@tp/domain/candles";
import { type Asset, assetCatalogue, findAsset } from "@tp/domain/catalogue";
import type { Queryable } from "../db/database.ts";
import { simulatedSecondBars } from "../feeds/simulated-history.ts";
import type { FeedSource, Tick } from "../feeds/tick.ts";

/**
 * The prices module's tables: raw ticks (kept `tick_retention_ms`), 1-second candles (kept
 * `candle_1s_retention_ms`) and 1-minute candles (kept). What settles a trade after a
 * restart and what the chart and the audit read.
 */
export const tick_retention_ms = 2 * 60 * 60 * 1000;
export const candle_1s_retention_ms = 48 * 60 * 60 * 1000;

interface CandleAccumulator {
  symbol: string;
  bucketMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  closeAtMs: number;
  ticks: number;
  source: FeedSource;
}

function accumulate(ticks: Tick[], bucketSizeMs: number): CandleAccumulator[] {
  const candles = new Map<string, CandleAccumulator>();
  for (const tick of ticks) {
    const bucketMs = Math.floor(tick.at / bucketSizeMs) * bucketSizeMs;
    const key = `${tick.symbol}@${bucketMs}`;
    const candle = candles.get(key);
    if (!candle) {
      candles.set(key, {
        symbol: tick.symbol,
        bucketMs,
        open: tick.price,
        high: tick.price,
        low: tick.price,
        close: tick.price,
        closeAtMs: tick.at,
        ticks: 1,
        source: tick.source,
      });
      continue;
    }
    candle.high = Math.max(candle.high, tick.price);
    candle.low = Math.min(candle.low, tick.price);
    if (tick.at >= candle.closeAtMs) {
      candle.close = tick.price;
      candle.closeAtMs = tick.at;
    }
    candle.ticks += 1;
  }
  return [...candles.values()];
}

async function upsertCandles(
  transaction: Queryable,
  table: "candles_1s" | "candles_1m",
  candles: CandleAccumulator[],
) {
  if (candles.length === 0) return;
  // A bucket may be written by several flushes (it spans them): merge, never overwrite. A
  // backfilled candle in the bucket is replaced whole: a candle is live or backfilled, not both.
  await transaction.query(
    `INSERT INTO ${table} (symbol, bucket, open, high, low, close, close_at, ticks, source)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::float8[], $4::float8[], $5::float8[],
                          $6::float8[], $7::timestamptz[], $8::int[], $9::text[])
     ON CONFLICT (symbol, bucket) DO UPDATE SET
       open = CASE WHEN ${table}.backfilled THEN EXCLUDED.open ELSE ${table}.open END,
       high = CASE WHEN ${table}.backfilled THEN EXCLUDED.high
                   ELSE GREATEST(${table}.high, EXCLUDED.high) END,
       low = CASE WHEN ${table}.backfilled THEN EXCLUDED.low
                  ELSE LEAST(${table}.low, EXCLUDED.low) END,
       close = CASE WHEN ${table}.backfilled OR EXCLUDED.close_at >= ${table}.close_at
                    THEN EXCLUDED.close ELSE ${table}.close END,
       close_at = CASE WHEN ${table}.backfilled THEN EXCLUDED.close_at
                       ELSE GREATEST(${table}.close_at, EXCLUDED.close_at) END,
       ticks = CASE WHEN ${table}.backfilled THEN 0 ELSE ${table}.ticks END + EXCLUDED.ticks,
       source = EXCLUDED.source,
       backfilled = false`,
    [
      candles.map((candle) => candle.symbol),
      candles.map((candle) => new Date(candle.bucketMs).toISOString()),
      candles.map((candle) => candle.open),
      candles.map((candle) => candle.high),
      candles.map((candle) => candle.low),
      candles.map((candle) => candle.close),
      candles.map((candle) => new Date(candle.closeAtMs).toISOString()),
      candles.map((candle) => candle.ticks),
      candles.map((candle) => candle.source),
    ],
  );
}

/** Stores a batch of ticks and folds them into both candle tables, in one transaction. */
export async function recordTicks(transaction: Queryable, ticks: Tick[]): Promise<void> {
  if (ticks.length === 0) return;
  await transaction.query(
    `INSERT INTO price_ticks (symbol, at, price, source)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::float8[], $4::text[])`,
    [
      ticks.map((tick) => tick.symbol),
      ticks.map((tick) => new Date(tick.at).toISOString()),
      ticks.map((tick) => tick.price),
      ticks.map((tick) => tick.source),
    ],
  );
  // Sorted, so the lock order on candle rows is the same in every flush of every process.
  const sorted = [...ticks].sort((a, b) => a.symbol.localeCompare(b.symbol) || a.at - b.at);
  await upsertCandles(transaction, "candles_1s", accumulate(sorted, 1000));
  await upsertCandles(transaction, "candles_1m", accumulate(sorted, 60_000));
}

interface TickRow {
  symbol: string;
  at: Date;
  price: number;
  source: FeedSource;
}

const toTick = (row: TickRow): Tick => ({
  symbol: row.symbol,
  at: row.at.getTime(),
  price: row.price,
  source: row.source,
});

/**
 * The tick in force at `at` from the database: the raw ticks while they are kept, then the
 * close of the last 1-second candle that closed at or before `at`, then the 1-minute one.
 * Only what the platform received live: backfilled candles never price a trade.
 */
export async function tickInForceFromDatabase(
  queryable: Queryable,
  symbol: string,
  at: Date,
): Promise<Tick | undefined> {
  const raw = await queryable.query<TickRow>(
    `SELECT symbol, at, price, source FROM price_ticks
     WHERE symbol = $1 AND at <= $2 ORDER BY at DESC LIMIT 1`,
    [symbol, at],
  );
  if (raw.rows[0]) return toTick(raw.rows[0]);
  for (const table of ["candles_1s", "candles_1m"]) {
    const candle = await queryable.query<TickRow>(
      `SELECT symbol, close_at AS at, close AS price, source FROM ${table}
       WHERE symbol = $1 AND close_at <= $2 AND NOT backfilled ORDER BY bucket DESC LIMIT 1`,
      [symbol, at],
    );
    if (candle.rows[0]) return toTick(candle.rows[0]);
  }
  return undefined;
}

/**
 * The first tick the platform recorded live after `at` (or one no earlier than it): the
 * raw ticks, and the last tick (close_at) of the first live 1-second candle that closed
 * after `at`, whichever is earlier. The candles answer once the raw ticks are pruned.
 */
export async function firstTickAfterFromDatabase(
  queryable: Queryable,
  symbol: string,
  at: Date,
): Promise<Tick | undefined> {
  const raw = await queryable.query<TickRow>(
    `SELECT symbol, at, price, source FROM price_ticks
     WHERE symbol = $1 AND at > $2 ORDER BY at LIMIT 1`,
    [symbol, at],
  );
  const candle = await queryable.query<TickRow>(
    `SELECT symbol, close_at AS at, close AS price, source FROM candles_1s
     WHERE symbol = $1 AND bucket >= $2 AND close_at > $3 AND NOT backfilled
     ORDER BY bucket LIMIT 1`,
    [symbol, new Date(Math.floor(at.getTime() / 1000) * 1000), at],
  );
  const ticks = [...raw.rows, ...candle.rows].map(toTick).sort((a, b) => a.at - b.at);
  return ticks[0];
}

export async function ticksBetweenFromDatabase(
  queryable: Queryable,
  symbol: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<Tick[]> {
  const result = await queryable.query<TickRow>(
    `SELECT symbol, at, price, source FROM price_ticks
     WHERE symbol = $1 AND at BETWEEN $2 AND $3 ORDER BY at LIMIT $4`,
    [symbol, from, to, limit],
  );
  return result.rows.map(toTick);
}

export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Every price says where it came from (PRODUCT.md D2). */
  source: FeedSource;
}

interface CandleRow {
  bucket: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  source: FeedSource;
}

const toCandle = (row: CandleRow): Candle => ({
  time: row.bucket.getTime(),
  open: row.open,
  high: row.high,
  low: row.low,
  close: row.close,
  source: row.source,
});

export interface CandleQuery {
  symbol: string;
  interval: CandleInterval;
  /** Every candle whose bucket overlaps [from, to] (the one holding `from` included). */
  from: Date;
  to: Date;
  /** At most this many, the newest of the range, returned oldest first. */
  limit: number;
  /** SIMULATED_FEED_SEED: the simulated past's 1-second candles are made again from it. */
  simulatedSeed: number;
}

/**
 * The chart's candles. 1 s and 1 m are read as stored; 5 m and up are aggregated here, in
 * the database, from the 1-minute candles (first open and last close by bucket order, the
 * extremes of highs and lows, the last candle's source), in buckets aligned to the epoch so
 * that 4 h and 1 d start at 00:00 UTC. Each bucket is aggregated whole.
 */
export async function readCandles(queryable: Queryable, query: CandleQuery): Promise<Candle[]> {
  const sizeMs = candle_interval_ms[query.interval];
  const fromMs = Math.floor(query.from.getTime() / sizeMs) * sizeMs;
  const toMs = query.to.getTime();
  if (toMs < fromMs || query.limit <= 0) return [];
  if (query.interval === "1s") return readSecondCandles(queryable, query, fromMs, toMs);
  if (query.interval === "1m") {
    const result = await queryable.query<CandleRow>(
      `SELECT bucket, open, high, low, close, source FROM (
         SELECT bucket, open, high, low, close, source FROM candles_1m
         WHERE symbol = $1 AND bucket BETWEEN $2 AND $3 ORDER BY bucket DESC LIMIT $4
       ) newest ORDER BY bucket`,
      [query.symbol, new Date(fromMs), query.to, query.limit],
    );
    return result.rows.map(toCandle);
  }
  // Only the newest `limit` buckets can be returned: the scan starts no earlier than them.
  const lastBucketMs = Math.floor(toMs / sizeMs) * sizeMs;
  const firstBucketMs = Math.max(fromMs, lastBucketMs - (query.limit - 1) * sizeMs);
  const result = await queryable.query<CandleRow>(
    `SELECT to_timestamp(bucket_s) AS bucket, open, high, low, close, source FROM (
       SELECT (floor(extract(epoch FROM bucket) / $4::int) * $4::int)::float8 AS bucket_s,
              (array_agg(open ORDER BY bucket))[1] AS open,
              max(high) AS high,
              min(low) AS low,
              (array_agg(close ORDER BY bucket DESC))[1] AS close,
              (array_agg(source ORDER BY bucket DESC))[1] AS source
       FROM candles_1m
       WHERE symbol = $1 AND bucket >= $2 AND bucket < $3
       GROUP BY 1 ORDER BY 1 DESC LIMIT $5
     ) newest ORDER BY bucket_s`,
    [
      query.symbol,
      new Date(firstBucketMs),
      new Date(lastBucketMs + sizeMs),
      sizeMs / 1000,
      query.limit,
    ],
  );
  return result.rows.map(toCandle);
}

/**
 * 1-second candles: the live ones, and for the simulated past (stored as 1-minute candles
 * only: 3.5 million rows a day is not worth keeping) each minute's 60 seconds made again
 * from its stored candle's open with the same seeded walk. A real provider's past has no
 * seconds: over it the reply holds what is stored (no 1-second candles).
 */
async function readSecondCandles(
  queryable: Queryable,
  query: CandleQuery,
  fromMs: number,
  toMs: number,
): Promise<Candle[]> {
  const live = await queryable.query<CandleRow>(
    `SELECT bucket, open, high, low, close, source FROM candles_1s
     WHERE symbol = $1 AND bucket BETWEEN $2 AND $3 ORDER BY bucket DESC LIMIT $4`,
    [query.symbol, new Date(fromMs), query.to, query.limit],
  );
  const byTime = new Map<number, Candle>();
  const asset = findAsset(query.symbol);
  if (asset) await addSimulatedSeconds(queryable, query, asset, fromMs, toMs, byTime);
  // A live 1-second candle always wins over a made-again one.
  for (const row of live.rows) byTime.set(row.bucket.getTime(), toCandle(row));
  return [...byTime.values()].sort((a, b) => a.time - b.time).slice(-query.limit);
}

async function addSimulatedSeconds(
  queryable: Queryable,
  query: CandleQuery,
  asset: Asset,
  fromMs: number,
  toMs: number,
  byTime: Map<number, Candle>,
) {
  // Enough minutes for `limit` seconds, with a partial minute at either end of the range.
  const minutes = await queryable.query<CandleRow>(
    `SELECT bucket, open, high, low, close, source FROM candles_1m
     WHERE symbol = $1 AND backfilled AND source = 'simulated' AND bucket BETWEEN $2 AND $3
     ORDER BY bucket DESC LIMIT $4`,
    [
      query.symbol,
      new Date(Math.floor(fromMs / 60_000) * 60_000),
      query.to,
      Math.ceil(query.limit / 60) + 2,
    ],
  );
  for (const minute of minutes.rows) {
    const seconds = simulatedSecondBars(
      query.simulatedSeed,
      asset,
      minute.bucket.getTime(),
      minute.open,
    );
    // Another seed (SIMULATED_FEED_SEED changed since) walks another path: seconds that do
    // not make up the stored minute would contradict it, so none are shown for it.
    const last = seconds[seconds.length - 1];
    if (
      last?.close !== minute.close ||
      Math.max(...seconds.map((bar) => bar.high)) !== minute.high ||
      Math.min(...seconds.map((bar) => bar.low)) !== minute.low
    ) {
      continue;
    }
    for (const bar of seconds) {
      if (bar.timeMs < fromMs || bar.timeMs > toMs) continue;
      byTime.set(bar.timeMs, {
        time: bar.timeMs,
        open: bar.open,
        high: bar.high,
        low: bar.low,
        close: bar.close,
        source: "simulated",
      });
    }
  }
}

/**
 * A candle the platform did not receive live: from a provider's history API or the
 * simulator's own past. Stored with `backfilled = true`: the chart shows it, settlement and
 * the audit never use it (PRODUCT.md D1).
 */
export interface BackfilledCandle {
  symbol: string;
  /** Start of the bucket, epoch ms, aligned to the table's bucket size. */
  bucketMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  source: FeedSource;
}

/**
 * Stores backfilled candles. A bucket the platform already holds (live or backfilled) is
 * left as it is: live candles always win over history from elsewhere.
 */
export async function recordBackfilledCandles(
  queryable: Queryable,
  table: "candles_1s" | "candles_1m",
  candles: BackfilledCandle[],
  bucketSizeMs: number = table === "candles_1s" ? 1_000 : 60_000,
): Promise<number> {
  if (candles.length === 0) return 0;
  const result = await queryable.query(
    `INSERT INTO ${table} (symbol, bucket, open, high, low, close, close_at, ticks, source, backfilled)
     SELECT symbol, to_timestamp(bucket_ms / 1000), open, high, low, close,
            to_timestamp(bucket_ms / 1000) + $7::interval, 0, source, true
     FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::float8[],
                 $6::float8[], $8::text[]) AS c(symbol, bucket_ms, open, high, low, close, source)
     ON CONFLICT (symbol, bucket) DO NOTHING`,
    [
      candles.map((candle) => candle.symbol),
      // Epoch ms, not ISO text: the simulated past is 57,600 rows a day to encode and parse.
      candles.map((candle) => candle.bucketMs),
      candles.map((candle) => candle.open),
      candles.map((candle) => candle.high),
      candles.map((candle) => candle.low),
      candles.map((candle) => candle.close),
      // close_at: the bucket's last instant (a backfilled candle has no tick times).
      `${bucketSizeMs - 1} milliseconds`,
      candles.map((candle) => candle.source),
    ],
  );
  return result.rowCount ?? candles.length;
}

/**
 * The 24 h change's reference of each symbol: its last close at or before `at`; for a symbol
 * whose history starts after `at` (no backfill, a new asset), the first price of its history,
 * so the change is "since it has prices" rather than none. Absent only for a symbol with no
 * history at all. One index probe per symbol (a DISTINCT ON would read every stored minute).
 */
export async function referenceCloses(
  queryable: Queryable,
  symbols: readonly string[],
  at: Date,
): Promise<Map<string, number>> {
  const result = await queryable.query<{ symbol: string; close: number }>(
    `SELECT wanted.symbol, COALESCE(before.close, after.open) AS close
     FROM unnest($1::text[]) AS wanted(symbol)
     LEFT JOIN LATERAL (
       SELECT close FROM candles_1m
       WHERE symbol = wanted.symbol AND bucket <= $2 AND close_at <= $2
       ORDER BY bucket DESC LIMIT 1
     ) before ON true
     LEFT JOIN LATERAL (
       SELECT open FROM candles_1m
       WHERE symbol = wanted.symbol AND bucket > $2::timestamptz - interval '1 minute'
       ORDER BY bucket LIMIT 1
     ) after ON true
     WHERE before.close IS NOT NULL OR after.open IS NOT NULL`,
    [symbols, at],
  );
  return new Map(result.rows.map((row) => [row.symbol, row.close]));
}

/**
 * The newest recorded close of every catalogue symbol, live or backfilled (where the
 * simulator resumes after a restart or a backfill, so its chart does not jump).
 */
export async function latestCloses(queryable: Queryable): Promise<Map<string, number>> {
  const result = await queryable.query<{ symbol: string; close: number }>(
    `SELECT wanted.symbol, newest.close FROM unnest($1::text[]) AS wanted(symbol)
     CROSS JOIN LATERAL (
       SELECT close FROM candles_1m WHERE symbol = wanted.symbol ORDER BY bucket DESC LIMIT 1
     ) newest`,
    [assetCatalogue.map((asset) => asset.symbol)],
  );
  return new Map(result.rows.map((row) => [row.symbol, row.close]));
}

/** The start of the newest stored 1-minute candle of `symbol` before `beforeMs` (the backfill's start). */
export async function newestMinuteBefore(
  queryable: Queryable,
  symbol: string,
  beforeMs: number,
): Promise<number | undefined> {
  const result = await queryable.query<{ bucket: Date }>(
    "SELECT bucket FROM candles_1m WHERE symbol = $1 AND bucket < $2 ORDER BY bucket DESC LIMIT 1",
    [symbol, new Date(beforeMs)],
  );
  return result.rows[0]?.bucket.getTime();
}

/** The close of the newest 1-minute candle of `symbol` before `beforeMs`, live or backfilled. */
export async function closeBefore(
  queryable: Queryable,
  symbol: string,
  beforeMs: number,
): Promise<number | undefined> {
  const result = await queryable.query<{ close: number }>(
    "SELECT close FROM candles_1m WHERE symbol = $1 AND bucket < $2 ORDER BY bucket DESC LIMIT 1",
    [symbol, new Date(beforeMs)],
  );
  return result.rows[0]?.close;
}

/** Deletes raw ticks and 1-second candles past their retention. */
export async function prunePriceHistory(queryable: Queryable, now: Date): Promise<void> {
  await queryable.query("DELETE FROM price_ticks WHERE at < $1", [
    new Date(now.getTime() - tick_retention_ms),
  ]);
  await queryable.query("DELETE FROM candles_1s WHERE bucket < $1", [
    new Date(now.getTime() - candle_1s_retention_ms),
  ]);
}

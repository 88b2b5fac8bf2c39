import type { Queryable } from "../db/database.ts";
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
  // A bucket may be written by several flushes (it spans them): merge, never overwrite.
  await transaction.query(
    `INSERT INTO ${table} (symbol, bucket, open, high, low, close, close_at, ticks, source)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::float8[], $4::float8[], $5::float8[],
                          $6::float8[], $7::timestamptz[], $8::int[], $9::text[])
     ON CONFLICT (symbol, bucket) DO UPDATE SET
       high = GREATEST(${table}.high, EXCLUDED.high),
       low = LEAST(${table}.low, EXCLUDED.low),
       close = CASE WHEN EXCLUDED.close_at >= ${table}.close_at THEN EXCLUDED.close ELSE ${table}.close END,
       close_at = GREATEST(${table}.close_at, EXCLUDED.close_at),
       ticks = ${table}.ticks + EXCLUDED.ticks,
       source = EXCLUDED.source`,
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
       WHERE symbol = $1 AND close_at <= $2 ORDER BY bucket DESC LIMIT 1`,
      [symbol, at],
    );
    if (candle.rows[0]) return toTick(candle.rows[0]);
  }
  return undefined;
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

export async function readCandles(
  queryable: Queryable,
  symbol: string,
  interval: "1s" | "1m",
  from: Date,
  to: Date,
  limit: number,
): Promise<Candle[]> {
  const table = interval === "1s" ? "candles_1s" : "candles_1m";
  // The newest `limit` candles of the range, returned oldest first.
  const result = await queryable.query<{
    bucket: Date;
    open: number;
    high: number;
    low: number;
    close: number;
    source: FeedSource;
  }>(
    `SELECT bucket, open, high, low, close, source FROM (
       SELECT bucket, open, high, low, close, source FROM ${table}
       WHERE symbol = $1 AND bucket BETWEEN $2 AND $3 ORDER BY bucket DESC LIMIT $4
     ) newest ORDER BY bucket`,
    [symbol, from, to, limit],
  );
  return result.rows.map((row) => ({
    time: row.bucket.getTime(),
    open: row.open,
    high: row.high,
    low: row.low,
    close: row.close,
    source: row.source,
  }));
}

/** Closing prices at or before `at` for every symbol (the 24 h change's reference). */
export async function closesAt(queryable: Queryable, at: Date): Promise<Map<string, number>> {
  const result = await queryable.query<{ symbol: string; close: number }>(
    `SELECT DISTINCT ON (symbol) symbol, close FROM candles_1m
     WHERE bucket <= $1 AND bucket > $2 ORDER BY symbol, bucket DESC`,
    [at, new Date(at.getTime() - 60 * 60 * 1000)],
  );
  return new Map(result.rows.map((row) => [row.symbol, row.close]));
}

/** The newest recorded close of every symbol (where the simulator resumes after a restart). */
export async function latestCloses(queryable: Queryable): Promise<Map<string, number>> {
  const result = await queryable.query<{ symbol: string; close: number }>(
    "SELECT DISTINCT ON (symbol) symbol, close FROM candles_1m ORDER BY symbol, bucket DESC",
  );
  return new Map(result.rows.map((row) => [row.symbol, row.close]));
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

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import type { Database } from "../../src/db/database.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openPgliteDatabase } from "../../src/db/pglite-database.ts";
import { openPostgresDatabase } from "../../src/db/postgres-database.ts";
import { BinanceHistory } from "../../src/prices/binance-history.ts";
import { FinnhubHistory } from "../../src/prices/finnhub-history.ts";
import {
  readCandles,
  recordBackfilledCandles,
  recordTicks,
  tickInForceFromDatabase,
} from "../../src/prices/price-history.ts";
import {
  createMigratedPostgresDatabase,
  databaseKindsUnderTest,
  type FreshPostgres,
} from "../../src/testing/fresh-database.ts";
import { FakeProviders } from "../support/fake-providers.ts";
import { captureLog } from "./support/capture-log.ts";

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));
}

const minute_ms = 60_000;
const recordedMinuteMs = 1_717_999_980_000;

describe.each(databaseKindsUnderTest())("provider history stored on %s", (kind) => {
  let database: Database;
  let postgres: FreshPostgres | null = null;
  let provider: FakeProviders;
  const clock = new ManualClock(new Date(recordedMinuteMs + 10 * minute_ms));
  const log = captureLog();

  beforeAll(async () => {
    if (kind === "postgres") {
      postgres = await createMigratedPostgresDatabase(process.env.DATABASE_URL!, "history");
      database = await openPostgresDatabase(postgres.url);
    } else {
      database = await openPgliteDatabase(null);
    }
    await migrate(database);
    provider = await FakeProviders.start();
    provider.on("/api/v3/klines", { kind: "json", body: fixture("binance-klines-bchusdt.json") });
    provider.on("/api/v1/forex/candle", {
      kind: "json",
      body: fixture("finnhub-forex-candle-eur-usd.json"),
    });
  });
  afterAll(async () => {
    await provider?.close();
    await database?.close();
    await postgres?.drop();
  });

  async function storedRows(symbol: string) {
    const result = await database.query<{
      bucket: Date;
      close: number;
      ticks: number;
      source: string;
      backfilled: boolean;
    }>(
      "SELECT bucket, close, ticks, source, backfilled FROM candles_1m WHERE symbol = $1 ORDER BY bucket",
      [symbol],
    );
    return result.rows.map((row) => ({ ...row, bucket: row.bucket.getTime() }));
  }

  it("stores Binance's klines as backfilled 1-minute candles the chart reads", async () => {
    // A minute the platform received live: the provider's candle must not replace it.
    await database.transaction((transaction) =>
      recordTicks(transaction, [
        {
          symbol: "BTCUSD",
          price: 452.8,
          at: recordedMinuteMs + minute_ms + 5_000,
          source: "binance",
        },
      ]),
    );
    const history = new BinanceHistory({
      symbols: ["BTCUSD"],
      baseUrl: provider.url(""),
      logger: log.logger,
      clock,
    });
    const candles = await history.minuteCandles(
      "BTCUSD",
      recordedMinuteMs,
      recordedMinuteMs + 3 * minute_ms,
      new AbortController().signal,
    );
    expect(candles).toHaveLength(3);
    expect(await recordBackfilledCandles(database, "candles_1m", candles)).toBe(2);

    expect(await storedRows("BTCUSD")).toEqual([
      { bucket: recordedMinuteMs, close: 452.75, ticks: 0, source: "binance", backfilled: true },
      {
        bucket: recordedMinuteMs + minute_ms,
        close: 452.8,
        ticks: 1,
        source: "binance",
        backfilled: false,
      },
      {
        bucket: recordedMinuteMs + 2 * minute_ms,
        close: 452.58,
        ticks: 0,
        source: "binance",
        backfilled: true,
      },
    ]);
    const chart = await readCandles(database, {
      symbol: "BTCUSD",
      interval: "1m",
      from: new Date(recordedMinuteMs),
      to: new Date(recordedMinuteMs + 3 * minute_ms),
      limit: 100,
      simulatedSeed: 1,
    });
    expect(chart.map((candle) => candle.close)).toEqual([452.75, 452.8, 452.58]);
    // Backfilled history never prices a trade: at the end of the first minute nothing live is known.
    expect(
      await tickInForceFromDatabase(database, "BTCUSD", new Date(recordedMinuteMs + minute_ms - 1)),
    ).toBeUndefined();
  });

  it("stores Finnhub's candles as backfilled, and storing them again changes nothing", async () => {
    const history = new FinnhubHistory({
      symbols: ["EURUSD"],
      apiKey: "key",
      baseUrl: provider.url(""),
      logger: log.logger,
      clock,
      limits: { request_interval_ms: 0 },
    });
    const candles = await history.minuteCandles(
      "EURUSD",
      recordedMinuteMs,
      recordedMinuteMs + 3 * minute_ms,
      new AbortController().signal,
    );
    expect(await recordBackfilledCandles(database, "candles_1m", candles)).toBe(3);
    expect(await recordBackfilledCandles(database, "candles_1m", candles)).toBe(0);
    const rows = await storedRows("EURUSD");
    expect(rows.map((row) => [row.bucket, row.close, row.source, row.backfilled])).toEqual([
      [recordedMinuteMs, 1.07512, "finnhub", true],
      [recordedMinuteMs + minute_ms, 1.07518, "finnhub", true],
      [recordedMinuteMs + 2 * minute_ms, 1.07509, "finnhub", true],
    ]);
  });
});

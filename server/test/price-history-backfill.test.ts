import { type CandleInterval, candle_interval_ms, candleIntervals } from "@tp/domain/candles";
import { assetCatalogue, findAsset } from "@tp/domain/catalogue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../src/clock.ts";
import {
  simulatedMinuteBar,
  simulatedMinuteBars,
  simulatedSecondBars,
} from "../src/feeds/simulated-history.ts";
import { gbmStep, simulatedStartPrices } from "../src/feeds/simulated-market.ts";
import { createHistoryBackfill } from "../src/prices/history-backfill.ts";
import { createSimulatedHistorySources } from "../src/prices/history-sources.ts";
import {
  recordBackfilledCandles,
  recordTicks,
  tickInForceFromDatabase,
} from "../src/prices/price-history.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { httpClient } from "./support/http.ts";

const minute_ms = 60_000;
const hour_ms = 60 * minute_ms;
const day_ms = 24 * hour_ms;
/** Enough for a 24 h change and a day of candles at every interval, and a quick start. */
const history_hours = "26";
const start = new Date("2026-01-15T12:00:00Z");

interface CandleReply {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  source: string;
}

function candlesOf(platform: TestPlatform) {
  const http = httpClient(platform.baseUrl);
  return async (
    symbol: string,
    interval: CandleInterval,
    fromMs: number,
    toMs?: number,
  ): Promise<CandleReply[]> => {
    const query = new URLSearchParams({ symbol, interval, from: new Date(fromMs).toISOString() });
    if (toMs !== undefined) query.set("to", new Date(toMs).toISOString());
    const reply = await http.get(`/api/v1/candles?${query}`);
    expect(reply.status).toBe(200);
    return reply.body.data.candles;
  };
}

function expectContiguous(candles: CandleReply[], stepMs: number) {
  for (let index = 1; index < candles.length; index += 1) {
    expect((candles[index] as CandleReply).time - (candles[index - 1] as CandleReply).time).toBe(
      stepMs,
    );
  }
  for (const candle of candles) {
    expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
    expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
  }
}

describe("the simulated past (pure)", () => {
  const eurusd = findAsset("EURUSD");
  const bitcoin = findAsset("BTCUSDT");
  if (!eurusd || !bitcoin) throw new Error("catalogue changed");
  const fromMs = start.getTime() - 3 * hour_ms;

  it("is the same for the same seed and clock, and another for another seed", () => {
    const first = simulatedMinuteBars(7, bitcoin, fromMs, start.getTime(), 65_000);
    expect(first).toHaveLength(180);
    expect(simulatedMinuteBars(7, bitcoin, fromMs, start.getTime(), 65_000)).toEqual(first);
    expect(simulatedMinuteBars(8, bitcoin, fromMs, start.getTime(), 65_000)).not.toEqual(first);
    // Each minute opens at the previous close, and a minute depends only on its open.
    for (let index = 1; index < first.length; index += 1) {
      const minute = first[index] as (typeof first)[number];
      expect(minute.open).toBe((first[index - 1] as typeof minute).close);
      expect(simulatedMinuteBar(7, bitcoin, minute.timeMs, minute.open)).toEqual(minute);
    }
  });

  it("moves like the live simulator: per-step volatility of the asset's option type", () => {
    const bars = simulatedMinuteBars(3, eurusd, fromMs - 21 * hour_ms, start.getTime(), 1.08);
    const logReturns = bars.map((bar) => Math.log(bar.close / bar.open));
    const variance = logReturns.reduce((sum, value) => sum + value * value, 0) / bars.length;
    // 240 steps a minute of σ·√(250 ms): the minute's deviation within 10 % (1,440 samples).
    const expected = gbmStep("forex", 250).deviation * Math.sqrt(240);
    expect(Math.sqrt(variance) / expected).toBeGreaterThan(0.9);
    expect(Math.sqrt(variance) / expected).toBeLessThan(1.1);
  });

  it("makes each minute's 60 seconds again from its open, adding up to the minute exactly", () => {
    for (const asset of [eurusd, bitcoin, findAsset("XRPUSDT"), findAsset("JP225")]) {
      if (!asset) throw new Error("catalogue changed");
      const minutes = simulatedMinuteBars(
        11,
        asset,
        fromMs,
        start.getTime(),
        simulatedStartPrices[asset.symbol] as number,
      );
      for (const minute of minutes) {
        const seconds = simulatedSecondBars(11, asset, minute.timeMs, minute.open);
        expect(seconds).toHaveLength(60);
        expect(seconds[0]?.open).toBe(minute.open);
        expect(seconds[59]?.close).toBe(minute.close);
        expect(Math.max(...seconds.map((bar) => bar.high))).toBe(minute.high);
        expect(Math.min(...seconds.map((bar) => bar.low))).toBe(minute.low);
        expect(seconds.map((bar) => bar.timeMs - minute.timeMs)).toEqual(
          Array.from({ length: 60 }, (_, second) => second * 1_000),
        );
      }
    }
  });
});

describe.each(databaseKindsUnderTest())("price history backfill on %s", (kind) => {
  /** Backfilled, then the live simulator from FEED_SOURCES. */
  let live: TestPlatform;
  /** Backfilled, no feed: only history. */
  let quiet: TestPlatform;

  beforeAll(async () => {
    live = await startTestPlatform(kind, {
      env: { PRICE_HISTORY_HOURS: history_hours, SIMULATED_FEED_SEED: "42" },
      clock: new ManualClock(start),
      feeds: "from-config",
    });
    quiet = await startTestPlatform(kind, {
      env: { PRICE_HISTORY_HOURS: history_hours, SIMULATED_FEED_SEED: "42" },
      clock: new ManualClock(start),
    });
  }, 180_000);
  afterAll(async () => {
    await live?.close();
    await quiet?.close();
  });

  it("gives every asset at least 24 h of candles at every interval", async () => {
    const candles = candlesOf(quiet);
    const dayAgoMs = start.getTime() - day_ms;
    const lastMinuteMs = start.getTime() - minute_ms;
    for (const asset of assetCatalogue) {
      for (const interval of candleIntervals) {
        const sizeMs = candle_interval_ms[interval];
        const newest = await candles(asset.symbol, interval, dayAgoMs);
        expectContiguous(newest, sizeMs);
        expect(newest.every((candle) => candle.source === "simulated")).toBe(true);
        // The newest candle is the last whole minute before the start (nothing live here).
        expect(newest.at(-1)?.time).toBe(Math.floor((start.getTime() - 1) / sizeMs) * sizeMs);
        if (interval === "1s" || interval === "1m") {
          // More than the 1000 a reply holds: the oldest of the day, asked for by range.
          expect(newest).toHaveLength(1000);
          const oldest = await candles(asset.symbol, interval, dayAgoMs, dayAgoMs + 59 * sizeMs);
          expect(oldest.map((candle) => candle.time)).toEqual(
            Array.from({ length: 60 }, (_, index) => dayAgoMs + index * sizeMs),
          );
          expectContiguous(oldest, sizeMs);
        } else {
          const firstMs = Math.floor(dayAgoMs / sizeMs) * sizeMs;
          expect(newest[0]?.time).toBe(firstMs);
          expect(newest).toHaveLength(Math.floor(lastMinuteMs / sizeMs) - firstMs / sizeMs + 1);
        }
      }
    }
  }, 120_000);

  it("is deterministic: the same seed and clock make the same past", async () => {
    const liveCandles = candlesOf(live);
    const quietCandles = candlesOf(quiet);
    for (const symbol of ["EURUSD", "BTCUSDT", "AAPL", "US500"]) {
      const fromMs = start.getTime() - 26 * hour_ms;
      const toMs = start.getTime() - minute_ms;
      expect(await liveCandles(symbol, "1h", fromMs, toMs)).toEqual(
        await quietCandles(symbol, "1h", fromMs, toMs),
      );
      expect(await liveCandles(symbol, "1m", toMs - 999 * minute_ms, toMs)).toEqual(
        await quietCandles(symbol, "1m", toMs - 999 * minute_ms, toMs),
      );
    }
  });

  it("continues live from the last backfilled close: no jump", async () => {
    const waitUntilMs = Date.now() + 20_000;
    while (
      assetCatalogue.some((asset) => !live.context.marketData.store.last(asset.symbol)) &&
      Date.now() < waitUntilMs
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const candles = candlesOf(live);
    for (const asset of assetCatalogue) {
      const tick = live.context.marketData.store.last(asset.symbol);
      expect(tick, asset.symbol).toBeDefined();
      const lastMinuteMs = start.getTime() - minute_ms;
      const [lastBackfilled] = await candles(asset.symbol, "1m", lastMinuteMs, lastMinuteMs);
      if (!tick || !lastBackfilled) throw new Error(`${asset.symbol}: no tick or no history`);
      // One 250 ms step of the walk (6 σ) and one unit of the last decimal, nothing more.
      const allowed =
        6 * gbmStep(asset.optionType, 250).deviation * lastBackfilled.close +
        10 ** -asset.precision;
      expect(Math.abs(tick.price - lastBackfilled.close), asset.symbol).toBeLessThanOrEqual(
        allowed,
      );
    }
  });

  it("reports a real 24 h change for every asset, from the close a day ago", async () => {
    const markets = (await httpClient(live.baseUrl).get("/api/v1/markets")).body.data
      .markets as Array<{ symbol: string; price: number; change_24h_percent: number | null }>;
    const candles = candlesOf(live);
    // The last candle closed at or before now − 24 h is the one starting a minute earlier.
    const referenceMinuteMs = start.getTime() - day_ms - minute_ms;
    for (const market of markets) {
      const [reference] = await candles(market.symbol, "1m", referenceMinuteMs, referenceMinuteMs);
      if (!reference) throw new Error(`${market.symbol}: no candle a day ago`);
      expect(market.change_24h_percent, market.symbol).toBe(
        Math.round(((market.price - reference.close) / reference.close) * 10_000) / 100,
      );
    }
    // Without a live price (no feed), the change runs to the newest stored close.
    const quietMarkets = (await httpClient(quiet.baseUrl).get("/api/v1/markets")).body.data
      .markets as Array<{ price: number | null; change_24h_percent: number | null }>;
    expect(quietMarkets.every((market) => market.price === null)).toBe(true);
    expect(quietMarkets.every((market) => typeof market.change_24h_percent === "number")).toBe(
      true,
    );
  });

  it("never prices a trade with a backfilled candle; a live tick replaces one whole", async () => {
    const hourAgo = new Date(start.getTime() - hour_ms);
    const stored = await quiet.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM candles_1m WHERE symbol = 'EURUSD' AND bucket <= $1 AND backfilled",
      [hourAgo],
    );
    expect(stored.rows[0]?.n).toBeGreaterThan(24 * 60);
    // History exists right up to the expiry, but none of it was received live.
    expect(await tickInForceFromDatabase(quiet.database, "EURUSD", hourAgo)).toBeUndefined();

    const tickAtMs = start.getTime() - 30 * minute_ms + 10_500;
    await quiet.database.transaction((transaction) =>
      recordTicks(transaction, [
        { symbol: "EURUSD", price: 1.2345, at: tickAtMs, source: "simulated" },
      ]),
    );
    expect(
      await tickInForceFromDatabase(quiet.database, "EURUSD", new Date(tickAtMs + 5_000)),
    ).toEqual({ symbol: "EURUSD", price: 1.2345, at: tickAtMs, source: "simulated" });
    const minuteMs = start.getTime() - 30 * minute_ms;
    const candles = candlesOf(quiet);
    const live1m = { open: 1.2345, high: 1.2345, low: 1.2345, close: 1.2345, source: "simulated" };
    expect(await candles("EURUSD", "1m", minuteMs, minuteMs)).toEqual([
      { time: minuteMs, ...live1m },
    ]);
    // Live seconds win: the minute is no longer backfilled, so none are made again for it.
    expect(await candles("EURUSD", "1s", minuteMs, minuteMs + 59_000)).toEqual([
      { time: minuteMs + 10_000, ...live1m },
    ]);
  });

  it("serves a backfilled minute's 1-second candles, adding up to its 1-minute candle", async () => {
    const candles = candlesOf(quiet);
    for (const symbol of ["EURUSD", "ETHUSDT", "NVDA", "XAGUSD", "UK100"]) {
      for (const hoursAgo of [1, 5, 25]) {
        const minuteMs = start.getTime() - hoursAgo * hour_ms - 7 * minute_ms;
        const [minute] = await candles(symbol, "1m", minuteMs, minuteMs);
        const seconds = await candles(symbol, "1s", minuteMs, minuteMs + 59_000);
        if (!minute) throw new Error(`${symbol}: no minute`);
        expect(seconds).toHaveLength(60);
        expectContiguous(seconds, 1_000);
        expect(seconds[0]?.time).toBe(minuteMs);
        expect(seconds[0]?.open).toBe(minute.open);
        expect(seconds[59]?.close).toBe(minute.close);
        expect(Math.max(...seconds.map((second) => second.high))).toBe(minute.high);
        expect(Math.min(...seconds.map((second) => second.low))).toBe(minute.low);
        expect(seconds.every((second) => second.source === "simulated")).toBe(true);
      }
    }
  });

  it("aggregates 1-minute candles in the database into UTC-aligned buckets", async () => {
    const at = (time: string) => Date.parse(`2025-06-02T${time}Z`);
    const minute = (
      time: string,
      ohlc: number[],
      source: "simulated" | "binance" = "simulated",
    ) => {
      const [open = 0, high = 0, low = 0, close = 0] = ohlc;
      return { symbol: "GBPJPY", bucketMs: at(time), open, high, low, close, source };
    };
    await recordBackfilledCandles(quiet.database, "candles_1m", [
      minute("00:00:00", [1.1, 1.12, 1.09, 1.11]),
      minute("00:01:00", [1.11, 1.15, 1.1, 1.14]),
      minute("00:04:00", [1.14, 1.14, 1.05, 1.06]),
      minute("00:05:00", [1.06, 1.07, 1.06, 1.07]),
      minute("00:14:00", [1.07, 1.2, 1.07, 1.19], "binance"),
      minute("01:30:00", [1.19, 1.19, 1.0, 1.01]),
      minute("04:10:00", [2, 2.5, 1.5, 2.2]),
      { ...minute("00:00:00", [3, 3, 3, 3]), bucketMs: Date.parse("2025-06-03T00:00:00Z") },
    ]);
    const candles = candlesOf(quiet);
    const bar = (time: number, ohlc: number[], source = "simulated") => {
      const [open, high, low, close] = ohlc;
      return { time, open, high, low, close, source };
    };
    expect(await candles("GBPJPY", "5m", at("00:00:00"), at("00:14:00"))).toEqual([
      bar(at("00:00:00"), [1.1, 1.15, 1.05, 1.06]),
      bar(at("00:05:00"), [1.06, 1.07, 1.06, 1.07]),
      bar(at("00:10:00"), [1.07, 1.2, 1.07, 1.19], "binance"),
    ]);
    expect(await candles("GBPJPY", "15m", at("00:00:00"), at("01:59:00"))).toEqual([
      bar(at("00:00:00"), [1.1, 1.2, 1.05, 1.19], "binance"),
      bar(at("01:30:00"), [1.19, 1.19, 1.0, 1.01]),
    ]);
    // A `from` inside a bucket includes that bucket, aggregated whole.
    expect(await candles("GBPJPY", "1h", at("00:30:00"), at("04:59:00"))).toEqual([
      bar(at("00:00:00"), [1.1, 1.2, 1.05, 1.19], "binance"),
      bar(at("01:00:00"), [1.19, 1.19, 1.0, 1.01]),
      bar(at("04:00:00"), [2, 2.5, 1.5, 2.2]),
    ]);
    expect(await candles("GBPJPY", "4h", at("00:00:00"), at("23:59:00"))).toEqual([
      bar(at("00:00:00"), [1.1, 1.2, 1.0, 1.01]),
      bar(at("04:00:00"), [2, 2.5, 1.5, 2.2]),
    ]);
    expect(
      await candles("GBPJPY", "1d", at("00:00:00"), Date.parse("2025-06-03T23:59:00Z")),
    ).toEqual([
      bar(at("00:00:00"), [1.1, 2.5, 1.0, 2.2]),
      bar(Date.parse("2025-06-03T00:00:00Z"), [3, 3, 3, 3]),
    ]);
    // These simulated minutes are not the seed's walk: no seconds are made up for them.
    expect(await candles("GBPJPY", "1s", at("00:00:00"), at("00:00:59"))).toEqual([]);
    const unknown = await httpClient(quiet.baseUrl).get(
      "/api/v1/candles?symbol=GBPJPY&interval=1w",
    );
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("Unknown interval");
    const backwards = await httpClient(quiet.baseUrl).get(
      `/api/v1/candles?symbol=GBPJPY&interval=1h&from=${new Date(at("02:00:00")).toISOString()}&to=${new Date(at("01:00:00")).toISOString()}`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain("from must not be after to");
  });

  it("is idempotent, and fills one symbol's gap later from where its history stops", async () => {
    const backfill = () =>
      createHistoryBackfill({
        database: quiet.database,
        clock: quiet.clock,
        log: quiet.app.log,
        sources: createSimulatedHistorySources(quiet.context.config, quiet.database),
        hours: 26,
      });
    const [again] = await backfill().run(new AbortController().signal);
    expect(again).toMatchObject({ source: "simulated", symbols: 40, candles: 0, failed: 0 });

    quiet.clock.advance(10 * minute_ms);
    expect(await backfill().backfillGap("AUDCAD")).toBe(10);
    const candles = candlesOf(quiet);
    const filled = await candles(
      "AUDCAD",
      "1m",
      start.getTime() - minute_ms,
      start.getTime() + hour_ms,
    );
    expect(filled).toHaveLength(11);
    expectContiguous(filled, minute_ms);
    for (let index = 1; index < filled.length; index += 1) {
      expect(filled[index]?.open).toBe(filled[index - 1]?.close);
    }
    const [rest] = await backfill().run(new AbortController().signal);
    // The 10 minutes of every other asset; AUDCAD's are there already.
    expect(rest?.candles).toBe(39 * 10);

    // Two processes starting at once: each bucket stored once, nothing fails, same past.
    quiet.clock.advance(5 * minute_ms);
    const [first, second] = await Promise.all([
      backfill().run(new AbortController().signal),
      backfill().run(new AbortController().signal),
    ]);
    expect((first?.[0]?.candles ?? 0) + (second?.[0]?.candles ?? 0)).toBe(40 * 5);
    expect([first?.[0]?.failed, second?.[0]?.failed]).toEqual([0, 0]);
    const lastFive = await candles(
      "AUDCAD",
      "1m",
      start.getTime() + 10 * minute_ms,
      start.getTime() + 14 * minute_ms,
    );
    expect(lastFive).toHaveLength(5);
    expect(lastFive[0]?.open).toBe(filled.at(-1)?.close);
  });
});

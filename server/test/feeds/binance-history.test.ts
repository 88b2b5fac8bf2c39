import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import type { Sleep } from "../../src/feeds/sleep.ts";
import { BinanceHistory } from "../../src/prices/binance-history.ts";
import type { HistoryRequestLimits } from "../../src/prices/history-request.ts";
import { FakeProviders } from "../support/fake-providers.ts";
import { captureLog, warn_level } from "./support/capture-log.ts";
import { waitFor, within } from "./support/collect.ts";

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));
}

const minute_ms = 60_000;
/** The minute of the recorded klines (2024-06-10T06:13:00Z). */
const recordedMinuteMs = 1_717_999_980_000;
const klines_path = "/api/v3/klines";

/** Klines in Binance's format for every minute the request asks for (at most `limit`). */
function generatedKlines(query: URLSearchParams): unknown[] {
  const startMs = Number(query.get("startTime"));
  const endMs = Number(query.get("endTime"));
  const limit = Number(query.get("limit"));
  const rows: unknown[] = [];
  for (let openMs = startMs; openMs <= endMs && rows.length < limit; openMs += minute_ms) {
    const price = (100 + ((openMs / minute_ms) % 50)).toFixed(8);
    rows.push([openMs, price, price, price, price, "1.0", openMs + minute_ms - 1, "100.0", 3]);
  }
  return rows;
}

describe("BinanceHistory against a fake Binance REST API", () => {
  let provider: FakeProviders;
  let log: ReturnType<typeof captureLog>;
  let clock: ManualClock;
  let sleeps: number[];
  let controller: AbortController;

  beforeAll(async () => {
    provider = await FakeProviders.start();
  });
  afterAll(async () => {
    await provider.close();
  });
  beforeEach(() => {
    provider.reset();
    log = captureLog();
    clock = new ManualClock(new Date(recordedMinuteMs + 24 * 60 * minute_ms));
    sleeps = [];
    controller = new AbortController();
  });

  /** Waits by advancing the manual clock, recording each wait. */
  const manualSleep: Sleep = async (milliseconds, signal) => {
    if (signal.aborted) return;
    sleeps.push(milliseconds);
    clock.advance(milliseconds);
  };

  function history(limits: Partial<HistoryRequestLimits> = {}, symbols = ["BTCUSD", "DOGEUSDT"]) {
    return new BinanceHistory({
      symbols,
      baseUrl: provider.url("/"),
      logger: log.logger,
      clock,
      sleep: manualSleep,
      limits: { request_interval_ms: 0, ...limits },
    });
  }

  const warnings = () => log.entries().filter((entry) => entry.level === warn_level);

  it("asks for 1-minute klines of the Binance symbol and maps them to catalogue candles", async () => {
    provider.on(klines_path, { kind: "json", body: fixture("binance-klines-bchusdt.json") });
    const candles = await history().minuteCandles(
      "BTCUSD",
      recordedMinuteMs,
      recordedMinuteMs + 3 * minute_ms,
      controller.signal,
    );
    const [request] = provider.hits(klines_path);
    expect(Object.fromEntries(request!.query)).toEqual({
      // BTCUSD is Bitcoin Cash in the catalogue (SPEC §3).
      symbol: "BCHUSDT",
      interval: "1m",
      startTime: String(recordedMinuteMs),
      endTime: String(recordedMinuteMs + 3 * minute_ms - 1),
      limit: "1000",
    });
    expect(candles).toEqual([
      {
        symbol: "BTCUSD",
        bucketMs: recordedMinuteMs,
        open: 452.31,
        high: 452.9,
        low: 452.1,
        close: 452.75,
        source: "binance",
      },
      {
        symbol: "BTCUSD",
        bucketMs: recordedMinuteMs + minute_ms,
        open: 452.75,
        high: 453.12,
        low: 452.6,
        close: 453.01,
        source: "binance",
      },
      {
        symbol: "BTCUSD",
        bucketMs: recordedMinuteMs + 2 * minute_ms,
        open: 453.01,
        high: 453.05,
        low: 452.44,
        close: 452.58,
        source: "binance",
      },
    ]);
    expect(warnings()).toEqual([]);
  });

  it("rounds prices to the asset's precision (DOGE at 4 decimals)", async () => {
    provider.on(klines_path, { kind: "json", body: fixture("binance-klines-dogeusdt.json") });
    const candles = await history().minuteCandles(
      "DOGEUSDT",
      recordedMinuteMs,
      recordedMinuteMs + minute_ms,
      controller.signal,
    );
    expect(candles).toEqual([
      {
        symbol: "DOGEUSDT",
        bucketMs: recordedMinuteMs,
        open: 0.1462,
        high: 0.1464,
        low: 0.1461,
        close: 0.1463,
        source: "binance",
      },
    ]);
  });

  it("pages by 1000 minutes over a longer range, every minute once, oldest first", async () => {
    provider.on(klines_path, (request) => ({ kind: "json", body: generatedKlines(request.query) }));
    // Starts mid-minute: the first whole minute at or after it is the first bucket.
    const fromMs = recordedMinuteMs - 2_500 * minute_ms + 30_000;
    const toMs = recordedMinuteMs;
    const candles = await history().minuteCandles("BTCUSD", fromMs, toMs, controller.signal);
    const firstBucketMs = fromMs + 30_000;
    expect(candles).toHaveLength(2_499);
    expect(candles[0]!.bucketMs).toBe(firstBucketMs);
    expect(candles.at(-1)!.bucketMs).toBe(toMs - minute_ms);
    expect(
      candles.every((candle, index) => candle.bucketMs === firstBucketMs + index * minute_ms),
    ).toBe(true);
    expect(
      provider
        .hits(klines_path)
        .map((request) => [
          Number(request.query.get("startTime")),
          Number(request.query.get("endTime")),
        ]),
    ).toEqual([
      [firstBucketMs, firstBucketMs + 1000 * minute_ms - 1],
      [firstBucketMs + 1000 * minute_ms, firstBucketMs + 2000 * minute_ms - 1],
      [firstBucketMs + 2000 * minute_ms, toMs - 1],
    ]);
  });

  it("waits out a 429 as long as Retry-After says, then succeeds", async () => {
    let calls = 0;
    provider.on(klines_path, () =>
      calls++ === 0
        ? {
            kind: "json",
            status: 429,
            headers: { "retry-after": "7" },
            body: fixture("binance-error-rate-limit.json"),
          }
        : { kind: "json", body: fixture("binance-klines-bchusdt.json") },
    );
    const candles = await history().minuteCandles(
      "BTCUSD",
      recordedMinuteMs,
      recordedMinuteMs + 3 * minute_ms,
      controller.signal,
    );
    expect(candles).toHaveLength(3);
    expect(provider.hits(klines_path)).toHaveLength(2);
    expect(sleeps).toEqual([7_000]);
    expect(warnings().map((entry) => [entry.msg, entry.status, entry.waitMs])).toEqual([
      ["history provider rate limit reached (HTTP 429); pausing history requests", 429, 7_000],
    ]);
  });

  it("after a 418 with a long Retry-After, gives up and asks nothing until that time has passed", async () => {
    provider.on(klines_path, {
      kind: "json",
      status: 418,
      headers: { "retry-after": "600" },
      body: { code: -1003, msg: "Way too many requests; IP banned until 1718000580000." },
    });
    const source = history();
    const range = [recordedMinuteMs, recordedMinuteMs + 3 * minute_ms] as const;
    await expect(source.minuteCandles("BTCUSD", ...range, controller.signal)).rejects.toThrow(
      /wait 600 s more/,
    );
    expect(provider.hits(klines_path)).toHaveLength(1);
    // Another symbol during the ban: refused here, Binance is not asked.
    await expect(source.minuteCandles("DOGEUSDT", ...range, controller.signal)).rejects.toThrow(
      /rate limit/,
    );
    expect(provider.hits(klines_path)).toHaveLength(1);
    expect(sleeps).toEqual([]);

    clock.advance(600_000);
    provider.on(klines_path, { kind: "json", body: fixture("binance-klines-bchusdt.json") });
    expect(await source.minuteCandles("BTCUSD", ...range, controller.signal)).toHaveLength(3);
    expect(provider.hits(klines_path)).toHaveLength(2);
  });

  it("retries a 5xx with a doubling wait, then succeeds", async () => {
    let calls = 0;
    provider.on(klines_path, () =>
      calls++ < 2
        ? { kind: "text", status: 503, body: "Service Unavailable" }
        : { kind: "json", body: fixture("binance-klines-bchusdt.json") },
    );
    const candles = await history({ failure_retry_delay_ms_base: 500 }).minuteCandles(
      "BTCUSD",
      recordedMinuteMs,
      recordedMinuteMs + 3 * minute_ms,
      controller.signal,
    );
    expect(candles).toHaveLength(3);
    expect(sleeps).toEqual([500, 1_000]);
  });

  it("gives up after a few 5xx, rejecting with what went wrong", async () => {
    provider.on(klines_path, { kind: "text", status: 502, body: "Bad Gateway" });
    await expect(
      history({ failure_retries_max: 2 }).minuteCandles(
        "BTCUSD",
        recordedMinuteMs,
        recordedMinuteMs + 3 * minute_ms,
        controller.signal,
      ),
    ).rejects.toThrow(/failed 3 times, last: HTTP 502 Bad Gateway/);
    expect(provider.hits(klines_path)).toHaveLength(3);
  });

  it("skips malformed rows with one warning and keeps the good ones", async () => {
    provider.on(klines_path, { kind: "json", body: fixture("binance-klines-malformed.json") });
    const candles = await history().minuteCandles(
      "BTCUSD",
      recordedMinuteMs,
      recordedMinuteMs + 10 * minute_ms,
      controller.signal,
    );
    expect(candles.map((candle) => [candle.bucketMs, candle.close])).toEqual([
      [recordedMinuteMs, 452.75],
      [recordedMinuteMs + 9 * minute_ms, 452.55],
    ]);
    expect(warnings().map((entry) => [entry.msg, entry.skippedRows, entry.symbol])).toEqual([
      ["skipped malformed history from the provider", 9, "BTCUSD"],
    ]);
  });

  it("skips a page that is not JSON and keeps the other pages", async () => {
    let calls = 0;
    provider.on(klines_path, (request) =>
      calls++ === 0
        ? { kind: "text", body: "<html>maintenance</html>", contentType: "text/html" }
        : { kind: "json", body: generatedKlines(request.query) },
    );
    const candles = await history().minuteCandles(
      "BTCUSD",
      recordedMinuteMs,
      recordedMinuteMs + 1_500 * minute_ms,
      controller.signal,
    );
    expect(candles).toHaveLength(500);
    expect(candles[0]!.bucketMs).toBe(recordedMinuteMs + 1000 * minute_ms);
    expect(warnings().map((entry) => [entry.msg, entry.skippedPages])).toEqual([
      ["skipped malformed history from the provider", 1],
    ]);
  });

  it("explains a refusal (451) once for the operator and rejects every symbol's backfill", async () => {
    provider.on(klines_path, {
      kind: "json",
      status: 451,
      body: fixture("binance-error-restricted-location.json"),
    });
    const source = history();
    const range = [recordedMinuteMs, recordedMinuteMs + minute_ms] as const;
    await expect(source.minuteCandles("BTCUSD", ...range, controller.signal)).rejects.toThrow(
      /klines of BCHUSDT refused with HTTP 451/,
    );
    await expect(source.minuteCandles("DOGEUSDT", ...range, controller.signal)).rejects.toThrow(
      /HTTP 451/,
    );
    // Not retried: a refusal is the same answer the next time.
    expect(provider.hits(klines_path)).toHaveLength(2);
    const logged = warnings();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: "Binance refused a history request", status: 451 });
    expect(logged[0]!.meaning).toMatch(/BINANCE_REST_URL/);
  });

  it("stops at once when the backfill is aborted, asking nothing more", async () => {
    provider.on(klines_path, { kind: "hang" });
    const pending = history({ request_timeout_ms: 20_000 }).minuteCandles(
      "BTCUSD",
      recordedMinuteMs - 3_000 * minute_ms,
      recordedMinuteMs,
      controller.signal,
    );
    await waitFor(() => provider.hits(klines_path).length === 1, "the first page requested");
    controller.abort();
    await expect(within(pending, 2_000, "the aborted backfill")).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(provider.hits(klines_path)).toHaveLength(1);
  });

  it("does not start when the signal is already aborted", async () => {
    controller.abort();
    await expect(
      history().minuteCandles(
        "BTCUSD",
        recordedMinuteMs,
        recordedMinuteMs + minute_ms,
        controller.signal,
      ),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(provider.requests).toHaveLength(0);
  });

  it("refuses a symbol Binance does not carry, and one it was not given", () => {
    expect(() => history({}, ["EURUSD"])).toThrow(/Binance has no EURUSD/);
    return expect(
      history({}, ["BTCUSD"]).minuteCandles("ETHUSDT", 0, minute_ms, controller.signal),
    ).rejects.toThrow(/not one of its symbols/);
  });
});

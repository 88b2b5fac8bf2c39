import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Clock, ManualClock, systemClock } from "../../src/clock.ts";
import type { Sleep } from "../../src/feeds/sleep.ts";
import { FinnhubHistory } from "../../src/prices/finnhub-history.ts";
import type { HistoryRequestLimits } from "../../src/prices/history-request.ts";
import { FakeProviders } from "../support/fake-providers.ts";
import { captureLog, warn_level } from "./support/capture-log.ts";
import { waitFor, within } from "./support/collect.ts";

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));
}

const minute_ms = 60_000;
/** The minute of the recorded candles (2024-06-10T06:13:00Z). */
const recordedMinuteMs = 1_717_999_980_000;
const forex_path = "/api/v1/forex/candle";
const stock_path = "/api/v1/stock/candle";
const crypto_path = "/api/v1/crypto/candle";
/** Distinctive, so a leak anywhere in the log is found. */
const api_key = "fh_test_KEY+9z/secret";

describe("FinnhubHistory against a fake Finnhub REST API", () => {
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

  const manualSleep: Sleep = async (milliseconds, signal) => {
    if (signal.aborted) return;
    sleeps.push(milliseconds);
    clock.advance(milliseconds);
  };

  function history(
    options: { limits?: Partial<HistoryRequestLimits>; clock?: Clock; sleep?: Sleep } = {},
  ) {
    return new FinnhubHistory({
      symbols: ["EURUSD", "GBPUSD", "XAUUSD", "AAPL", "MSFT", "BTCUSD"],
      apiKey: api_key,
      baseUrl: provider.url(""),
      logger: log.logger,
      clock: options.clock ?? clock,
      sleep: "sleep" in options ? options.sleep : manualSleep,
      limits: { request_interval_ms: 0, ...options.limits },
    });
  }

  const warnings = () => log.entries().filter((entry) => entry.level === warn_level);
  const range = [recordedMinuteMs, recordedMinuteMs + 3 * minute_ms] as const;

  it("asks the forex endpoint for OANDA symbols with the key, and rounds to 5 decimals", async () => {
    provider.on(forex_path, { kind: "json", body: fixture("finnhub-forex-candle-eur-usd.json") });
    const candles = await history().minuteCandles("EURUSD", ...range, controller.signal);
    const [request] = provider.hits(forex_path);
    expect(Object.fromEntries(request!.query)).toEqual({
      symbol: "OANDA:EUR_USD",
      resolution: "1",
      from: String(recordedMinuteMs / 1000),
      to: String((recordedMinuteMs + 3 * minute_ms) / 1000 - 1),
      token: api_key,
    });
    expect(candles).toEqual([
      {
        symbol: "EURUSD",
        bucketMs: recordedMinuteMs,
        open: 1.07508,
        high: 1.07521,
        low: 1.07505,
        close: 1.07512,
        source: "finnhub",
      },
      {
        symbol: "EURUSD",
        bucketMs: recordedMinuteMs + minute_ms,
        open: 1.07512,
        high: 1.07524,
        low: 1.07509,
        close: 1.07518,
        source: "finnhub",
      },
      {
        symbol: "EURUSD",
        bucketMs: recordedMinuteMs + 2 * minute_ms,
        open: 1.07518,
        high: 1.07519,
        low: 1.07504,
        close: 1.07509,
        source: "finnhub",
      },
    ]);
  });

  it("asks the stock endpoint for tickers and the crypto endpoint for BINANCE: symbols", async () => {
    provider.on(stock_path, { kind: "json", body: fixture("finnhub-stock-candle-aapl.json") });
    provider.on(crypto_path, { kind: "json", body: fixture("finnhub-crypto-candle-bchusdt.json") });
    const apple = await history().minuteCandles("AAPL", ...range, controller.signal);
    const bitcoinCash = await history().minuteCandles("BTCUSD", ...range, controller.signal);
    expect(provider.hits(stock_path)[0]!.query.get("symbol")).toBe("AAPL");
    expect(provider.hits(crypto_path)[0]!.query.get("symbol")).toBe("BINANCE:BCHUSDT");
    expect(apple.map((candle) => [candle.symbol, candle.open, candle.close])).toEqual([
      ["AAPL", 193.05, 193.12],
      ["AAPL", 193.12, 193.2],
    ]);
    expect(bitcoinCash).toEqual([
      {
        symbol: "BTCUSD",
        bucketMs: recordedMinuteMs,
        open: 452.31,
        high: 452.9,
        low: 452.1,
        close: 452.75,
        source: "finnhub",
      },
    ]);
  });

  it("answers nothing for a range without trading (no_data)", async () => {
    provider.on(forex_path, { kind: "json", body: fixture("finnhub-candle-no-data.json") });
    expect(await history().minuteCandles("XAUUSD", ...range, controller.signal)).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it("pages a long range by one day", async () => {
    provider.on(forex_path, { kind: "json", body: fixture("finnhub-candle-no-data.json") });
    const fromMs = recordedMinuteMs - 2 * 1440 * minute_ms - 10 * minute_ms;
    await history().minuteCandles("EURUSD", fromMs, recordedMinuteMs, controller.signal);
    expect(
      provider
        .hits(forex_path)
        .map((request) => [Number(request.query.get("from")), Number(request.query.get("to"))]),
    ).toEqual([
      [fromMs / 1000, fromMs / 1000 + 1440 * 60 - 1],
      [fromMs / 1000 + 1440 * 60, fromMs / 1000 + 2 * 1440 * 60 - 1],
      [fromMs / 1000 + 2 * 1440 * 60, recordedMinuteMs / 1000 - 1],
    ]);
  });

  it("explains a 403 once per endpoint, asks that endpoint no more, and never logs the key", async () => {
    provider.on(forex_path, {
      kind: "json",
      status: 403,
      body: fixture("finnhub-error-no-access.json"),
    });
    provider.on(stock_path, { kind: "json", body: fixture("finnhub-stock-candle-aapl.json") });
    const source = history();
    for (const symbol of ["EURUSD", "GBPUSD", "XAUUSD", "EURUSD"]) {
      expect(await source.minuteCandles(symbol, ...range, controller.signal)).toEqual([]);
    }
    // One request found out; the others were not sent (no retry storm).
    expect(provider.hits(forex_path)).toHaveLength(1);
    expect(sleeps).toEqual([]);
    // Another endpoint is still asked.
    expect(await source.minuteCandles("AAPL", ...range, controller.signal)).toHaveLength(2);

    const logged = warnings();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: "Finnhub refused a history request",
      endpoint: "/api/v1/forex/candle",
      status: 403,
      symbols: ["EURUSD", "GBPUSD", "XAUUSD"],
    });
    expect(logged[0]!.meaning).toMatch(/plan does not include forex candles/);
    expect(log.text()).not.toContain(api_key);
    expect(log.text()).not.toContain(encodeURIComponent(api_key));
  });

  it("stops asking every endpoint when the key is refused (401)", async () => {
    for (const path of [forex_path, stock_path, crypto_path]) {
      provider.on(path, { kind: "json", status: 401, body: { error: "Invalid API key" } });
    }
    const source = history();
    for (const symbol of ["EURUSD", "AAPL", "BTCUSD"]) {
      expect(await source.minuteCandles(symbol, ...range, controller.signal)).toEqual([]);
    }
    expect(provider.requests).toHaveLength(1);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.meaning).toMatch(/FEED_API_KEY/);
  });

  it("backs off on 429 (Retry-After) and then succeeds", async () => {
    let calls = 0;
    provider.on(forex_path, () =>
      calls++ === 0
        ? {
            kind: "json",
            status: 429,
            headers: { "retry-after": "2" },
            body: fixture("finnhub-error-rate-limit.json"),
          }
        : { kind: "json", body: fixture("finnhub-forex-candle-eur-usd.json") },
    );
    expect(await history().minuteCandles("EURUSD", ...range, controller.signal)).toHaveLength(3);
    expect(sleeps).toEqual([2_000]);
    expect(provider.hits(forex_path)).toHaveLength(2);
  });

  it("backs off on 429 until X-Ratelimit-Reset when there is no Retry-After", async () => {
    let calls = 0;
    const resetAtSeconds = Math.floor(clock.now().getTime() / 1000) + 30;
    provider.on(forex_path, () =>
      calls++ === 0
        ? {
            kind: "json",
            status: 429,
            headers: { "x-ratelimit-reset": String(resetAtSeconds) },
            body: fixture("finnhub-error-rate-limit.json"),
          }
        : { kind: "json", body: fixture("finnhub-forex-candle-eur-usd.json") },
    );
    expect(await history().minuteCandles("EURUSD", ...range, controller.signal)).toHaveLength(3);
    expect(sleeps).toEqual([30_000]);
  });

  it("paces requests to the free tier's rate, across backfills running at once", async () => {
    const receivedAtMs: number[] = [];
    const record = () => {
      receivedAtMs.push(Date.now());
      return { kind: "json" as const, body: { s: "no_data" } };
    };
    provider.on(forex_path, record);
    provider.on(stock_path, record);
    // Real time at a tenth of the production pace (one a second), to keep the test short.
    const source = history({
      clock: systemClock,
      sleep: undefined,
      limits: { request_interval_ms: 100 },
    });
    const nowMs = Date.now();
    await Promise.all(
      ["EURUSD", "GBPUSD", "AAPL", "MSFT"].map((symbol) =>
        source.minuteCandles(symbol, nowMs - 3 * minute_ms, nowMs, controller.signal),
      ),
    );
    // Request k leaves no sooner than k intervals after the first (arrival times jitter, so
    // they are measured from the start, with a few milliseconds for timer granularity).
    expect(receivedAtMs).toHaveLength(4);
    receivedAtMs.sort((a, b) => a - b);
    for (const [index, atMs] of receivedAtMs.entries()) {
      expect(atMs - nowMs).toBeGreaterThanOrEqual(index * 100 - 5);
    }
  });

  it("paces at one request a second by default", async () => {
    const source = new FinnhubHistory({
      symbols: ["EURUSD"],
      apiKey: api_key,
      baseUrl: provider.url(""),
      logger: log.logger,
      clock,
      sleep: manualSleep,
    });
    provider.on(forex_path, { kind: "json", body: fixture("finnhub-candle-no-data.json") });
    for (let index = 0; index < 3; index += 1) {
      await source.minuteCandles("EURUSD", ...range, controller.signal);
    }
    expect(sleeps).toEqual([1_000, 1_000]);
  });

  it("skips malformed rows and pages with one warning, keeping the good rows", async () => {
    provider.on(forex_path, { kind: "json", body: fixture("finnhub-candle-malformed.json") });
    const candles = await history().minuteCandles(
      "EURUSD",
      recordedMinuteMs,
      recordedMinuteMs + 5 * minute_ms,
      controller.signal,
    );
    expect(candles.map((candle) => [candle.bucketMs, candle.close])).toEqual([
      [recordedMinuteMs, 1.07512],
      [recordedMinuteMs + 4 * minute_ms, 1.0752],
    ]);
    provider.on(forex_path, {
      kind: "json",
      body: { s: "ok", t: [1717999980, 1718000040], o: [1.1], h: [1.1], l: [1.1], c: [1.1] },
    });
    expect(await history().minuteCandles("EURUSD", ...range, controller.signal)).toEqual([]);
    expect(warnings().map((entry) => [entry.msg, entry.skippedRows, entry.skippedPages])).toEqual([
      ["skipped malformed history from the provider", 3, 0],
      ["skipped malformed history from the provider", 0, 1],
    ]);
  });

  it("keeps the key out of the log through retries and failures", async () => {
    provider.on(forex_path, { kind: "text", status: 500, body: `upstream said token=${api_key}` });
    await expect(
      history({ limits: { failure_retries_max: 1 } }).minuteCandles(
        "EURUSD",
        ...range,
        controller.signal,
      ),
    ).rejects.toThrow(/failed 2 times/);
    provider.on(forex_path, { kind: "drop" });
    const failure = await history({ limits: { failure_retries_max: 1 } })
      .minuteCandles("EURUSD", ...range, controller.signal)
      .catch((error: Error) => error);
    expect(String(failure)).not.toContain(api_key);
    expect(warnings().length).toBeGreaterThan(0);
    expect(log.text()).toContain("[redacted]");
    expect(log.text()).not.toContain(api_key);
    expect(log.text()).not.toContain(encodeURIComponent(api_key));
  });

  it("stops at once when aborted while waiting for its turn", async () => {
    provider.on(forex_path, { kind: "hang" });
    const source = history({
      clock: systemClock,
      sleep: undefined,
      limits: { request_interval_ms: 60_000, request_timeout_ms: 60_000 },
    });
    const nowMs = Date.now();
    const first = source.minuteCandles("EURUSD", nowMs - minute_ms, nowMs, controller.signal);
    const second = source.minuteCandles("GBPUSD", nowMs - minute_ms, nowMs, controller.signal);
    await waitFor(() => provider.hits(forex_path).length === 1, "the first request");
    controller.abort();
    for (const pending of [first, second]) {
      await expect(within(pending, 2_000, "an aborted backfill")).rejects.toMatchObject({
        name: "AbortError",
      });
    }
    expect(provider.hits(forex_path)).toHaveLength(1);
  });

  it("needs a key and symbols Finnhub carries", () => {
    expect(
      () => new FinnhubHistory({ symbols: ["EURUSD"], apiKey: "", logger: log.logger, clock }),
    ).toThrow(/API key/);
    expect(
      () => new FinnhubHistory({ symbols: ["NOPE"], apiKey: api_key, logger: log.logger, clock }),
    ).toThrow(/Finnhub has no NOPE/);
  });
});

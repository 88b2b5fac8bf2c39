import { assetsOfType } from "@tp/domain/catalogue";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import { BinanceFeed } from "../../src/feeds/binance-feed.ts";
import type { FeedGap } from "../../src/feeds/feed-stats.ts";
import { FinnhubFeed } from "../../src/feeds/finnhub-feed.ts";
import type { SocketLimits } from "../../src/feeds/reconnecting-socket.ts";
import { SimulatedFeed } from "../../src/feeds/simulated-feed.ts";
import { captureLog } from "./support/capture-log.ts";
import { delay, take, waitFor } from "./support/collect.ts";
import { FakeProvider } from "./support/fake-provider.ts";

const cryptoSymbols = assetsOfType("crypto").map((asset) => asset.symbol);
const forexSymbols = assetsOfType("forex").map((asset) => asset.symbol);
const startMs = Date.parse("2026-03-02T10:00:00Z");

const fastLimits: Partial<SocketLimits> = {
  reconnect_delay_ms_base: 5,
  reconnect_delay_ms_max: 20,
  idle_timeout_ms: 2_000,
  healthy_connection_ms: 60_000,
  close_handshake_ms_max: 200,
};

function binanceTrade(symbol: string, price: string, time: number) {
  return JSON.stringify({
    stream: `${symbol.toLowerCase()}@trade`,
    data: { e: "trade", E: time, s: symbol, t: 1, p: price, q: "1", T: time, m: true, M: true },
  });
}

describe("a real feed reports the gap in its line after every reconnect", () => {
  let provider: FakeProvider | undefined;
  let controller: AbortController;
  let clock: ManualClock;
  let log: ReturnType<typeof captureLog>;

  beforeEach(() => {
    controller = new AbortController();
    clock = new ManualClock(new Date(startMs));
    log = captureLog();
  });
  afterEach(async () => {
    controller.abort();
    await provider?.close();
    provider = undefined;
  });

  it("once per reconnect, from the last tick received to the moment the line is back", async () => {
    provider = await FakeProvider.start();
    const feed = new BinanceFeed({
      symbols: cryptoSymbols,
      baseUrl: provider.url,
      clock,
      logger: log.logger,
      limits: fastLimits,
    });
    const gaps: FeedGap[] = [];
    // A listener's bug must not stop the others nor the feed.
    feed.onGap(() => {
      throw new Error("listener bug");
    });
    const stopListening = feed.onGap((gap) => gaps.push(gap));
    const iterator = feed.ticks(controller.signal)[Symbol.asyncIterator]();

    // The generator connects when first asked for a tick.
    const firstTick = take(iterator, 1);
    const first = await provider.connection(0);
    clock.advance(1_000);
    first.socket.send(binanceTrade("BTCUSDT", "65000.00", startMs + 1_000));
    expect(await firstTick).toHaveLength(1);
    // The first connection is no reconnect: the backfill on start covers what came before.
    expect(gaps).toEqual([]);

    clock.advance(5 * 60_000);
    first.socket.close();
    await provider.connection(1);
    await waitFor(() => gaps.length === 1, "the gap of the first reconnect");
    expect(gaps[0]).toEqual({
      source: "binance",
      symbols: cryptoSymbols,
      fromMs: startMs + 1_000,
      toMs: startMs + 1_000 + 5 * 60_000,
    });

    // Down again before any tick came: the gap still starts at the last tick received.
    clock.advance(60_000);
    provider.connections[1]!.socket.close();
    const third = await provider.connection(2);
    await waitFor(() => gaps.length === 2, "the gap of the second reconnect");
    expect(gaps[1]).toMatchObject({ fromMs: startMs + 1_000, toMs: startMs + 361_000 });

    // Ticks still flow after the listener's bug, and a new tick moves the gap's start.
    const nextTick = take(iterator, 1);
    clock.advance(2_000);
    third.socket.send(binanceTrade("ETHUSDT", "3500.00", startMs + 363_000));
    expect(await nextTick).toHaveLength(1);
    clock.advance(10_000);
    third.socket.close();
    await provider.connection(3);
    await waitFor(() => gaps.length === 3, "the gap of the third reconnect");
    expect(gaps[2]).toMatchObject({ fromMs: startMs + 363_000, toMs: startMs + 373_000 });

    stopListening();
    provider.connections[3]!.socket.close();
    await provider.connection(4);
    await delay(50);
    expect(gaps).toHaveLength(3);
    expect(log.text()).toContain("feed gap listener failed");
  });

  it("once for a line that took several attempts to come back, from when the feed started", async () => {
    // The second and third handshakes are refused: one gap when the fourth one opens.
    provider = await FakeProvider.start({
      refuse: (attempt) => (attempt === 1 || attempt === 2 ? 503 : undefined),
    });
    const feed = new FinnhubFeed({
      symbols: forexSymbols,
      apiKey: "key",
      baseUrl: provider.url,
      clock,
      logger: log.logger,
      limits: fastLimits,
    });
    const gaps: FeedGap[] = [];
    feed.onGap((gap) => gaps.push(gap));
    void feed.ticks(controller.signal)[Symbol.asyncIterator]().next();
    const first = await provider.connection(0);
    clock.advance(120_000);
    first.socket.close();
    await provider.connection(1);
    await waitFor(() => gaps.length === 1, "the gap");
    await delay(50);
    expect(provider.attempts).toBe(4);
    expect(gaps).toEqual([
      { source: "finnhub", symbols: forexSymbols, fromMs: startMs, toMs: startMs + 120_000 },
    ]);
  });

  it("never for the simulator, which has no line to lose", () => {
    const feed = new SimulatedFeed({ clock, seed: 1, symbols: ["EURUSD"] });
    const unsubscribe = feed.onGap(() => {
      throw new Error("a simulated feed reported a gap");
    });
    expect(typeof unsubscribe).toBe("function");
  });
});

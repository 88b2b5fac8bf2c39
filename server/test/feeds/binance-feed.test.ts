import { readFileSync } from "node:fs";
import { assetsOfType } from "@tp/domain/catalogue";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Clock, ManualClock, systemClock } from "../../src/clock.ts";
import { BinanceFeed } from "../../src/feeds/binance-feed.ts";
import type { SocketLimits } from "../../src/feeds/reconnecting-socket.ts";
import { captureLog, warn_level } from "./support/capture-log.ts";
import { take, waitFor, within } from "./support/collect.ts";
import { FakeProvider } from "./support/fake-provider.ts";

const recordedTrades: object[] = JSON.parse(
  readFileSync(new URL("./fixtures/binance-trades.json", import.meta.url), "utf8"),
);
const malformedMessages: string[] = JSON.parse(
  readFileSync(new URL("./fixtures/binance-malformed.json", import.meta.url), "utf8"),
);

const cryptoSymbols = assetsOfType("crypto").map((asset) => asset.symbol);

/** Tiny limits so reconnects take milliseconds. */
const fastLimits: Partial<SocketLimits> = {
  reconnect_delay_ms_base: 5,
  reconnect_delay_ms_max: 20,
  idle_timeout_ms: 2_000,
  healthy_connection_ms: 60_000,
  close_handshake_ms_max: 200,
};

function trade(symbol: string, price: string, time: number) {
  return JSON.stringify({
    stream: `${symbol.toLowerCase()}@trade`,
    data: { e: "trade", E: time, s: symbol, t: time, p: price, q: "1", T: time, m: true, M: true },
  });
}

describe("BinanceFeed against a fake Binance", () => {
  let provider: FakeProvider;
  let controller: AbortController;
  let log: ReturnType<typeof captureLog>;

  beforeEach(async () => {
    provider = await FakeProvider.start();
    controller = new AbortController();
    log = captureLog();
  });

  afterEach(async () => {
    controller.abort();
    await provider.close();
  });

  function feed(options: { limits?: Partial<SocketLimits>; clock?: Clock } = {}) {
    return new BinanceFeed({
      symbols: cryptoSymbols,
      baseUrl: `${provider.url}/`,
      clock: options.clock ?? systemClock,
      logger: log.logger,
      limits: { ...fastLimits, ...options.limits },
    });
  }

  it("connects to the combined trade stream of its symbols (BTCUSD is Bitcoin Cash)", async () => {
    const iterator = feed().ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    const connection = await provider.connection(0);
    expect(connection.path).toBe(
      "/stream?streams=btcusdt@trade/bchusdt@trade/ethusdt@trade/ltcusdt@trade/bnbusdt@trade/xrpusdt@trade/adausdt@trade/dogeusdt@trade",
    );
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("maps recorded trades to catalogue symbols with rounded price, trade time and source", async () => {
    const iterator = feed().ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = take(iterator, 8);
    const connection = await provider.connection(0);
    for (const message of recordedTrades) connection.socket.send(JSON.stringify(message));
    expect(await pending).toEqual([
      { symbol: "BTCUSDT", price: 64981.12, at: 1718000000100, source: "binance" },
      { symbol: "BTCUSD", price: 452.31, at: 1718000000204, source: "binance" },
      { symbol: "ETHUSDT", price: 3187.4567, at: 1718000000310, source: "binance" },
      { symbol: "LTCUSDT", price: 80.12, at: 1718000000401, source: "binance" },
      { symbol: "BNBUSDT", price: 581.3, at: 1718000000502, source: "binance" },
      { symbol: "XRPUSDT", price: 0.5488, at: 1718000000603, source: "binance" },
      { symbol: "ADAUSDT", price: 0.4495, at: 1718000000704, source: "binance" },
      { symbol: "DOGEUSDT", price: 0.1523, at: 1718000000805, source: "binance" },
    ]);
  });

  it("drops and counts malformed messages, warning at most the cap per minute", async () => {
    const clock = new ManualClock(new Date("2024-06-10T12:00:00Z"));
    const binance = feed({ clock, limits: { warnings_per_minute_max: 3 } });
    const iterator = binance.ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = take(iterator, 1);
    const connection = await provider.connection(0);
    for (const message of malformedMessages) connection.socket.send(message);
    connection.socket.send(Buffer.from([0xde, 0xad]), { binary: true });
    connection.socket.send(trade("ETHUSDT", "3200.50000000", 1718000002000));

    expect(await pending).toEqual([
      { symbol: "ETHUSDT", price: 3200.5, at: 1718000002000, source: "binance" },
    ]);
    const malformedCount = malformedMessages.length + 1;
    expect(binance.stats()).toMatchObject({
      connects: 1,
      messages: malformedCount + 1,
      ticks: 1,
      malformed: malformedCount,
    });
    const malformedWarnings = () =>
      log.entries().filter((entry) => entry.msg === "dropped a malformed feed message");
    expect(malformedWarnings()).toHaveLength(3);
    expect(malformedWarnings()[0]).toMatchObject({ level: warn_level, reason: "not JSON" });

    // A minute later the held-back warnings are reported as a count, then logging resumes.
    clock.advance(60_000);
    connection.socket.send("still not json");
    await waitFor(() => binance.stats().malformed === malformedCount + 1, "one more malformed");
    expect(log.entries().map((entry) => entry.msg)).toContain(
      `${malformedCount - 3} further "dropped a malformed feed message" warnings were suppressed`,
    );
    expect(malformedWarnings()).toHaveLength(4);
    expect(connection.socket.readyState).toBe(connection.socket.OPEN);
  });

  it("reconnects after the server closes the connection and the ticks resume", async () => {
    const binance = feed();
    const iterator = binance.ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = take(iterator, 4);
    const first = await provider.connection(0);
    first.socket.send(trade("BTCUSDT", "65000.00", 1718000000001));
    first.socket.send(trade("BTCUSDT", "65001.00", 1718000000002));
    // What Binance does to every connection after 24 hours.
    first.socket.close(1001, "connection lifetime reached");
    const second = await provider.connection(1);
    expect(second.path).toBe(first.path);
    second.socket.send(trade("BTCUSDT", "65002.00", 1718000000003));
    second.socket.send(trade("BTCUSDT", "65003.00", 1718000000004));
    expect((await pending).map((tick) => tick.price)).toEqual([65000, 65001, 65002, 65003]);
    expect(binance.stats()).toMatchObject({ connects: 2, reconnects: 1, ticks: 4 });
  });

  it("backs off exponentially with full jitter, capped, and resets after a healthy connection", async () => {
    const delays: number[] = [];
    const binance = new BinanceFeed({
      symbols: cryptoSymbols,
      baseUrl: provider.url,
      clock: systemClock,
      logger: log.logger,
      limits: { ...fastLimits, reconnect_delay_ms_base: 100, reconnect_delay_ms_max: 1_000 },
      // Records the delay instead of waiting it, so the test runs in milliseconds.
      sleep: async (milliseconds) => {
        delays.push(milliseconds);
      },
      random: () => 0.5,
    });
    const iterator = binance.ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = take(iterator, 2);
    for (let index = 0; index < 5; index += 1) {
      (await provider.connection(index)).socket.close(1011, "unhealthy");
    }
    const healthy = await provider.connection(5);
    healthy.socket.send(trade("BTCUSDT", "65000.00", 1718000000001));
    healthy.socket.close(1001, "lifetime reached");
    const last = await provider.connection(6);
    last.socket.send(trade("BTCUSDT", "65001.00", 1718000000002));
    await pending;
    // Half of each ceiling: 200, 400, 800, then capped at 1000; after a tick, back to 100.
    expect(delays).toEqual([100, 200, 400, 500, 500, 50]);
  });

  it("treats a silent connection as dead, but not one kept alive by pings", async () => {
    const idle_timeout_ms = 150;
    const binance = feed({ limits: { idle_timeout_ms } });
    const iterator = binance.ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = take(iterator, 1);
    const first = await provider.connection(0);
    first.socket.send(trade("BTCUSDT", "65000.00", 1718000000001));
    await pending;
    // Binance pings every 20 s; pings alone keep the connection.
    let silentSince = Date.now();
    for (let ping = 0; ping < 8; ping += 1) {
      first.socket.ping();
      silentSince = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(provider.connections).toHaveLength(1);
    expect(binance.stats().idleTimeouts).toBe(0);

    const second = await provider.connection(1);
    expect(Date.now() - silentSince).toBeGreaterThanOrEqual(idle_timeout_ms - 10);
    expect(await within(first.closed, 1_000, "dead connection closed")).toBe(1006);
    expect(binance.stats().idleTimeouts).toBe(1);
    const resumed = take(iterator, 1);
    second.socket.send(trade("BTCUSDT", "65010.00", 1718000000002));
    expect((await resumed)[0]!.price).toBe(65010);
  });

  it("keeps a bounded queue for a slow consumer, dropping the oldest ticks", async () => {
    const binance = feed({ limits: { queue_ticks_max: 5 } });
    const iterator = binance.ticks(controller.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    const connection = await provider.connection(0);
    for (let n = 1; n <= 20; n += 1) {
      connection.socket.send(trade("BTCUSDT", `${65_000 + n}.00`, 1718000000000 + n));
    }
    expect((await first).value).toMatchObject({ price: 65_001 });
    await waitFor(() => binance.stats().ticks === 20, "20 ticks decoded");
    const rest = await take(iterator, 5);
    expect(rest.map((tick) => tick.price)).toEqual([65_016, 65_017, 65_018, 65_019, 65_020]);
    expect(binance.stats().dropped).toBe(14);
  });

  it("ends the iterator and closes the socket cleanly on abort", async () => {
    const iterator = feed().ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = take(iterator, 1);
    const connection = await provider.connection(0);
    connection.socket.send(trade("BTCUSDT", "65000.00", 1718000000001));
    await pending;
    const waiting = iterator.next();
    controller.abort();
    expect(await within(waiting, 1_000, "iterator end")).toEqual({ done: true, value: undefined });
    expect(await within(connection.closed, 1_000, "socket closed")).toBe(1000);
  });

  it("closes the socket when the consumer stops early", async () => {
    const binance = feed();
    const consumed = (async () => {
      for await (const tick of binance.ticks(controller.signal)) return tick;
    })();
    const connection = await provider.connection(0);
    connection.socket.send(trade("BTCUSDT", "65000.00", 1718000000001));
    expect(await consumed).toMatchObject({ symbol: "BTCUSDT", price: 65000 });
    expect(await within(connection.closed, 1_000, "socket closed")).toBe(1000);
  });

  it("stops promptly when aborted while waiting to reconnect", async () => {
    const baseUrl = provider.url;
    await provider.close();
    const binance = new BinanceFeed({
      symbols: cryptoSymbols,
      baseUrl,
      clock: systemClock,
      logger: log.logger,
      limits: { ...fastLimits, reconnect_delay_ms_base: 60_000, reconnect_delay_ms_max: 60_000 },
      random: () => 0.99,
    });
    const iterator = binance.ticks(controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    await waitFor(
      () => log.entries().some((entry) => entry.msg === "feed connection lost; reconnecting"),
      "connection refused",
    );
    const abortedAt = Date.now();
    controller.abort();
    expect(await within(pending, 1_000, "iterator end")).toEqual({ done: true, value: undefined });
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(binance.stats()).toMatchObject({ connects: 0, reconnects: 0 });
    provider = await FakeProvider.start();
  });

  it("refuses symbols Binance does not carry", () => {
    expect(
      () =>
        new BinanceFeed({
          symbols: ["BTCUSDT", "EURUSD"],
          clock: systemClock,
          logger: log.logger,
        }),
    ).toThrow(/Binance has no EURUSD/);
  });
});

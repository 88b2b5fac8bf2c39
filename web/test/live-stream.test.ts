import type { TradeView } from "@tp/domain/api";
import { stream_close_service_restart } from "@tp/domain/stream-close-codes";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LivePrices, price_render_interval_ms } from "../src/stream/live-prices.ts";
import {
  LiveStream,
  type MarketStateEvent,
  ping_interval_ms,
  reconnect_delay_max_ms,
  reconnectDelayMs,
  type StreamStatus,
  streamUrl,
} from "../src/stream/live-stream.ts";
import { tradeFixture } from "./fake-api.ts";
import { installFakeStream } from "./fake-stream.ts";

describe("reconnect backoff", () => {
  it("grows as min(1000·2^n, 30000) ms, between half and all of it", () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
    expect(reconnectDelayMs(0, () => 1)).toBe(1_000);
    expect(reconnectDelayMs(3, () => 1)).toBe(8_000);
    expect(reconnectDelayMs(5, () => 1)).toBe(reconnect_delay_max_ms);
    expect(reconnectDelayMs(40, () => 0)).toBe(reconnect_delay_max_ms / 2);
  });

  it("uses ws:// or wss:// by the page's protocol, on the page's host", () => {
    expect(streamUrl({ protocol: "https:", host: "trade.example" })).toBe(
      "wss://trade.example/api/v1/stream",
    );
    expect(streamUrl({ protocol: "http:", host: "localhost:5173" })).toBe(
      "ws://localhost:5173/api/v1/stream",
    );
  });
});

describe("live stream client", () => {
  let prices: LivePrices;
  let client: LiveStream;
  let statuses: StreamStatus[];

  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    prices = new LivePrices();
    statuses = [];
  });
  afterEach(() => {
    client?.stop();
    prices.dispose();
    vi.useRealTimers();
  });

  function start() {
    const fake = installFakeStream();
    client = new LiveStream({ url: "ws://test/api/v1/stream", token: "secret", prices });
    client.onStatus((status) => statuses.push(status));
    client.start();
    return fake;
  }

  const settle = () => vi.advanceTimersByTimeAsync(0);

  it("authenticates first, then asks once for the union of the symbols wanted, and lets go of each when its last holder does", async () => {
    const fake = start();
    const releaseFirst = client.subscribe(["EURUSD", "GBPUSD"]);
    const releaseSecond = client.subscribe(["GBPUSD"]);
    await settle();
    expect(client.status).toBe("live");
    expect(fake.current().sent).toEqual([
      { type: "auth", token: "secret" },
      { type: "subscribe", symbols: ["EURUSD", "GBPUSD"] },
    ]);

    releaseFirst();
    await settle();
    expect(fake.current().sent.at(-1)).toEqual({ type: "unsubscribe", symbols: ["EURUSD"] });
    releaseSecond();
    releaseSecond();
    await settle();
    expect(fake.current().sent.at(-1)).toEqual({ type: "unsubscribe", symbols: ["GBPUSD"] });
    expect(fake.current().sent).toHaveLength(4);
  });

  it("after a drop it reconnects with backoff, authenticates again and asks for the same symbols", async () => {
    const fake = start();
    client.subscribe(["EURUSD"]);
    await settle();
    fake.current().drop();
    expect(client.status).toBe("down");
    expect(fake.sockets).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.sockets).toHaveLength(2);
    expect(client.status).toBe("live");
    expect(fake.current().sent).toEqual([
      { type: "auth", token: "secret" },
      { type: "subscribe", symbols: ["EURUSD"] },
    ]);
    expect(statuses).toEqual(["live", "down", "live"]);
  });

  it("reconnects within a second when a draining server closes with 1012 (service restart)", async () => {
    const fake = start();
    client.subscribe(["EURUSD"]);
    await settle();
    fake.current().drop(stream_close_service_restart);
    expect(client.status).toBe("down");
    // Not a final close (as a revoked session's is to the server): the page comes back, through
    // the load balancer, on a process that is ready.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.sockets).toHaveLength(2);
    expect(client.status).toBe("live");
    expect(fake.current().sent).toEqual([
      { type: "auth", token: "secret" },
      { type: "subscribe", symbols: ["EURUSD"] },
    ]);
  });

  it("pings while open, and gives up on a socket that has said nothing for too long", async () => {
    const fake = start();
    await settle();
    await vi.advanceTimersByTimeAsync(ping_interval_ms);
    expect(fake.current().sent.at(-1)).toEqual({ type: "ping" });
    // The fake server never answers pings: silence past the limit drops the socket.
    await vi.advanceTimersByTimeAsync(ping_interval_ms * 2);
    expect(fake.sockets[0]?.closed).toBe(true);
    expect(statuses).toContain("down");
  });

  it("keeps the newest price per symbol and hands on trades and balances", async () => {
    const fake = start();
    const trades: TradeView[] = [];
    const balances: unknown[] = [];
    client.onTrade((trade) => trades.push(trade));
    client.onBalance((balance) => balances.push(balance));
    await settle();

    const seen: number[] = [];
    prices.onSymbol("EURUSD", (price) => seen.push(price.price));
    let renders = 0;
    prices.subscribe(() => {
      renders += 1;
    });
    fake.tick("EURUSD", 1.1, new Date(2_000));
    fake.tick("EURUSD", 1.2, new Date(1_000));
    fake.tick("EURUSD", 1.3, new Date(3_000));
    expect(prices.get("EURUSD")?.price).toBe(1.3);
    expect(seen).toEqual([1.1, 1.3]);
    // Views hear of it once per render interval, however many ticks came.
    expect(renders).toBe(0);
    await vi.advanceTimersByTimeAsync(price_render_interval_ms);
    expect(renders).toBe(1);

    fake.current().push({ type: "trade", trade: { id: "not a trade" } });
    fake.trade(tradeFixture({ id: 5 }));
    fake.balance(12.5, 9_000);
    expect(trades.map((trade) => trade.id)).toEqual([5]);
    expect(balances).toEqual([{ account_balance: 12.5, practice_balance: 9_000 }]);
  });

  it("hands on market states it can read and the server's refetch request", async () => {
    const fake = start();
    const states: MarketStateEvent[] = [];
    let refetches = 0;
    client.onMarketState((event) => states.push(event));
    client.onRefetch(() => {
      refetches += 1;
    });
    await settle();

    const opensAt = "2026-01-19T14:30:00.000Z";
    fake
      .current()
      .push({ type: "market_state", symbol: "AAPL", state: "closed", next_open_at: opensAt });
    fake
      .current()
      .push({ type: "market_state", symbol: "AAPL", state: "paused", next_open_at: null });
    fake.current().push({ type: "market_state", symbol: "AAPL", state: "halted", next_open_at: 5 });
    fake.current().push({ type: "market_state", state: "open", next_open_at: null });
    fake.current().push({ type: "market_state", symbol: "XAUUSD", state: "halted" });
    expect(states).toEqual([
      { symbol: "AAPL", state: "closed", next_open_at: opensAt },
      { symbol: "XAUUSD", state: "halted", next_open_at: null },
    ]);

    fake.current().push({ type: "refetch" });
    expect(refetches).toBe(1);
  });
});

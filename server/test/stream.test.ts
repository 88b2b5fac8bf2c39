import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick, pushTick } from "./support/prices.ts";
import { StreamClient } from "./support/stream-client.ts";

describe.each(databaseKindsUnderTest())("the live stream on %s", (kind) => {
  let platform: TestPlatform;
  const sockets: StreamClient[] = [];
  const connect = async (headers: Record<string, string> = {}) => {
    const client = new StreamClient(platform.baseUrl, headers);
    sockets.push(client);
    await client.opened;
    return client;
  };

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await platform?.close();
  });

  it("gives an anonymous socket ticks of the symbols it subscribed to, with their source", async () => {
    const client = await connect();
    client.send({ type: "subscribe", symbols: ["EURUSD", "XAUUSD"] });
    await client.waitFor((message) => message.type === "subscribed");
    await advanceWithTick(platform, "EURUSD", 1.08111, 300);
    await pushTick(platform, "GBPUSD", 1.27);
    await pushTick(platform, "XAUUSD", 2301.5);
    await client.waitFor((message) => message.type === "tick" && message.symbol === "XAUUSD");
    const ticks = client.of("tick");
    expect(ticks).toEqual([
      {
        type: "tick",
        symbol: "EURUSD",
        price: 1.08111,
        at: platform.clock.now().toISOString(),
        source: "simulated",
      },
      {
        type: "tick",
        symbol: "XAUUSD",
        price: 2301.5,
        at: platform.clock.now().toISOString(),
        source: "simulated",
      },
    ]);
  });

  it("sends no more than 4 ticks per second per symbol to a client", async () => {
    const client = await connect();
    client.send({ type: "subscribe", symbols: ["AUDCAD"] });
    await client.waitFor((message) => message.type === "subscribed");
    const started = Date.now();
    for (let index = 0; index < 40; index++) {
      await advanceWithTick(platform, "AUDCAD", 0.91 + index / 100_000, 250);
    }
    // Coalescing keeps the newest: the last tick published does go out, in a later slot.
    const finalPrice = 0.91 + 39 / 100_000;
    await client.waitFor(
      (message) => message.type === "tick" && message.price === finalPrice,
      3_000,
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const ticks = client.of("tick");
    expect(ticks.length).toBeGreaterThan(1);
    expect(ticks.length).toBeLessThanOrEqual(4 * Math.ceil(elapsedSeconds));
    expect(ticks.length).toBeLessThan(40);
  });

  it("gives each trader only their own trade and balance events", async () => {
    const alice = await signedInTrader(platform);
    const bob = await signedInTrader(platform);
    const aliceSocket = await connect();
    const bobSocket = await connect();
    aliceSocket.send({ type: "auth", token: alice.token });
    bobSocket.send({ type: "auth", token: bob.token });
    await aliceSocket.waitFor((message) => message.type === "auth");
    await bobSocket.waitFor((message) => message.type === "auth");

    await advanceWithTick(platform, "EURUSD", 1.0822, 300);
    const http = httpClient(platform.baseUrl);
    const placed = await http.post(
      "/api/v1/place-trade",
      { asset: "EURUSD", type: "call", amount: 25, duration: 30, is_practice: true },
      alice.token,
    );
    expect(placed.status).toBe(201);
    const opened = await aliceSocket.waitFor((message) => message.type === "trade");
    expect((opened.trade as { id: number; status: string }).id).toBe(placed.body.data.trade.id);
    expect((opened.trade as { status: string }).status).toBe("open");
    const balance = await aliceSocket.waitFor((message) => message.type === "balance");
    expect(balance).toEqual({ type: "balance", account_balance: 0, practice_balance: 9975 });

    await advanceWithTick(platform, "EURUSD", 1.09, 29_000);
    await advanceWithTick(platform, "EURUSD", 1.1, 1_500);
    await platform.context.settlement.settleDue();
    const settled = await aliceSocket.waitFor(
      (message) =>
        message.type === "trade" && (message.trade as { status: string }).status !== "open",
    );
    expect((settled.trade as { status: string }).status).toBe("won");
    await aliceSocket.waitFor(
      (message) => message.type === "balance" && message.practice_balance === 10_021.25,
    );

    expect(bobSocket.of("trade")).toEqual([]);
    expect(bobSocket.of("balance")).toEqual([]);
  });

  it("refuses a bad token, bad messages and unknown symbols with an error message, not a crash", async () => {
    const client = await connect();
    client.send({ type: "auth", token: "not-a-token" });
    client.send("{not json");
    client.send({ type: "subscribe", symbols: ["NOPE"] });
    client.send({ type: "launch" });
    await client.waitFor(() => client.of("error").length === 4);
    expect(client.of("error").map((message) => message.message)).toEqual([
      "Invalid or expired token",
      "Messages must be JSON",
      "symbols must be a list of catalogue symbols",
      "Unknown message type",
    ]);
    client.send({ type: "ping" });
    await client.waitFor((message) => message.type === "pong");
  });

  it("tells every socket when an asset's state changes: halted when its price goes stale, open again", async () => {
    const client = await connect();
    await pushTick(platform, "USDJPY", 155.1);
    // The state watch runs every 500 ms: wait until it has seen USDJPY open.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    platform.clock.advance(5_000);
    const halted = await client.waitFor(
      (message) =>
        message.type === "market_state" &&
        message.symbol === "USDJPY" &&
        message.state === "halted",
      5_000,
    );
    expect(halted).toEqual({
      type: "market_state",
      symbol: "USDJPY",
      state: "halted",
      next_open_at: null,
    });
    await pushTick(platform, "USDJPY", 155.2);
    await client.waitFor(
      (message) =>
        message.type === "market_state" && message.symbol === "USDJPY" && message.state === "open",
      5_000,
    );
  });

  it("closes a socket that sends an oversized message", async () => {
    const client = await connect();
    client.send({ type: "subscribe", symbols: Array.from({ length: 1000 }, () => "EURUSD") });
    expect((await client.closed).code).toBe(1009);
  });

  it("refuses to open for another site's origin", async () => {
    await expect(connect({ origin: "https://evil.example" })).rejects.toThrow(/403/);
    // A look-alike of the server's own host on another port or scheme is still foreign.
    const host = new URL(platform.baseUrl).host;
    await expect(connect({ origin: `http://${host}.evil.example` })).rejects.toThrow(/403/);
    await expect(connect({ origin: "file://" })).rejects.toThrow(/403/);
    const allowed = await connect({ origin: "http://localhost:3000" });
    expect(allowed.socket.readyState).toBe(allowed.socket.OPEN);
  });

  it("accepts a socket from the address the page was served from, not only PUBLIC_URL", async () => {
    // The platform listens on 127.0.0.1 while PUBLIC_URL is http://localhost:3000: a page
    // opened at the server's own address must reach Online (issue 11).
    const sameOrigin = await connect({ origin: new URL(platform.baseUrl).origin });
    expect(sameOrigin.socket.readyState).toBe(sameOrigin.socket.OPEN);
  });
});

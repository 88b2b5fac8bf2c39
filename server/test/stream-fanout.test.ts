import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { FeedSource } from "../src/feeds/tick.ts";
import { tick_jitter_ms } from "../src/stream/stream-limits.ts";
import { textFrame } from "../src/stream/text-frame.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { StreamClient } from "./support/stream-client.ts";

/** ws's own framer (untyped in @types/ws): the reference a server frame must match. */
const { Sender } = WebSocket as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

describe("textFrame", () => {
  it.each([0, 1, 125, 126, 1000, 65_535, 65_536, 70_000])(
    "frames a %i-byte text exactly as ws frames it for a server",
    (length) => {
      const text = "é".repeat(Math.floor(length / 2)) + "x".repeat(length % 2);
      const expected = Buffer.concat(
        Sender.frame(Buffer.from(text), {
          fin: true,
          opcode: 1,
          mask: false,
          readOnly: true,
          rsv1: false,
        }),
      );
      expect(textFrame(text).equals(expected)).toBe(true);
    },
  );
});

describe.each(databaseKindsUnderTest())("stream fan-out on %s", (kind) => {
  let platform: TestPlatform;
  const sockets: StreamClient[] = [];
  /** Per client: wall time each tick (by price) was received, taken in the message event. */
  const received = new Map<StreamClient, Map<number, number>>();
  const connect = async (symbols: string[]) => {
    const client = new StreamClient(platform.baseUrl);
    sockets.push(client);
    const times = new Map<number, number>();
    received.set(client, times);
    client.socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === "tick") times.set(message.price, Date.now());
    });
    await client.opened;
    client.send({ type: "subscribe", symbols });
    await client.waitFor((message) => message.type === "subscribed");
    return client;
  };
  /** Straight onto the bus (no market-data throttle), so a test chooses each tick's `at`. */
  const publish = (symbol: string, price: number, at: number) =>
    platform.context.bus.publish({
      type: "tick",
      tick: { symbol, price, at, source: "simulated" as FeedSource },
    });
  /** Wall time at which the client received its tick of this price. */
  const arrival = async (client: StreamClient, price: number, timeoutMs = 3_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = received.get(client)!.get(price);
      if (at !== undefined) return at;
      if (Date.now() > deadline) throw new Error(`tick ${price} never arrived`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await platform?.close();
  });

  it("keeps delivering to the other subscribers when one unsubscribes or leaves", async () => {
    const [first, second, third] = [
      await connect(["DE30"]),
      await connect(["DE30"]),
      await connect(["DE30", "US500"]),
    ];
    second!.send({ type: "unsubscribe", symbols: ["DE30"] });
    await second!.waitFor(() => second!.of("subscribed").length === 2);
    expect(second!.of("subscribed")[1]).toEqual({ type: "subscribed", symbols: [] });
    const at = Date.now();
    publish("DE30", 100, at);
    await arrival(first!, 100);
    await arrival(third!, 100);
    first!.close();
    await first!.closed;
    await sleep(50);
    publish("DE30", 101, at + 300);
    publish("US500", 5000, at);
    await arrival(third!, 101);
    await arrival(third!, 5000);
    await sleep(50);
    expect(second!.of("tick")).toEqual([]);
    expect(first!.of("tick").map((tick) => tick.price)).toEqual([100]);
  });

  it("forgives a tick arriving a little early when its own time is a second after the fourth-last", async () => {
    const client = await connect(["ETHUSDT"]);
    const at = Date.now();
    for (let index = 0; index < 4; index++) publish("ETHUSDT", index, at + index * 250);
    const firstArrived = await arrival(client, 0);
    await arrival(client, 3);
    // Inside the allowance: the slot opens 1000 ms after the first send.
    await sleep(1000 - tick_jitter_ms / 2 - (Date.now() - firstArrived));
    publish("ETHUSDT", 4, at + 1000);
    const arrived = await arrival(client, 4);
    expect(arrived - firstArrived).toBeLessThan(1000);
  });

  it("holds a tick from a source faster than 4/s until its slot opens, then sends it at once", async () => {
    const client = await connect(["AAPL"]);
    const at = Date.now();
    for (let index = 0; index < 4; index++) publish("AAPL", index, at + index * 100);
    const firstArrived = await arrival(client, 0);
    await arrival(client, 3);
    await sleep(1000 - tick_jitter_ms / 2 - (Date.now() - firstArrived));
    // Only 400 ms of tick time after the fourth-last: no allowance, it waits for the slot…
    publish("AAPL", 4, at + 400);
    const arrived = await arrival(client, 4);
    expect(arrived - firstArrived).toBeGreaterThanOrEqual(1000 - 5);
    // …and goes out when it opens, not on some later scan.
    expect(arrived - firstArrived).toBeLessThan(1000 + 60);
    expect(client.of("tick").map((tick) => tick.price)).toEqual([0, 1, 2, 3, 4]);
  });

  it("coalesces held ticks to the newest and never sends more than 4 in a second", async () => {
    const client = await connect(["XAUUSD"]);
    const at = Date.now();
    for (let index = 0; index < 20; index++) publish("XAUUSD", index, at + index * 10);
    const firstArrived = await arrival(client, 0);
    await arrival(client, 19);
    const prices = client.of("tick").map((tick) => tick.price);
    expect(prices).toEqual([0, 1, 2, 3, 19]);
    expect(Date.now() - firstArrived).toBeGreaterThanOrEqual(1000 - 5);
  });
});

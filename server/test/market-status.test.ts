import { tradeMessages } from "@tp/domain/trade-form";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../src/clock.ts";
import type { Feed } from "../src/feeds/tick.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { settlement_feed_wait_ms } from "../src/trading/settlement.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { pushTick } from "./support/prices.ts";

const trade = (asset: string) => ({
  asset,
  type: "call",
  amount: 10,
  duration: 30,
  is_practice: true,
});

type MarketRow = { symbol: string; state: string; next_open_at: string | null; is_open: boolean };

/** A feed that is ingested (it holds its lock) but never sends a tick: a stalled provider. */
const silentFeed = (symbols: string[]): Feed => ({
  source: "simulated",
  symbols,
  async *ticks(signal) {
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
  },
});

describe.each(databaseKindsUnderTest())("market states on %s", (kind) => {
  let platform: TestPlatform | undefined;
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
  });

  async function markets() {
    const reply = await httpClient(platform!.baseUrl).get("/api/v1/markets");
    return reply.body.data.markets as MarketRow[];
  }

  it("outside its hours an asset is closed, says when it opens, and refuses trades", async () => {
    // Saturday noon in New York: forex closed until Sunday 17:00 New York (22:00 UTC in January).
    platform = await startTestPlatform(kind, {
      env: { SIMULATED_MARKET_HOURS: "true" },
      clock: new ManualClock(new Date("2026-01-17T17:00:00Z")),
    });
    await pushTick(platform, "EURUSD", 1.08);
    await pushTick(platform, "BTCUSDT", 65_000);
    const trader = await signedInTrader(platform);
    const http = httpClient(platform.baseUrl);
    const refused = await http.post("/api/v1/place-trade", trade("EURUSD"), trader.token);
    expect(refused.body).toMatchObject({
      code: "MARKET_CLOSED",
      message: tradeMessages.marketClosed,
    });
    const rows = await markets();
    expect(rows.find((row) => row.symbol === "EURUSD")).toMatchObject({
      state: "closed",
      is_open: false,
      next_open_at: "2026-01-18T22:00:00.000Z",
    });
    // Crypto trades around the clock.
    expect(rows.find((row) => row.symbol === "BTCUSDT")).toMatchObject({ state: "open" });
    expect((await http.post("/api/v1/place-trade", trade("BTCUSDT"), trader.token)).status).toBe(
      201,
    );
  });

  it("the simulator trades around the clock unless SIMULATED_MARKET_HOURS is set", async () => {
    platform = await startTestPlatform(kind, {
      clock: new ManualClock(new Date("2026-01-17T17:00:00Z")),
    });
    await pushTick(platform, "EURUSD", 1.08);
    const trader = await signedInTrader(platform);
    const placed = await httpClient(platform.baseUrl).post(
      "/api/v1/place-trade",
      trade("EURUSD"),
      trader.token,
    );
    expect(placed.status).toBe(201);
  });

  it("a price older than the entry limit halts the asset until a live tick arrives", async () => {
    platform = await startTestPlatform(kind, { env: { ENTRY_PRICE_MAX_AGE_MS: "forex=2000" } });
    const trader = await signedInTrader(platform);
    const http = httpClient(platform.baseUrl);
    await pushTick(platform, "EURUSD", 1.08);
    platform.clock.advance(2_001);
    const refused = await http.post("/api/v1/place-trade", trade("EURUSD"), trader.token);
    expect(refused.body.code).toBe("MARKET_CLOSED");
    expect((await markets()).find((row) => row.symbol === "EURUSD")?.state).toBe("halted");
    await pushTick(platform, "EURUSD", 1.081);
    expect((await markets()).find((row) => row.symbol === "EURUSD")?.state).toBe("open");
    expect((await http.post("/api/v1/place-trade", trade("EURUSD"), trader.token)).status).toBe(
      201,
    );
  });

  it("the ingesting process records a halt when its feed stalls and ends it at the next tick", async () => {
    platform = await startTestPlatform(kind, { feeds: [silentFeed(["EURUSD"])] });
    const started = platform.clock.now().getTime();
    const database = platform.database;
    const halts = () =>
      database.query<{ symbol: string; started_at: Date; ended_at: Date | null }>(
        "SELECT symbol, started_at, ended_at FROM feed_halts ORDER BY id",
      );
    // Wait for the feed's lock, then let the manual clock pass the entry limit.
    const deadline = Date.now() + 10_000;
    while (platform.context.marketData.ingesting().length === 0) {
      if (Date.now() > deadline) throw new Error("the feed was not ingested");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    platform.clock.advance(2_500);
    for (;;) {
      if ((await halts()).rows.length > 0) break;
      if (Date.now() > deadline) throw new Error("no halt was recorded");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [open] = (await halts()).rows;
    expect(open).toMatchObject({ symbol: "EURUSD", ended_at: null });
    expect(open!.started_at.getTime()).toBeGreaterThanOrEqual(started);
    await pushTick(platform, "EURUSD", 1.08);
    for (;;) {
      const [row] = (await halts()).rows;
      if (row?.ended_at) {
        expect(row.ended_at.getTime()).toBe(platform.clock.now().getTime());
        break;
      }
      if (Date.now() > deadline) throw new Error("the halt was not ended");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it("a trade that expires during a halt is refunded by the rule and listed with the halt on the public page", async () => {
    platform = await startTestPlatform(kind, { feeds: [silentFeed(["EURUSD"])] });
    const deadline = Date.now() + 15_000;
    while (platform.context.marketData.ingesting().length === 0) {
      if (Date.now() > deadline) throw new Error("the feed was not ingested");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const trader = await signedInTrader(platform);
    const http = httpClient(platform.baseUrl);
    await pushTick(platform, "EURUSD", 1.08);
    const placed = await http.post("/api/v1/place-trade", trade("EURUSD"), trader.token);
    expect(placed.status).toBe(201);
    // The feed stalls: the ingesting process opens a halt.
    platform.clock.advance(2_500);
    const database = platform.database;
    while ((await database.query("SELECT 1 FROM feed_halts")).rows.length === 0) {
      if (Date.now() > deadline) throw new Error("no halt was recorded");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Past the expiry and the wait for the feed: the stake comes back, with the reason.
    platform.clock.advance(30_000 + settlement_feed_wait_ms);
    await platform.context.settlement.settleDue();
    const id = placed.body.data.trade.id as number;
    const { audit } = (await http.get(`/api/v1/trades/${id}`, trader.token)).body.data;
    expect(audit.refund_reason).toBe("feed_down");
    await pushTick(platform, "EURUSD", 1.09);
    const halts = (await http.get("/api/v1/market-halts")).body.data.data as Array<{
      symbol: string;
      ended_at: string | null;
      refunded_trades: Array<{ id: number }>;
    }>;
    expect(halts).toHaveLength(1);
    expect(halts[0]!.symbol).toBe("EURUSD");
    expect(halts[0]!.refunded_trades.map((refunded) => refunded.id)).toEqual([id]);
  });
});

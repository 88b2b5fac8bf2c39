import { assetCatalogue } from "@tp/domain/catalogue";
import { feedHealthSchema, marketHaltsDataSchema } from "@tp/domain/market-status-api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { market_halts_page_size_max } from "../src/trading/market-halt-routes.ts";
import { signedInTrader } from "./support/accounts.ts";
import { staffToken, startFundingPlatform } from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";

const feedDownNote = "The price feed was down across the expiry; the stake was refunded in full.";

describe.each(databaseKindsUnderTest())("feed halts and feed health on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  /** A practice trade placed and settled through the real paths; its stake comes back (tie). */
  async function settledTie(token: string, symbol: string, type: "call" | "put") {
    await advanceWithTick(platform, symbol, 1.25, 1_000);
    const placed = await http.post(
      "/api/v1/place-trade",
      { asset: symbol, type, amount: 25, duration: 30, is_practice: true },
      token,
    );
    expect(placed.status, placed.text).toBe(201);
    await advanceWithTick(platform, symbol, 1.25, 29_900);
    await advanceWithTick(platform, symbol, 1.25, 400);
    await platform.context.settlement.settleDue();
    const trade = (await http.get(`/api/v1/trades/${placed.body.data.trade.id}`, token)).body.data
      .trade;
    expect(trade.status).toBe("tie");
    return { id: trade.id as number, expiresAtMs: Date.parse(trade.expires_at) };
  }

  /**
   * Gives a settled trade the refund reason the settlement worker records when the feed was
   * down across its expiry (its stake was already returned by the tie).
   */
  async function markFeedDown(tradeId: number, reason: "feed_down" | "no_price" = "feed_down") {
    await platform.database.query(
      "UPDATE trades SET refund_reason = $2, settlement_note = $3 WHERE id = $1",
      [tradeId, reason, feedDownNote],
    );
  }

  async function insertHalt(symbol: string, startedAtMs: number, endedAtMs: number | null) {
    const result = await platform.database.query<{ id: number }>(
      `INSERT INTO feed_halts (symbol, source, started_at, ended_at)
       VALUES ($1, 'simulated', $2, $3) RETURNING id`,
      [symbol, new Date(startedAtMs), endedAtMs === null ? null : new Date(endedAtMs)],
    );
    return result.rows[0]!.id;
  }

  it("answers an empty first page while there was no halt", async () => {
    const reply = await http.get("/api/v1/market-halts");
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      data: [],
      pagination: { last_page: 1, current_page: 1, total: 0 },
    });
  });

  it("lists halts newest first with the trades refunded during each, and never their owner", async () => {
    const trader = await signedInTrader(platform);
    const symbol = "AUDCAD";
    const during = await settledTie(trader.token, symbol, "call");
    const notFeedDown = await settledTie(trader.token, symbol, "put");
    const after = await settledTie(trader.token, symbol, "put");
    const duringOpenHalt = await settledTie(trader.token, symbol, "put");
    const otherAsset = await settledTie(trader.token, "EURJPY", "call");
    for (const trade of [during, after, duringOpenHalt, otherAsset]) await markFeedDown(trade.id);
    await markFeedDown(notFeedDown.id, "no_price");

    // A closed halt around the first two expiries (not the third, which expired after it), an open one around the
    // fourth, and one on another asset whose refund must stay there.
    const closed = await insertHalt(symbol, during.expiresAtMs - 500, notFeedDown.expiresAtMs);
    const other = await insertHalt("EURJPY", otherAsset.expiresAtMs - 500, otherAsset.expiresAtMs);
    const open = await insertHalt(symbol, duringOpenHalt.expiresAtMs - 500, null);
    expect(after.expiresAtMs).toBeGreaterThan(notFeedDown.expiresAtMs);

    const reply = await http.get("/api/v1/market-halts");
    expect(reply.status).toBe(200);
    expect(marketHaltsDataSchema.safeParse(reply.body.data).success).toBe(true);
    const halts = reply.body.data.data;
    expect(halts.map((halt: { id: number }) => halt.id)).toEqual([other, open, closed]);
    expect(reply.body.data.pagination).toEqual({ last_page: 1, current_page: 1, total: 3 });

    const byId = new Map(halts.map((halt: { id: number }) => [halt.id, halt]));
    expect(byId.get(closed)).toEqual({
      id: closed,
      symbol,
      name: assetCatalogue.find((asset) => asset.symbol === symbol)!.name,
      source: "simulated",
      started_at: new Date(during.expiresAtMs - 500).toISOString(),
      ended_at: new Date(notFeedDown.expiresAtMs).toISOString(),
      refunded_trades: [
        {
          id: during.id,
          direction: "call",
          amount: 25,
          is_practice: true,
          expires_at: new Date(during.expiresAtMs).toISOString(),
          settlement_note: feedDownNote,
        },
      ],
    });
    expect(byId.get(open)).toMatchObject({
      ended_at: null,
      refunded_trades: [{ id: duringOpenHalt.id, direction: "put", amount: 25 }],
    });
    expect(byId.get(other)).toMatchObject({
      symbol: "EURJPY",
      refunded_trades: [{ id: otherAsset.id }],
    });

    // Public: nothing names the trader.
    expect(reply.text).not.toContain(trader.email);
    expect(reply.text).not.toContain("user");
    expect(reply.text).not.toContain(`"${trader.user.id}"`);

    const second = await http.get("/api/v1/market-halts?page=2&limit=1");
    expect(second.status).toBe(200);
    expect(second.body.data.data.map((halt: { id: number }) => halt.id)).toEqual([open]);
    expect(second.body.data.pagination).toEqual({ last_page: 3, current_page: 2, total: 3 });
    const past = await http.get("/api/v1/market-halts?page=4&limit=1");
    expect(past.body.data.data).toEqual([]);
  });

  it("answers bad paging with 400 and a message", async () => {
    for (const query of [
      "page=0",
      "page=abc",
      "page=1.5",
      "limit=0",
      `limit=${market_halts_page_size_max + 1}`,
      "limit=x",
    ]) {
      const reply = await http.get(`/api/v1/market-halts?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.status, query).toBe("error");
      expect(reply.body.message, query).toMatch(/page|limit/);
    }
  });

  it("shows staff every asset's feed state, and refuses a trader", async () => {
    const trader = await signedInTrader(platform);
    expect((await http.get("/api/v1/admin/feeds")).status).toBe(401);
    const refused = await http.get("/api/v1/admin/feeds", trader.token);
    expect(refused.status).toBe(403);

    await advanceWithTick(platform, "EURUSD", 1.0812, 1_000);
    const reply = await http.get("/api/v1/admin/feeds", await staffToken(platform));
    expect(reply.status).toBe(200);
    const parsed = feedHealthSchema.safeParse(reply.body.data);
    expect(parsed.success).toBe(true);
    const health = parsed.data!;
    expect(health.bus).toEqual({ kind: "memory", connected: true, down_since: null });
    expect(health.sources).toContainEqual({
      source: "simulated",
      symbols: assetCatalogue.length,
      ingesting_here: expect.any(Boolean),
    });
    expect(health.assets.map((asset) => asset.symbol)).toEqual(
      assetCatalogue.map((asset) => asset.symbol),
    );
    const eurusd = health.assets.find((asset) => asset.symbol === "EURUSD")!;
    expect(eurusd).toMatchObject({
      source: "simulated",
      state: "open",
      last_tick_at: platform.clock.now().toISOString(),
      age_ms: 0,
    });
    expect(eurusd.stale_after_ms).toBeGreaterThan(0);
  });
});

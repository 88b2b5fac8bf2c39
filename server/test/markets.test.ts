import { assetCatalogue } from "@tp/domain/catalogue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick, pushTick } from "./support/prices.ts";

describe.each(databaseKindsUnderTest())("market data on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("GET /markets lists all 40 assets with last price, source, open/closed and 24 h change", async () => {
    await pushTick(platform, "XAUUSD", 2000);
    await platform.context.marketData.flush();
    platform.clock.advance(24 * 60 * 60 * 1000);
    await pushTick(platform, "XAUUSD", 2100);
    const reply = await http.get("/api/v1/markets");
    expect(reply.status).toBe(200);
    const markets = reply.body.data.markets as Array<Record<string, unknown>>;
    expect(markets.map((market) => market.symbol)).toEqual(
      assetCatalogue.map((asset) => asset.symbol),
    );
    expect(markets.find((market) => market.symbol === "XAUUSD")).toEqual({
      symbol: "XAUUSD",
      name: "Gold",
      option_type: "commodities",
      // Simulated prices never carry a venue's name (issue 11, honest labels).
      chart_symbol: "XAUUSD",
      precision: 3,
      price: 2100,
      at: platform.clock.now().toISOString(),
      change_24h_percent: 5,
      source: "simulated",
      is_open: true,
      state: "open",
      next_open_at: null,
      real_trading: false,
    });
    expect(markets.find((market) => market.symbol === "AAPL")).toMatchObject({
      chart_symbol: "AAPL",
      price: null,
      source: null,
      is_open: false,
      state: "halted",
      real_trading: false,
    });
    expect(markets.find((market) => market.symbol === "EURUSD")?.chart_symbol).toBe("EURUSD");
  });

  it("names the venue in a chart label only when a real provider priced the asset", async () => {
    await pushTick(platform, "BTCUSDT", 65_000, platform.clock.now().getTime(), "binance");
    await pushTick(platform, "DOGEUSDT", 0.15, platform.clock.now().getTime(), "simulated");
    const markets = (await http.get("/api/v1/markets")).body.data.markets as Array<
      Record<string, unknown>
    >;
    expect(markets.find((market) => market.symbol === "BTCUSDT")).toMatchObject({
      chart_symbol: "BINANCE:BTCUSDT",
      source: "binance",
      real_trading: true,
    });
    expect(markets.find((market) => market.symbol === "DOGEUSDT")?.chart_symbol).toBe("DOGEUSDT");
  });

  it("GET /candles returns 1 s and 1 m candles built from the ticks, oldest first", async () => {
    const start = Math.ceil(platform.clock.now().getTime() / 60_000) * 60_000 + 60_000;
    platform.clock.advance(start - platform.clock.now().getTime());
    for (const [offsetMs, price] of [
      [0, 1.1],
      [300, 1.3],
      [600, 1.0],
      [900, 1.2],
      [1_200, 1.25],
    ] as const) {
      await pushTick(platform, "GBPUSD", price, start + offsetMs);
    }
    await platform.context.marketData.flush();
    const seconds = await http.get(
      `/api/v1/candles?symbol=GBPUSD&interval=1s&from=${new Date(start).toISOString()}&to=${new Date(start + 5_000).toISOString()}`,
    );
    expect(seconds.status).toBe(200);
    expect(seconds.body.data.candles).toEqual([
      { time: start, open: 1.1, high: 1.3, low: 1.0, close: 1.2, source: "simulated" },
      { time: start + 1_000, open: 1.25, high: 1.25, low: 1.25, close: 1.25, source: "simulated" },
    ]);
    const minutes = await http.get(
      `/api/v1/candles?symbol=GBPUSD&interval=1m&from=${new Date(start).toISOString()}&to=${new Date(start + 60_000).toISOString()}`,
    );
    expect(minutes.body.data.candles).toEqual([
      { time: start, open: 1.1, high: 1.3, low: 1.0, close: 1.25, source: "simulated" },
    ]);
    expect((await http.get("/api/v1/candles?symbol=NOPE")).status).toBe(400);
    const unknownInterval = await http.get("/api/v1/candles?symbol=GBPUSD&interval=2m");
    expect(unknownInterval.status).toBe(400);
    expect(unknownInterval.text).toContain("Unknown interval (use 1s, 1m, 5m, 15m, 1h, 4h, 1d)");
  });
});

describe("trading under the default rate limits", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform("pglite", { env: { RATE_LIMIT_FACTOR: "1" } });
  });
  afterAll(async () => platform?.close());

  it("lets a trader place a burst of 50 trades at once", async () => {
    const http = httpClient(platform.baseUrl);
    const trader = await signedInTrader(platform);
    await advanceWithTick(platform, "EURUSD", 1.08, 0);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () =>
        http.post(
          "/api/v1/place-trade",
          { asset: "EURUSD", type: "put", amount: 1, duration: 60, is_practice: true },
          trader.token,
        ),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 50 }, () => 201));
  });
});

describe("trading conditions (PRODUCT.md D2)", () => {
  it("says real balances trade on simulated prices only when the flag is set and they do", async () => {
    const flagged = await startTestPlatform("pglite", {
      env: { ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true" },
    });
    // Another top-up level: the web disables Top-up at the configured one (issue 13).
    const plain = await startTestPlatform("pglite", { env: { PRACTICE_BALANCE_DOLLARS: "2500" } });
    try {
      const conditions = async (platform: TestPlatform) =>
        (await httpClient(platform.baseUrl).get("/api/v1/trading-conditions")).body.data;
      // No simulated price yet: nothing trades on one.
      expect(await conditions(flagged)).toEqual({
        real_trading_on_simulated_prices: false,
        practice_top_up_level: 10_000,
      });
      await advanceWithTick(flagged, "EURUSD", 1.08, 0);
      await advanceWithTick(plain, "EURUSD", 1.08, 0);
      expect(await conditions(flagged)).toEqual({
        real_trading_on_simulated_prices: true,
        practice_top_up_level: 10_000,
      });
      expect(await conditions(plain)).toEqual({
        real_trading_on_simulated_prices: false,
        practice_top_up_level: 2500,
      });
    } finally {
      await flagged.close();
      await plain.close();
    }
  }, 90_000);
});

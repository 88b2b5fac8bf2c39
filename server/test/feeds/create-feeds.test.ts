import { assetCatalogue, assetsOfType } from "@tp/domain/catalogue";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { systemClock } from "../../src/clock.ts";
import { configSchema } from "../../src/config.ts";
import { createFeeds } from "../../src/feeds/create-feeds.ts";
import {
  feedConfigSchema,
  feedConfigShape,
  refineFeedConfig,
} from "../../src/feeds/feed-config.ts";
import type { ObservableFeed } from "../../src/feeds/feed-stats.ts";
import type { FeedSource } from "../../src/feeds/tick.ts";
import { BinanceHistory } from "../../src/prices/binance-history.ts";
import { FinnhubHistory } from "../../src/prices/finnhub-history.ts";
import { createProviderHistorySources } from "../../src/prices/history-sources.ts";
import { FakeProviders } from "../support/fake-providers.ts";
import { captureLog } from "./support/capture-log.ts";
import { waitFor } from "./support/collect.ts";
import { FakeProvider } from "./support/fake-provider.ts";

const catalogueSymbols = assetCatalogue.map((asset) => asset.symbol);

function settings(environment: Record<string, string>) {
  return feedConfigSchema.parse(environment);
}

function sourceOf(feeds: ObservableFeed[]): Map<string, FeedSource[]> {
  const sources = new Map<string, FeedSource[]>();
  for (const feed of feeds) {
    for (const symbol of feed.symbols)
      sources.set(symbol, [...(sources.get(symbol) ?? []), feed.source]);
  }
  return sources;
}

function expectEachSymbolOnce(feeds: ObservableFeed[]) {
  const covered = feeds.flatMap((feed) => feed.symbols);
  expect([...covered].sort()).toEqual([...catalogueSymbols].sort());
}

describe("feed settings", () => {
  it("default to everything simulated at 4 ticks a second, against the real hosts", () => {
    const parsed = settings({});
    expect(new Set(Object.values(parsed.FEED_SOURCES))).toEqual(new Set(["simulated"]));
    expect(Object.keys(parsed.FEED_SOURCES).sort()).toEqual([...catalogueSymbols].sort());
    expect(parsed).toMatchObject({
      BINANCE_WS_URL: "wss://stream.binance.com:9443",
      FINNHUB_WS_URL: "wss://ws.finnhub.io",
      BINANCE_REST_URL: "https://api.binance.com",
      FINNHUB_REST_URL: "https://finnhub.io",
      SIMULATED_FEED_SEED: 1,
      SIMULATED_TICK_INTERVAL_MS: 250,
    });
    expect(parsed.FEED_API_KEY).toBeUndefined();
  });

  it("let a symbol override its option type, which overrides all, in any order", () => {
    const forwards = settings({
      FEED_SOURCES: "all=finnhub, crypto=binance, EURUSD=simulated, btcusd=simulated",
      FEED_API_KEY: "key",
    }).FEED_SOURCES;
    const backwards = settings({
      FEED_SOURCES: "BTCUSD=simulated,EURUSD=Simulated,CRYPTO=binance,all=finnhub,",
      FEED_API_KEY: "key",
    }).FEED_SOURCES;
    expect(backwards).toEqual(forwards);
    expect(forwards).toMatchObject({
      EURUSD: "simulated",
      GBPUSD: "finnhub",
      AAPL: "finnhub",
      BTCUSDT: "binance",
      BTCUSD: "simulated",
    });
  });

  it.each([
    [{ FEED_SOURCES: "crypto=kraken" }, "FEED_SOURCES", /unknown source "kraken"/],
    [{ FEED_SOURCES: "metals=finnhub" }, "FEED_SOURCES", /unknown key "metals"/],
    [{ FEED_SOURCES: "forex=binance" }, "FEED_SOURCES", /binance cannot price AUDCAD, .*USDJPY/],
    [{ FEED_SOURCES: "crypto=binance,crypto=simulated" }, "FEED_SOURCES", /crypto is set twice/],
    [{ FEED_SOURCES: "crypto" }, "FEED_SOURCES", /"crypto" must be key=source/],
    [{ FEED_SOURCES: "stocks=finnhub" }, "FEED_API_KEY", /required when FEED_SOURCES uses finnhub/],
    [{ BINANCE_WS_URL: "https://stream.binance.com" }, "BINANCE_WS_URL", /ws:\/\/ or wss:\/\//],
    [{ FINNHUB_WS_URL: "wss://" }, "FINNHUB_WS_URL", /ws:\/\/ or wss:\/\//],
    [{ BINANCE_REST_URL: "wss://api.binance.com" }, "BINANCE_REST_URL", /http:\/\/ or https:/],
    [{ FINNHUB_REST_URL: "finnhub.io" }, "FINNHUB_REST_URL", /http:\/\/ or https:/],
    [{ SIMULATED_FEED_SEED: "lucky" }, "SIMULATED_FEED_SEED", /whole number/],
    [{ SIMULATED_TICK_INTERVAL_MS: "10" }, "SIMULATED_TICK_INTERVAL_MS", /at least 50 ms/],
    [{ SIMULATED_TICK_INTERVAL_MS: "fast" }, "SIMULATED_TICK_INTERVAL_MS", /number of milli/],
  ])("reject %j naming %s", (environment, variable, message) => {
    const result = feedConfigSchema.safeParse(environment);
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path).toEqual([variable]);
    expect(issue.message).toMatch(message);
  });

  it("merge into the server's config schema as documented, keeping the cross-field rule", () => {
    const merged = z
      .object({ ...configSchema.shape, ...feedConfigShape })
      .superRefine(refineFeedConfig);
    expect(merged.parse({}).SIMULATED_TICK_INTERVAL_MS).toBe(250);
    const result = merged.safeParse({ FEED_SOURCES: "stocks=finnhub", PORT: "80" });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([["FEED_API_KEY"]]);
  });

  it("need no API key while nothing uses finnhub", () => {
    expect(feedConfigSchema.safeParse({ FEED_SOURCES: "crypto=binance" }).success).toBe(true);
  });
});

describe("createFeeds", () => {
  const log = captureLog();
  let providers: FakeProvider[] = [];
  let controller = new AbortController();

  beforeEach(() => {
    controller = new AbortController();
  });

  afterEach(async () => {
    controller.abort();
    await Promise.all(providers.map((provider) => provider.close()));
    providers = [];
  });

  it("builds one simulated feed for the whole catalogue by default", () => {
    const feeds = createFeeds(settings({}), systemClock, log.logger);
    expect(feeds.map((feed) => feed.source)).toEqual(["simulated"]);
    expectEachSymbolOnce(feeds);
  });

  it("splits the catalogue between sources, each symbol from exactly one", () => {
    const feeds = createFeeds(
      settings({
        FEED_SOURCES: "crypto=binance,all=finnhub,EURUSD=simulated,AAPL=simulated",
        FEED_API_KEY: "key",
      }),
      systemClock,
      log.logger,
    );
    expect(feeds.map((feed) => feed.source)).toEqual(["simulated", "binance", "finnhub"]);
    expectEachSymbolOnce(feeds);
    const sources = sourceOf(feeds);
    expect(sources.get("EURUSD")).toEqual(["simulated"]);
    expect(sources.get("AAPL")).toEqual(["simulated"]);
    for (const asset of assetsOfType("crypto"))
      expect(sources.get(asset.symbol)).toEqual(["binance"]);
    expect(sources.get("GBPUSD")).toEqual(["finnhub"]);
    expect(sources.get("US500")).toEqual(["finnhub"]);
    expect(feeds[2]!.symbols).toHaveLength(30);
  });

  it("points the real feeds at the configured hosts with their own symbols", async () => {
    const binance = await FakeProvider.start();
    const finnhub = await FakeProvider.start();
    providers = [binance, finnhub];
    const feeds = createFeeds(
      settings({
        FEED_SOURCES: "crypto=binance,forex=finnhub",
        FEED_API_KEY: "key",
        BINANCE_WS_URL: binance.url,
        FINNHUB_WS_URL: finnhub.url,
      }),
      systemClock,
      log.logger,
    );
    for (const feed of feeds.filter((feed) => feed.source !== "simulated")) {
      void feed.ticks(controller.signal)[Symbol.asyncIterator]().next();
    }
    expect((await binance.connection(0)).path).toMatch(/^\/stream\?streams=btcusdt@trade\//);
    const finnhubConnection = await finnhub.connection(0);
    await waitFor(() => finnhubConnection.received.length === 8, "8 forex subscriptions");
    expect(finnhubConnection.received.map((text) => JSON.parse(text).symbol).sort()).toEqual(
      assetsOfType("forex")
        .map((asset) => `OANDA:${asset.symbol.slice(0, 3)}_${asset.symbol.slice(3)}`)
        .sort(),
    );
  });
});

describe("createProviderHistorySources", () => {
  const log = captureLog();

  it("has no provider history while everything is simulated (the simulator makes its own)", () => {
    expect(createProviderHistorySources(settings({}), systemClock, log.logger)).toEqual([]);
  });

  it("makes one history source per real source, over the same symbols as its live feed", () => {
    const configured = settings({
      FEED_SOURCES: "crypto=binance,all=finnhub,EURUSD=simulated",
      FEED_API_KEY: "key",
    });
    const sources = createProviderHistorySources(configured, systemClock, log.logger);
    const feeds = createFeeds(configured, systemClock, log.logger);
    expect(sources.map((source) => source.source)).toEqual(["binance", "finnhub"]);
    expect(sources[0]).toBeInstanceOf(BinanceHistory);
    expect(sources[1]).toBeInstanceOf(FinnhubHistory);
    for (const source of sources) {
      expect(source.symbols).toEqual(feeds.find((feed) => feed.source === source.source)!.symbols);
    }
    expect(sources[1]!.symbols).not.toContain("EURUSD");
  });

  it("asks the configured REST hosts", async () => {
    const fake = await FakeProviders.start();
    try {
      fake.on("/api/v3/klines", { kind: "json", body: [] });
      fake.on("/api/v1/forex/candle", { kind: "json", body: { s: "no_data" } });
      const sources = createProviderHistorySources(
        settings({
          FEED_SOURCES: "crypto=binance,forex=finnhub",
          FEED_API_KEY: "key",
          BINANCE_REST_URL: fake.url("/"),
          FINNHUB_REST_URL: fake.url(""),
        }),
        systemClock,
        log.logger,
      );
      const signal = new AbortController().signal;
      const nowMs = Date.now();
      await sources[0]!.minuteCandles("BTCUSDT", nowMs - 120_000, nowMs, signal);
      await sources[1]!.minuteCandles("EURUSD", nowMs - 120_000, nowMs, signal);
      expect(fake.requests.map((request) => request.path)).toEqual([
        "/api/v3/klines",
        "/api/v1/forex/candle",
      ]);
    } finally {
      await fake.close();
    }
  });
});

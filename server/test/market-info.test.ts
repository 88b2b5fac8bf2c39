import { marketInfoMessages, news_page_size } from "@tp/domain/market-info";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  blockchain_stats_cache_ms,
  crypto_market_cache_ms,
  crypto_news_cache_ms,
} from "../src/market-info/market-info-service.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { FakeProviders, fixture } from "./support/fake-providers.ts";
import { httpClient } from "./support/http.ts";

const statsPath = "/stats";
const newsPath = "/v1/content/latest";
const listingsPath = "/v1/cryptocurrency/listings/latest";
const timeout_ms = 300;
const failures_to_open = 3;
const cool_down_ms = 30_000;
const api_key = "test-cmc-key-0001";

describe.each(databaseKindsUnderTest())(
  "blockchain stats, crypto news and market data on %s",
  (kind) => {
    let platform: TestPlatform;
    let fake: FakeProviders;
    let http: ReturnType<typeof httpClient>;
    let token: string;

    beforeAll(async () => {
      fake = await FakeProviders.start();
      platform = await startTestPlatform(kind, {
        env: {
          BLOCKCHAIN_STATS_URL: fake.url(statsPath),
          CRYPTO_NEWS_URL: fake.url(newsPath),
          CRYPTO_MARKET_URL: fake.url(listingsPath),
          COINMARKETCAP_API_KEY: api_key,
          PROVIDER_TIMEOUT_MS: String(timeout_ms),
          PROVIDER_FAILURES_TO_OPEN: String(failures_to_open),
          PROVIDER_COOL_DOWN_MS: String(cool_down_ms),
        },
      });
      token = (await signedInTrader(platform)).token;
    });
    afterAll(async () => {
      await platform?.close();
      await fake?.close();
    });
    // Each test starts with empty caches and closed circuits (a process restart), and a
    // healthy provider answering the recorded replies.
    beforeEach(async () => {
      await platform.restart();
      http = httpClient(platform.baseUrl);
      await fake.resume();
      fake.reset();
      fake.on(statsPath, { kind: "json", body: fixture("blockchain-info-stats.json") });
      fake.on(newsPath, (request) => ({
        kind: "json",
        body:
          request.query.get("start") === "1"
            ? fixture("coinmarketcap-content-latest-page-1.json")
            : fixture("coinmarketcap-content-latest-page-2.json"),
      }));
      fake.on(listingsPath, { kind: "json", body: fixture("coinmarketcap-listings-latest.json") });
    });

    /** The n-th coin's market cap as the recorded listings reply states it. */
    function listedMarketCap(index: number): number {
      const reply = fixture("coinmarketcap-listings-latest.json") as {
        data: Array<{ quote: { USD: { market_cap: number } } }>;
      };
      return reply.data[index]!.quote.USD.market_cap;
    }

    function expectUnavailable(reply: { status: number; body: unknown }, message: string) {
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ status: "error", code: "PROVIDER_UNAVAILABLE", message });
    }

    describe("GET /blockchain-stats", () => {
      it("answers the provider's figures in the documented units, with source and times", async () => {
        const reply = await http.get("/api/v1/blockchain-stats", token);
        expect(reply.status).toBe(200);
        expect(reply.body.data).toEqual({
          source: "blockchain.com",
          fetched_at: platform.clock.now().toISOString(),
          as_of: new Date(1768478400000).toISOString(),
          market_price_usd: 96512.37,
          // GH/s → H/s
          hash_rate_hs: 1.046391533821e21,
          difficulty: 146472570619930,
          minutes_between_blocks: 9.7241,
          total_blocks: 931402,
          total_btc: 19976843.75,
          next_retarget_block: 932399,
          blocks_mined_24h: 145,
          btc_mined_24h: 453.125,
          transactions_24h: 412873,
          total_fees_btc_24h: 18.59736421,
          miners_revenue_usd_24h: 45532710.63,
          miners_revenue_btc_24h: 471,
          estimated_transaction_volume_usd_24h: 7841235512.44,
          estimated_btc_sent_24h: 81247.09311572,
          trade_volume_usd_24h: 844892613.58,
          trade_volume_btc_24h: 8754.21,
        });
        // blockchain.com needs no key: none is sent to it.
        expect(fake.hits(statsPath)[0]?.headers["x-cmc_pro_api_key"]).toBeUndefined();
      });

      it("is for signed-in traders only", async () => {
        const reply = await http.get("/api/v1/blockchain-stats");
        expect(reply.status).toBe(401);
        expect(fake.hits(statsPath)).toHaveLength(0);
      });

      it("serves from the cache within 30 s and asks the provider again after", async () => {
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(200);
        platform.clock.advance(blockchain_stats_cache_ms - 1);
        const cached = await http.get("/api/v1/blockchain-stats", token);
        expect(cached.status).toBe(200);
        expect(fake.hits(statsPath)).toHaveLength(1);
        platform.clock.advance(1);
        const fresh = await http.get("/api/v1/blockchain-stats", token);
        expect(fresh.status).toBe(200);
        expect(fake.hits(statsPath)).toHaveLength(2);
        expect(fresh.body.data.fetched_at).toBe(platform.clock.now().toISOString());
      });

      it("answers 503 with a clear message when the provider refuses connections", async () => {
        await fake.stop();
        const reply = await http.get("/api/v1/blockchain-stats", token);
        expectUnavailable(reply, marketInfoMessages.blockchainStatsUnavailable);
      });

      it("answers 503 when the provider does not answer within the timeout", async () => {
        fake.on(statsPath, { kind: "hang" });
        const started = Date.now();
        const reply = await http.get("/api/v1/blockchain-stats", token);
        expectUnavailable(reply, marketInfoMessages.blockchainStatsUnavailable);
        expect(Date.now() - started).toBeGreaterThanOrEqual(timeout_ms - 20);
        expect(Date.now() - started).toBeLessThan(5_000);
      });

      it.each([
        ["a reply missing documented fields", { kind: "json", body: { market_price_usd: 1 } }],
        [
          "a field of the wrong type",
          {
            kind: "json",
            body: { ...(fixture("blockchain-info-stats.json") as object), n_tx: "many" },
          },
        ],
        [
          "a reply that is not JSON",
          { kind: "text", body: "<html>maintenance</html>", contentType: "text/html" },
        ],
        ["an HTTP 500", { kind: "json", status: 500, body: { error: "internal" } }],
        ["a cut connection", { kind: "drop" }],
      ] as const)("answers 503, not 500, on %s", async (_what, behaviour) => {
        fake.on(statsPath, behaviour);
        const reply = await http.get("/api/v1/blockchain-stats", token);
        expectUnavailable(reply, marketInfoMessages.blockchainStatsUnavailable);
        expect(fake.hits(statsPath)).toHaveLength(1);
      });

      it("does not cache a failure: the next request asks the provider again", async () => {
        fake.on(statsPath, { kind: "drop" });
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(503);
        fake.on(statsPath, { kind: "json", body: fixture("blockchain-info-stats.json") });
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(200);
        expect(fake.hits(statsPath)).toHaveLength(2);
      });

      it("opens the circuit after repeated failures, then probes once after the cool-down and recovers", async () => {
        await fake.stop();
        for (let attempt = 0; attempt < failures_to_open; attempt++) {
          expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(503);
        }
        // Open: the provider is back, but nobody asks it until the cool-down has passed.
        await fake.resume();
        const open = await http.get("/api/v1/blockchain-stats", token);
        expectUnavailable(open, marketInfoMessages.blockchainStatsUnavailable);
        expect(open.headers.get("retry-after")).toBe(String(cool_down_ms / 1000));
        platform.clock.advance(cool_down_ms - 1);
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(503);
        expect(fake.hits(statsPath)).toHaveLength(0);

        // Half-open: one probe goes through, succeeds and closes the circuit.
        platform.clock.advance(1);
        const probe = await http.get("/api/v1/blockchain-stats", token);
        expect(probe.status).toBe(200);
        expect(fake.hits(statsPath)).toHaveLength(1);
        platform.clock.advance(blockchain_stats_cache_ms);
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(200);
        expect(fake.hits(statsPath)).toHaveLength(2);
      });

      it("re-opens the circuit when the half-open probe fails", async () => {
        fake.on(statsPath, { kind: "json", status: 502, body: {} });
        for (let attempt = 0; attempt < failures_to_open; attempt++) {
          await http.get("/api/v1/blockchain-stats", token);
        }
        expect(fake.hits(statsPath)).toHaveLength(failures_to_open);
        platform.clock.advance(cool_down_ms);
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(503);
        expect(fake.hits(statsPath)).toHaveLength(failures_to_open + 1);
        // One failed probe is enough to open it again for a full cool-down.
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(503);
        expect(fake.hits(statsPath)).toHaveLength(failures_to_open + 1);
      });

      it("shares one provider call between concurrent requests", async () => {
        const replies = await Promise.all(
          Array.from({ length: 5 }, () => http.get("/api/v1/blockchain-stats", token)),
        );
        expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
        expect(fake.hits(statsPath)).toHaveLength(1);
      });
    });

    describe("GET /crypto-news", () => {
      it("asks the provider for start=(page−1)·10+1, limit=10, with the API key", async () => {
        for (const [page, start] of [
          [1, "1"],
          [2, "11"],
          [3, "21"],
          [100, "991"],
        ] as const) {
          const reply = await http.get(`/api/v1/crypto-news?page=${page}`, token);
          expect(reply.status).toBe(200);
          const request = fake.hits(newsPath).at(-1)!;
          expect(request.query.get("start")).toBe(start);
          expect(request.query.get("limit")).toBe("10");
          expect(request.headers["x-cmc_pro_api_key"]).toBe(api_key);
        }
        expect((await http.get("/api/v1/crypto-news", token)).body.data.page).toBe(1);
      });

      it("maps the provider's articles and says whether another page follows", async () => {
        const first = await http.get("/api/v1/crypto-news?page=1", token);
        expect(first.status).toBe(200);
        expect(first.body.data).toMatchObject({
          source: "CoinMarketCap",
          page: 1,
          page_size: news_page_size,
          next_page: 2,
        });
        expect(first.body.data.data).toHaveLength(10);
        expect(first.body.data.data[0]).toEqual({
          id: "6787a1b2c3d4e5f60000",
          title: "Bitcoin miners' revenue falls as fees stay low",
          subtitle: "A summary of bitcoin miners' revenue falls as fees stay low.",
          source_name: "Cointelegraph",
          url: "https://cointelegraph.com/news/bitcoin-miners-revenue-falls-as-fees-stay-low",
          cover_image_url:
            "https://s3.coinmarketcap.com/static-gravity/image/6787a1b2c3d4e5f60000.png",
          published_at: "2026-01-15T11:59:00.000Z",
          assets: [{ symbol: "BTC", name: "Bitcoin" }],
        });
        const ids = first.body.data.data.map((item: { id: string }) => item.id);
        expect(new Set(ids).size).toBe(10);

        const last = await http.get("/api/v1/crypto-news?page=2", token);
        expect(last.body.data.data).toHaveLength(3);
        expect(last.body.data.next_page).toBeNull();
      });

      it("leaves out articles without a safe link or a title rather than inventing them", async () => {
        const page = fixture("coinmarketcap-content-latest-page-2.json") as {
          data: Array<{ meta: Record<string, unknown>; cover: string }>;
        };
        page.data[0]!.meta.sourceUrl = "javascript:alert(1)";
        delete page.data[1]!.meta.title;
        page.data[2]!.cover = "http://insecure.example/cover.png";
        fake.on(newsPath, { kind: "json", body: page });
        const reply = await http.get("/api/v1/crypto-news?page=2", token);
        expect(reply.status).toBe(200);
        expect(reply.body.data.data).toHaveLength(1);
        expect(reply.body.data.data[0].cover_image_url).toBeNull();
      });

      it("caches each page for five minutes", async () => {
        await http.get("/api/v1/crypto-news?page=1", token);
        await http.get("/api/v1/crypto-news?page=1", token);
        await http.get("/api/v1/crypto-news?page=2", token);
        expect(fake.hits(newsPath).map((request) => request.query.get("start"))).toEqual([
          "1",
          "11",
        ]);
        platform.clock.advance(crypto_news_cache_ms);
        await http.get("/api/v1/crypto-news?page=1", token);
        expect(fake.hits(newsPath)).toHaveLength(3);
      });

      it.each(["0", "-1", "1.5", "abc", "101"])("refuses page=%s with 400", async (page) => {
        const reply = await http.get(`/api/v1/crypto-news?page=${page}`, token);
        expect(reply.status).toBe(400);
        expect(reply.body.code).toBe("MALFORMED_REQUEST");
        expect(fake.hits(newsPath)).toHaveLength(0);
      });

      it("answers 503 when CoinMarketCap refuses the key (its error format)", async () => {
        fake.on(newsPath, {
          kind: "json",
          status: 401,
          body: fixture("coinmarketcap-error-api-key-missing.json"),
        });
        expectUnavailable(
          await http.get("/api/v1/crypto-news?page=1", token),
          marketInfoMessages.cryptoNewsUnavailable,
        );
      });

      it("answers 503 on a 200 reply whose status carries an error code", async () => {
        fake.on(newsPath, {
          kind: "json",
          body: { ...(fixture("coinmarketcap-error-api-key-missing.json") as object), data: [] },
        });
        expectUnavailable(
          await http.get("/api/v1/crypto-news?page=1", token),
          marketInfoMessages.cryptoNewsUnavailable,
        );
      });

      it("answers 503 on a malformed reply, a timeout and a refused connection", async () => {
        fake.on(newsPath, { kind: "json", body: { status: { error_code: 0 }, data: "none" } });
        expectUnavailable(
          await http.get("/api/v1/crypto-news?page=1", token),
          marketInfoMessages.cryptoNewsUnavailable,
        );
        fake.on(newsPath, { kind: "json", body: { status: { error_code: 0 }, data: [{ id: 1 }] } });
        expectUnavailable(
          await http.get("/api/v1/crypto-news?page=1", token),
          marketInfoMessages.cryptoNewsUnavailable,
        );
        fake.on(newsPath, { kind: "hang" });
        expectUnavailable(
          await http.get("/api/v1/crypto-news?page=2", token),
          marketInfoMessages.cryptoNewsUnavailable,
        );
      });

      it("keeps its own circuit: news failing does not stop the blockchain stats", async () => {
        fake.on(newsPath, { kind: "drop" });
        for (let attempt = 0; attempt < failures_to_open + 1; attempt++) {
          await http.get("/api/v1/crypto-news?page=1", token);
        }
        expect(fake.hits(newsPath)).toHaveLength(failures_to_open);
        expect((await http.get("/api/v1/blockchain-stats", token)).status).toBe(200);
      });
    });

    describe("GET /crypto-market-data", () => {
      it("answers SPEC §3 Market data, top coins first, from one cached provider call", async () => {
        const reply = await http.get("/api/v1/crypto-market-data?limit=2", token);
        expect(reply.status).toBe(200);
        expect(reply.body.data.source).toBe("CoinMarketCap");
        expect(reply.body.data.data).toEqual([
          {
            id: 1,
            name: "Bitcoin",
            symbol: "BTC",
            circulating_supply: 19976843.75,
            last_updated: "2026-01-15T11:59:00.000Z",
            quote: {
              USD: {
                price: 96512.37,
                volume_24h: 41235512211.63,
                market_cap: listedMarketCap(0),
                percent_change_24h: -1.12,
              },
            },
          },
          {
            id: 1027,
            name: "Ethereum",
            symbol: "ETH",
            circulating_supply: 120693421.51,
            last_updated: "2026-01-15T11:59:00.000Z",
            quote: {
              USD: {
                price: 3312.84,
                volume_24h: 18422913722.15,
                market_cap: listedMarketCap(1),
                percent_change_24h: 2.41,
              },
            },
          },
        ]);
        const all = await http.get("/api/v1/crypto-market-data", token);
        expect(all.body.data.data.map((coin: { symbol: string }) => coin.symbol)).toEqual([
          "BTC",
          "ETH",
          "USDT",
          "XRP",
          "BNB",
        ]);
        const [request, ...more] = fake.hits(listingsPath);
        expect(more).toHaveLength(0);
        expect(Object.fromEntries(request!.query)).toEqual({
          start: "1",
          limit: "100",
          convert: "USD",
        });
        expect(request!.headers["x-cmc_pro_api_key"]).toBe(api_key);
        platform.clock.advance(crypto_market_cache_ms);
        await http.get("/api/v1/crypto-market-data", token);
        expect(fake.hits(listingsPath)).toHaveLength(2);
      });

      it("refuses a limit out of range and answers 503 when the provider is down", async () => {
        expect((await http.get("/api/v1/crypto-market-data?limit=0", token)).status).toBe(400);
        expect((await http.get("/api/v1/crypto-market-data?limit=101", token)).status).toBe(400);
        await fake.stop();
        expectUnavailable(
          await http.get("/api/v1/crypto-market-data", token),
          marketInfoMessages.cryptoMarketUnavailable,
        );
      });
    });
  },
);

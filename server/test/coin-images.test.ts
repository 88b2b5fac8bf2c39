import { coinImagePath, marketInfoMessages } from "@tp/domain/market-info";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { coin_image_bytes_max } from "../src/market-info/market-info-service.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { FakeProviders, fixture } from "./support/fake-providers.ts";
import { jpegBytes, pngBytes } from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const listingsPath = "/v1/cryptocurrency/listings/latest";
const imagePrefix = "/static/img/coins/64x64/";
const listings = fixture("coinmarketcap-listings-latest.json") as { data: Array<{ id: number }> };
const listedId = listings.data[0]!.id;
const secondListedId = listings.data[1]!.id;
// An id CoinMarketCap has but the listing does not: the proxy must not fetch it.
const unlistedId = 999_999;

/** Raw bytes and headers of a reply (the JSON client reads text). */
async function getBytes(url: string) {
  const response = await fetch(url);
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe.each(databaseKindsUnderTest())("coin logos and set-up providers on %s", (kind) => {
  let platform: TestPlatform;
  let fake: FakeProviders;

  beforeAll(async () => {
    fake = await FakeProviders.start();
    platform = await startTestPlatform(kind, {
      env: {
        CRYPTO_MARKET_URL: fake.url(listingsPath),
        COIN_IMAGE_URL: fake.url(`${imagePrefix}{id}.png`),
        COINMARKETCAP_API_KEY: "test-cmc-key-0002",
        PROVIDER_TIMEOUT_MS: "500",
      },
    });
  });
  afterAll(async () => {
    await platform?.close();
    await fake?.close();
  });
  // Fresh caches each time (a restart), the recorded listing, a real PNG per listed logo.
  beforeEach(async () => {
    await platform.restart();
    fake.reset();
    fake.on(listingsPath, { kind: "json", body: listings });
    for (const coin of listings.data) {
      fake.on(`${imagePrefix}${coin.id}.png`, {
        kind: "bytes",
        body: pngBytes(),
        contentType: "image/png",
      });
    }
  });

  const imageUrl = (id: number | string) => `${platform.baseUrl}${coinImagePath(Number(id))}`;

  it("serves a listed coin's logo from our own origin, as the image it is, and caches it", async () => {
    const first = await getBytes(imageUrl(listedId));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(first.bytes.subarray(0, 8)).toEqual(Buffer.from(pngBytes()).subarray(0, 8));
    expect(fake.hits(`${imagePrefix}${listedId}.png`)).toHaveLength(1);

    const again = await getBytes(imageUrl(listedId));
    expect(again.status).toBe(200);
    // One fetch from the image host serves every later request.
    expect(fake.hits(`${imagePrefix}${listedId}.png`)).toHaveLength(1);
    // The listing was asked once for both.
    expect(fake.hits(listingsPath)).toHaveLength(1);
  });

  it("answers 404 for an id the listing does not hold, without asking the image host (no open proxy)", async () => {
    const reply = await getBytes(imageUrl(unlistedId));
    expect(reply.status).toBe(404);
    expect(fake.requests.filter((request) => request.path.startsWith(imagePrefix))).toEqual([]);
  });

  it("refuses ids that are not coin ids with 400", async () => {
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999"]) {
      const reply = await fetch(`${platform.baseUrl}/api/v1/crypto-market-data/images/${bad}`);
      expect(reply.status, bad).toBe(400);
    }
  });

  it("refuses a reply that is not the image it claims to be", async () => {
    fake.on(`${imagePrefix}${listedId}.png`, {
      kind: "text",
      body: "<html><script>alert(1)</script></html>",
      contentType: "image/png",
    });
    fake.on(`${imagePrefix}${secondListedId}.png`, {
      kind: "bytes",
      body: jpegBytes(),
      contentType: "image/png",
    });
    for (const id of [listedId, secondListedId]) {
      const reply = await httpClient(platform.baseUrl).get(coinImagePath(id));
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({
        status: "error",
        code: "PROVIDER_UNAVAILABLE",
        message: marketInfoMessages.coinImageUnavailable,
      });
    }
  });

  it("refuses a logo over the size bound", async () => {
    fake.on(`${imagePrefix}${listedId}.png`, {
      kind: "bytes",
      body: pngBytes(coin_image_bytes_max + 1),
      contentType: "image/png",
    });
    const reply = await getBytes(imageUrl(listedId));
    expect(reply.status).toBe(503);
  });

  it("answers 404 when the image host has no logo for a listed coin", async () => {
    fake.on(`${imagePrefix}${listedId}.png`, { kind: "text", status: 404, body: "not found" });
    expect((await getBytes(imageUrl(listedId))).status).toBe(404);
  });

  it("tells the web app which providers are set up", async () => {
    const reply = await httpClient(platform.baseUrl).get("/api/v1/market-info/providers");
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      blockchain_stats: true,
      crypto_news: true,
      crypto_market: true,
    });
  });
});

describe.each(databaseKindsUnderTest())("market data not set up on %s", (kind) => {
  let platform: TestPlatform;
  let fake: FakeProviders;

  beforeAll(async () => {
    fake = await FakeProviders.start();
    // CoinMarketCap's own URLs and no key: the state of a fresh install.
    platform = await startTestPlatform(kind, {
      env: { COIN_IMAGE_URL: fake.url(`${imagePrefix}{id}.png`) },
    });
  });
  afterAll(async () => {
    await platform?.close();
    await fake?.close();
  });

  it("says so, hides nothing behind an error page, and asks no provider", async () => {
    const http = httpClient(platform.baseUrl);
    const providers = await http.get("/api/v1/market-info/providers");
    expect(providers.body.data).toEqual({
      blockchain_stats: true,
      crypto_news: false,
      crypto_market: false,
    });
    const { token } = await signedInTrader(platform);
    const market = await http.get("/api/v1/crypto-market-data", token);
    expect(market.status).toBe(503);
    expect(market.body.message).toBe(marketInfoMessages.cryptoMarketNotConfigured);
    const news = await http.get("/api/v1/crypto-news", token);
    expect(news.status).toBe(503);
    expect(news.body.message).toBe(marketInfoMessages.cryptoNewsNotConfigured);
    expect((await getBytes(`${platform.baseUrl}${coinImagePath(listedId)}`)).status).toBe(404);
    expect(fake.requests).toEqual([]);
  });
});

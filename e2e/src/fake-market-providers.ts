import { FakeProviders, fixture } from "../../server/test/support/fake-providers.ts";
import { receiptPng } from "./funding.ts";

/**
 * The outside market-information providers for browser journeys: the server suite's local
 * fake (server/test/support/fake-providers.ts) answering the recorded replies of
 * server/test/fixtures in the providers' real formats. The machine has no Internet, so
 * without it the news page could only show "Failed to load news".
 */

/** CoinMarketCap's paths, as the server appends nothing: each URL setting is the whole URL. */
export const news_path = "/v1/content/latest";
export const listings_path = "/v1/cryptocurrency/listings/latest";
export const stats_path = "/stats";
/** CoinMarketCap's logo host's path; the server asks `${coin_images_path}${id}.png`. */
export const coin_images_path = "/static/img/coins/64x64/";

/** The recorded news pages: ten articles, then a short last page of three. */
export const news_page_1 = fixture("coinmarketcap-content-latest-page-1.json") as NewsFixture;
export const news_page_2 = fixture("coinmarketcap-content-latest-page-2.json") as NewsFixture;

export interface NewsFixture {
  data: Array<{ meta: { id: string; title: string } }>;
}

export const fake_api_key = "e2e-fake-coinmarketcap-key";

/** The fake providers, answering news page 1 for start=1 and page 2 for any other start. */
export async function startFakeMarketProviders(): Promise<FakeProviders> {
  const fake = await FakeProviders.start();
  fake.on(news_path, (request) => ({
    kind: "json",
    body: request.query.get("start") === "1" ? news_page_1 : news_page_2,
  }));
  fake.on(listings_path, { kind: "json", body: fixture("coinmarketcap-listings-latest.json") });
  fake.on(stats_path, { kind: "json", body: fixture("blockchain-info-stats.json") });
  // A real 64×64 PNG for every listed coin, as the logo host serves them.
  const listed = fixture("coinmarketcap-listings-latest.json") as { data: Array<{ id: number }> };
  for (const coin of listed.data) {
    fake.on(`${coin_images_path}${coin.id}.png`, {
      kind: "bytes",
      body: receiptPng(64, 64),
      contentType: "image/png",
    });
  }
  return fake;
}

/** The platform's settings pointing every market-information provider at the fake. */
export function fakeMarketProvidersEnv(fake: FakeProviders): Record<string, string> {
  return {
    CRYPTO_NEWS_URL: fake.url(news_path),
    CRYPTO_MARKET_URL: fake.url(listings_path),
    BLOCKCHAIN_STATS_URL: fake.url(stats_path),
    COIN_IMAGE_URL: fake.url(`${coin_images_path}{id}.png`),
    COINMARKETCAP_API_KEY: fake_api_key,
  };
}

export type { FakeProviders };

import { z } from "zod";

/**
 * Settings of the market-information providers, merged into the server's one config schema
 * (server/src/config.ts). Base URLs are settings so tests (and operators with a proxy or a
 * paid mirror) can point them elsewhere.
 *
 * Providers (SPEC names none; its shapes — quote.USD{…}, start/limit paging, exchange id 270
 * — are CoinMarketCap's, so news and market data come from there):
 * - Blockchain stats: blockchain.com's public stats API, https://api.blockchain.info/stats
 *   (no key).
 * - Crypto news: CoinMarketCap /v1/content/latest (needs COINMARKETCAP_API_KEY on a plan
 *   that includes the content endpoint).
 * - Crypto market data: CoinMarketCap /v1/cryptocurrency/listings/latest (needs the key).
 */
export const blockchain_stats_url_default = "https://api.blockchain.info/stats";
export const crypto_news_url_default = "https://pro-api.coinmarketcap.com/v1/content/latest";
export const crypto_market_url_default =
  "https://pro-api.coinmarketcap.com/v1/cryptocurrency/listings/latest";

const httpUrl = z
  .string()
  .refine(
    (value) => /^https?:\/\/[^/?#]/.test(value) && URL.canParse(value),
    "must be an http:// or https:// URL",
  );

const milliseconds = (min: number, max: number) =>
  z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(min, `must be at least ${min} ms`)
    .max(max, `must be at most ${max} ms`);

export const marketInfoConfigShape = {
  BLOCKCHAIN_STATS_URL: httpUrl.default(blockchain_stats_url_default),
  CRYPTO_NEWS_URL: httpUrl.default(crypto_news_url_default),
  CRYPTO_MARKET_URL: httpUrl.default(crypto_market_url_default),
  /** Sent as X-CMC_PRO_API_KEY to the news and market-data URLs. Never echoed. */
  COINMARKETCAP_API_KEY: z.string().min(1).optional(),
  /** One provider request may take this long, connection included, before it counts as failed. */
  PROVIDER_TIMEOUT_MS: milliseconds(100, 60_000).default(5_000),
  /** Consecutive failures after which a provider's circuit opens (calls stop). */
  PROVIDER_FAILURES_TO_OPEN: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(100, "must be at most 100")
    .default(3),
  /** How long an open circuit refuses calls before one probe request is let through. */
  PROVIDER_COOL_DOWN_MS: milliseconds(100, 3_600_000).default(30_000),
};

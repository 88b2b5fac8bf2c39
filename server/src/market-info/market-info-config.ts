import type { MarketInfoProviders } from "@tp/domain/market-info";
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

/** CoinMarketCap's coin logos by id (64×64 PNG), the host SPEC §7 fetches coin images from. */
export const coin_image_url_default =
  "https://s2.coinmarketcap.com/static/img/coins/64x64/{id}.png";

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
  /**
   * Where the server fetches a listed coin's logo; `{id}` is replaced by the coin's id. The
   * browser never sees this host: images are served from /api/v1/crypto-market-data/images.
   */
  COIN_IMAGE_URL: httpUrl
    .refine((value) => value.includes("{id}"), "must contain {id} (the coin's id)")
    .default(coin_image_url_default),
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

/**
 * Whether each optional provider is set up: CoinMarketCap's endpoints refuse every request
 * without a key, so news and market data count as set up with COINMARKETCAP_API_KEY, or
 * when the operator points the URL at a provider of their own (a mirror, a proxy holding
 * the key). Blockchain stats need no key.
 */
export function marketInfoProvidersOf(config: {
  CRYPTO_NEWS_URL: string;
  CRYPTO_MARKET_URL: string;
  COINMARKETCAP_API_KEY?: string | undefined;
}): MarketInfoProviders {
  const hasKey = Boolean(config.COINMARKETCAP_API_KEY);
  return {
    blockchain_stats: true,
    crypto_news: hasKey || config.CRYPTO_NEWS_URL !== crypto_news_url_default,
    crypto_market: hasKey || config.CRYPTO_MARKET_URL !== crypto_market_url_default,
  };
}

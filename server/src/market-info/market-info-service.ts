import {
  type BlockchainStats,
  type CryptoMarketData,
  type CryptoNewsPage,
  crypto_market_limit_max,
  news_page_max,
  news_page_size,
} from "@tp/domain/market-info";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { type ImageType, sniffImageType } from "../content/galleries.ts";
import { blockchain_info_source, parseBlockchainInfoStats } from "./blockchain-info.ts";
import { CircuitBreaker } from "./circuit-breaker.ts";
import { coinmarketcap_source, parseContentLatest, parseListings } from "./coinmarketcap.ts";
import { crypto_market_url_default, crypto_news_url_default } from "./market-info-config.ts";
import { getProviderBytes, getProviderJson, ProviderError } from "./provider-request.ts";
import { TtlCache } from "./ttl-cache.ts";

const coin_image_source = "coin image host";

/** SPEC §9 refreshes the stats page every 30 s; one provider call per 30 s serves everyone. */
export const blockchain_stats_cache_ms = 30_000;
/** CoinMarketCap updates its content list every five minutes. */
export const crypto_news_cache_ms = 5 * 60_000;
/** CoinMarketCap updates listings every minute. */
export const crypto_market_cache_ms = 60_000;

/** A coin logo changes rarely; one fetch a day per coin is plenty. */
export const coin_image_cache_ms = 24 * 60 * 60_000;
/**
 * Logos are 64×64 images of a few KB; anything larger is refused, so the cache (at most one
 * per listed coin) stays under 10 MB whatever the image host sends.
 */
export const coin_image_bytes_max = 100 * 1024;

/** A listed coin's logo, checked to be an image of the type it says. */
export interface CoinImage {
  type: ImageType;
  bytes: Buffer;
}

type MarketInfoConfig = Pick<
  Config,
  | "BLOCKCHAIN_STATS_URL"
  | "CRYPTO_NEWS_URL"
  | "CRYPTO_MARKET_URL"
  | "COINMARKETCAP_API_KEY"
  | "COIN_IMAGE_URL"
  | "PROVIDER_TIMEOUT_MS"
  | "PROVIDER_FAILURES_TO_OPEN"
  | "PROVIDER_COOL_DOWN_MS"
>;

export interface MarketInfo {
  blockchainStats(): Promise<BlockchainStats>;
  /** `page` from 1: provider start = (page − 1)·10 + 1, limit = 10 (SPEC §7). */
  cryptoNews(page: number): Promise<CryptoNewsPage>;
  /** The top `limit` coins by market capitalisation. */
  cryptoMarket(limit: number): Promise<CryptoMarketData>;
  /**
   * The logo of coin `id`, or null when the id is not in the current listing (never an open
   * proxy: only ids the market data provider listed are fetched) or the host has none.
   */
  coinImage(id: number): Promise<CoinImage | null>;
}

/** SPEC §7: page N of the news list asks the provider for start=(N−1)·10+1, limit=10. */
export function newsProviderWindow(page: number): { start: number; limit: number } {
  if (!(Number.isInteger(page) && page >= 1 && page <= news_page_max)) {
    throw new Error(`news page out of range: ${page}`);
  }
  return { start: (page - 1) * news_page_size + 1, limit: news_page_size };
}

/**
 * The three outside sources, each behind its own circuit breaker and cache. Errors are
 * ProviderError (the provider failed) or CircuitOpenError (we are not asking it right now).
 */
export function createMarketInfo(options: {
  config: MarketInfoConfig;
  clock: Clock;
  log: FastifyBaseLogger;
}): MarketInfo {
  const { config, clock, log } = options;
  const breaker = (name: string) =>
    new CircuitBreaker({
      name,
      clock,
      failures_to_open: config.PROVIDER_FAILURES_TO_OPEN,
      cool_down_ms: config.PROVIDER_COOL_DOWN_MS,
    });
  const statsBreaker = breaker("blockchain stats");
  const newsBreaker = breaker("crypto news");
  const marketBreaker = breaker("crypto market data");
  const imageBreaker = breaker("coin images");
  const statsCache = new TtlCache<BlockchainStats>({
    clock,
    ttl_ms: blockchain_stats_cache_ms,
    entries_max: 1,
  });
  const newsCache = new TtlCache<CryptoNewsPage>({
    clock,
    ttl_ms: crypto_news_cache_ms,
    entries_max: news_page_max,
  });
  const marketCache = new TtlCache<CryptoMarketData>({
    clock,
    ttl_ms: crypto_market_cache_ms,
    entries_max: 1,
  });
  // null (the host has no logo for the id) is kept too, so a missing logo is asked once a day.
  const imageCache = new TtlCache<CoinImage | null>({
    clock,
    ttl_ms: coin_image_cache_ms,
    entries_max: crypto_market_limit_max,
  });
  const coinMarketCapHeaders: Record<string, string> = config.COINMARKETCAP_API_KEY
    ? { "X-CMC_PRO_API_KEY": config.COINMARKETCAP_API_KEY }
    : {};
  const timeout_ms = config.PROVIDER_TIMEOUT_MS;

  const usesCoinMarketCap = [config.CRYPTO_NEWS_URL, config.CRYPTO_MARKET_URL].some(
    (url) => url === crypto_news_url_default || url === crypto_market_url_default,
  );
  if (usesCoinMarketCap && !config.COINMARKETCAP_API_KEY) {
    log.warn(
      "COINMARKETCAP_API_KEY is not set: CoinMarketCap will refuse the crypto news and market data requests, which then answer 503",
    );
  }

  return {
    blockchainStats: () =>
      statsCache.get("stats", () =>
        statsBreaker.run(async () => {
          const raw = await getProviderJson(
            blockchain_info_source,
            new URL(config.BLOCKCHAIN_STATS_URL),
            { timeout_ms },
          );
          return parseBlockchainInfoStats(raw, clock.now());
        }),
      ),

    cryptoNews: (page) => {
      const window = newsProviderWindow(page);
      return newsCache.get(String(page), () =>
        newsBreaker.run(async () => {
          const url = new URL(config.CRYPTO_NEWS_URL);
          url.searchParams.set("start", String(window.start));
          url.searchParams.set("limit", String(window.limit));
          const raw = await getProviderJson(coinmarketcap_source, url, {
            timeout_ms,
            headers: coinMarketCapHeaders,
          });
          const data = parseContentLatest(raw).slice(0, news_page_size);
          return {
            source: coinmarketcap_source,
            fetched_at: clock.now().toISOString(),
            data,
            page,
            page_size: news_page_size,
            next_page: data.length === news_page_size && page < news_page_max ? page + 1 : null,
          };
        }),
      );
    },

    cryptoMarket: async (limit) => {
      const all = await listings();
      return { ...all, data: all.data.slice(0, limit) };
    },

    coinImage: async (id) => {
      const listed = (await listings()).data.some((coin) => coin.id === id);
      if (!listed) return null;
      return imageCache.get(String(id), () =>
        imageBreaker.run(async () => {
          const url = new URL(config.COIN_IMAGE_URL.replace("{id}", String(id)));
          const reply = await getProviderBytes(coin_image_source, url, {
            timeout_ms,
            bytes_max: coin_image_bytes_max,
          });
          if (reply.status === 404) return null;
          if (reply.status !== 200) {
            throw new ProviderError(`${coin_image_source}: HTTP ${reply.status} for coin ${id}`);
          }
          // The declared type must be an image and the bytes must be that image: an HTML
          // error page or a script served as image/png never reaches the browser.
          const sniffed = sniffImageType(reply.bytes.subarray(0, 16));
          if (!sniffed || sniffed !== reply.content_type) {
            throw new ProviderError(
              `${coin_image_source}: coin ${id} is not an image (declared "${reply.content_type}", content ${sniffed ?? "unknown"})`,
            );
          }
          return { type: sniffed, bytes: reply.bytes };
        }),
      );
    },
  };

  /** One cached list of the top coins serves every `limit` and the logo check. */
  function listings(): Promise<CryptoMarketData> {
    return marketCache.get("listings", () =>
      marketBreaker.run(async () => {
        const url = new URL(config.CRYPTO_MARKET_URL);
        url.searchParams.set("start", "1");
        url.searchParams.set("limit", String(crypto_market_limit_max));
        url.searchParams.set("convert", "USD");
        const raw = await getProviderJson(coinmarketcap_source, url, {
          timeout_ms,
          headers: coinMarketCapHeaders,
        });
        return {
          source: coinmarketcap_source,
          fetched_at: clock.now().toISOString(),
          data: parseListings(raw),
        };
      }),
    );
  }
}

import { z } from "zod";

/**
 * Reply contract of the market-information endpoints (SPEC §2 "Blockchain stats", "Crypto
 * news"; §3 "Market data"; §7) and of the site-content galleries (PRODUCT.md D6).
 *
 * Every number here comes from a named outside provider at a stated time; nothing is
 * invented. When a provider cannot be reached the API answers 503 with code
 * PROVIDER_UNAVAILABLE and one of `marketInfoMessages` below, never a made-up value.
 *
 * Paths (under /api/v1, signed in):
 *   GET /blockchain-stats           → apiSuccess(blockchainStatsSchema)
 *   GET /crypto-news?page=N         → apiSuccess(cryptoNewsPageSchema)   N ≥ 1, default 1
 *   GET /crypto-market-data?limit=N → apiSuccess(cryptoMarketDataSchema) 1 ≤ N ≤ 100, default 20
 * Public:
 *   GET /market-info/providers                → apiSuccess(marketInfoProvidersSchema)
 *   GET /crypto-market-data/images/{id}       → a listed coin's logo (PNG, JPEG, GIF or WebP)
 *   GET /site-content/galleries/{name}        → apiSuccess(galleryListingSchema)
 *   GET /site-content/galleries/{name}/{file} → the image bytes
 */

/** SPEC §9: news page size 10; the provider is asked for start=(page−1)·10+1, limit=10. */
export const news_page_size = 10;
/** Pages beyond this are refused (400): nobody scrolls 1,000 news items, and it bounds `start`. */
export const news_page_max = 100;
/** SPEC §9: the blockchain-stats page refreshes every 30 s. */
export const blockchain_stats_refresh_ms = 30_000;
export const crypto_market_limit_default = 20;
export const crypto_market_limit_max = 100;

/** The API's own failure messages (503 PROVIDER_UNAVAILABLE), one per area. */
export const marketInfoMessages = {
  blockchainStatsUnavailable:
    "Blockchain statistics are unavailable right now: the statistics provider could not be reached. Please try again later.",
  cryptoNewsUnavailable:
    "Crypto news is unavailable right now: the news provider could not be reached. Please try again later.",
  cryptoMarketUnavailable:
    "Crypto market data is unavailable right now: the market data provider could not be reached. Please try again later.",
  cryptoNewsNotConfigured:
    "Crypto news is not set up on this platform: the operator has not configured a news provider.",
  cryptoMarketNotConfigured:
    "Crypto market data is not set up on this platform: the operator has not configured a market data provider.",
  coinImageUnavailable:
    "This coin's logo is unavailable right now: the image provider could not be reached.",
} as const;

/** Web texts of SPEC §8 for the same situations ("No data available", "Failed to load news"). */
export const marketInfoUiMessages = {
  noData: "No data available",
  newsFailed: "Failed to load news",
} as const;

/** Where a reply's data came from and when the server fetched it (ISO 8601). */
const provenance = {
  /** The provider's name, e.g. "blockchain.com" or "CoinMarketCap". */
  source: z.string(),
  /** When this server received the data from the provider (replies may be cached). */
  fetched_at: z.string(),
};

/**
 * Bitcoin network statistics of the last 24 hours (SPEC §2 "Blockchain stats: Bitcoin
 * statistics"), from blockchain.com's public stats API. Amounts of bitcoin are in BTC
 * (converted from the provider's satoshis), US-dollar amounts in USD.
 */
export const blockchainStatsSchema = z.object({
  ...provenance,
  /** The provider's own timestamp of these figures. */
  as_of: z.string(),
  market_price_usd: z.number(),
  /** Network hash rate, in hashes per second. */
  hash_rate_hs: z.number(),
  difficulty: z.number(),
  minutes_between_blocks: z.number(),
  /** Height of the latest block (total blocks in the chain). */
  total_blocks: z.number().int(),
  /** Bitcoins in circulation. */
  total_btc: z.number(),
  /** Block height at which the difficulty next adjusts. */
  next_retarget_block: z.number().int(),
  blocks_mined_24h: z.number().int(),
  btc_mined_24h: z.number(),
  transactions_24h: z.number().int(),
  total_fees_btc_24h: z.number(),
  miners_revenue_usd_24h: z.number(),
  miners_revenue_btc_24h: z.number(),
  estimated_transaction_volume_usd_24h: z.number(),
  estimated_btc_sent_24h: z.number(),
  trade_volume_usd_24h: z.number(),
  trade_volume_btc_24h: z.number(),
});
export type BlockchainStats = z.infer<typeof blockchainStatsSchema>;

/** One news article (CoinMarketCap content/latest), linking to the publisher's page. */
export const newsItemSchema = z.object({
  /** Stable provider id; the web app appends only ids it has not shown yet (SPEC §7). */
  id: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  /** The publisher, e.g. "CoinDesk"; null when the provider does not say. */
  source_name: z.string().nullable(),
  /** The article on the publisher's site (http or https only). */
  url: z.string(),
  /** The provider's cover image (an outside https URL), or null. */
  cover_image_url: z.string().nullable(),
  published_at: z.string(),
  /** Coins the article is about. */
  assets: z.array(z.object({ symbol: z.string(), name: z.string() })),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const cryptoNewsPageSchema = z.object({
  ...provenance,
  data: z.array(newsItemSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  /** page + 1 when the provider returned a full page, otherwise null (end of the list). */
  next_page: z.number().int().nullable(),
});
export type CryptoNewsPage = z.infer<typeof cryptoNewsPageSchema>;

/** SPEC §3 "Market data", field for field (CoinMarketCap listings, convert=USD). */
export const marketDataItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  symbol: z.string(),
  circulating_supply: z.number().nullable(),
  last_updated: z.string(),
  quote: z.object({
    USD: z.object({
      price: z.number(),
      volume_24h: z.number().nullable(),
      market_cap: z.number().nullable(),
      percent_change_24h: z.number().nullable(),
    }),
  }),
});
export type MarketDataItem = z.infer<typeof marketDataItemSchema>;

export const cryptoMarketDataSchema = z.object({
  ...provenance,
  /** Ranked by market capitalisation, largest first. */
  data: z.array(marketDataItemSchema),
});
export type CryptoMarketData = z.infer<typeof cryptoMarketDataSchema>;

/**
 * Which optional providers this platform has set up (GET /market-info/providers, public).
 * The web app hides the pages of a provider that is not set up instead of linking to an
 * error: crypto news and market data need COINMARKETCAP_API_KEY (or a provider URL of the
 * operator's own); blockchain stats need no key.
 */
export const marketInfoProvidersSchema = z.object({
  blockchain_stats: z.boolean(),
  crypto_news: z.boolean(),
  crypto_market: z.boolean(),
});
export type MarketInfoProviders = z.infer<typeof marketInfoProvidersSchema>;

/**
 * A coin's logo, served by our own server (SPEC §7 "coin images … by id"): the server fetches
 * it from the provider's image host for ids of the current listing only, checks it is an
 * image, and caches it. The page's CSP then needs no outside image host.
 */
export function coinImagePath(coinId: number): string {
  return `/api/v1/crypto-market-data/images/${coinId}`;
}

/** The galleries of the public site (SPEC §2: /legal-documents, /confirmation, /financial-statement). */
export const galleryNames = ["legal-documents", "confirmation", "financial-statement"] as const;
export const galleryNameSchema = z.enum(galleryNames);
export type GalleryName = z.infer<typeof galleryNameSchema>;

export const galleryImageSchema = z.object({
  /** Same-origin path of the image, e.g. /api/v1/site-content/galleries/confirmation/2024-q1.png */
  url: z.string(),
  /** From the file name: "2024-q1-statement.png" → "2024 q1 statement". */
  title: z.string(),
});
export type GalleryImage = z.infer<typeof galleryImageSchema>;

/** An empty `images` list means the operator has put no documents there (show an empty state). */
export const galleryListingSchema = z.object({
  name: galleryNameSchema,
  images: z.array(galleryImageSchema),
});
export type GalleryListing = z.infer<typeof galleryListingSchema>;

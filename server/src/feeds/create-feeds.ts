import { assetCatalogue } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import { BinanceFeed } from "./binance-feed.ts";
import type { FeedConfig } from "./feed-config.ts";
import type { ObservableFeed } from "./feed-stats.ts";
import { FinnhubFeed } from "./finnhub-feed.ts";
import { SimulatedFeed } from "./simulated-feed.ts";
import type { FeedSource } from "./tick.ts";

export type FeedSettings = Pick<
  FeedConfig,
  | "FEED_SOURCES"
  | "FEED_API_KEY"
  | "BINANCE_WS_URL"
  | "FINNHUB_WS_URL"
  | "SIMULATED_FEED_SEED"
  | "SIMULATED_TICK_INTERVAL_MS"
>;

export interface CreateFeedsExtras {
  /** Resume simulated assets from these prices (e.g. the last stored ones). */
  simulatedStartPrices?: Readonly<Record<string, number>>;
}

/** The catalogue split by the source that prices each symbol, in catalogue order. */
export function symbolsBySource(
  bySymbol: FeedConfig["FEED_SOURCES"],
): Readonly<Record<FeedSource, string[]>> {
  const split: Record<FeedSource, string[]> = { simulated: [], binance: [], finnhub: [] };
  for (const asset of assetCatalogue) {
    const source = bySymbol[asset.symbol];
    if (source === undefined) throw new Error(`FEED_SOURCES: no source for ${asset.symbol}`);
    split[source].push(asset.symbol);
  }
  return split;
}

/**
 * One feed per source in use, together covering every catalogue symbol exactly once.
 * Sources with no symbols are left out (no idle connections to providers).
 */
export function createFeeds(
  settings: FeedSettings,
  clock: Clock,
  logger: FastifyBaseLogger,
  extras: CreateFeedsExtras = {},
): ObservableFeed[] {
  const split = symbolsBySource(settings.FEED_SOURCES);

  const feeds: ObservableFeed[] = [];
  if (split.simulated.length > 0) {
    feeds.push(
      new SimulatedFeed({
        clock,
        seed: settings.SIMULATED_FEED_SEED,
        tick_interval_ms: settings.SIMULATED_TICK_INTERVAL_MS,
        symbols: split.simulated,
        startPrices: extras.simulatedStartPrices,
      }),
    );
  }
  if (split.binance.length > 0) {
    feeds.push(
      new BinanceFeed({
        symbols: split.binance,
        baseUrl: settings.BINANCE_WS_URL,
        clock,
        logger,
      }),
    );
  }
  if (split.finnhub.length > 0) {
    if (!settings.FEED_API_KEY) throw new Error("createFeeds: FEED_API_KEY is required");
    feeds.push(
      new FinnhubFeed({
        symbols: split.finnhub,
        apiKey: settings.FEED_API_KEY,
        baseUrl: settings.FINNHUB_WS_URL,
        clock,
        logger,
      }),
    );
  }

  // Each symbol from exactly one source: two would race to set its price.
  const covered = feeds.flatMap((feed) => feed.symbols);
  if (covered.length !== assetCatalogue.length || new Set(covered).size !== covered.length) {
    throw new Error(`createFeeds: symbols covered ${covered.length} times, not once each`);
  }
  return feeds;
}

import { assetCatalogue } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/database.ts";
import { symbolsBySource } from "../feeds/create-feeds.ts";
import type { FeedConfig } from "../feeds/feed-config.ts";
import { BinanceHistory } from "./binance-history.ts";
import { FinnhubHistory } from "./finnhub-history.ts";
import type { HistorySource } from "./history-source.ts";
import { createSimulatedHistorySource } from "./simulated-history-source.ts";

/**
 * Where each asset's past comes from: the source that prices it live (FEED_SOURCES), so the
 * history a chart shows before the first live tick is the same feed's. The simulator's
 * past (its seeded generator) is made at start before the feeds, so the live walk resumes
 * from it; the providers' (their history APIs) is fetched in the background, on start and
 * after every gap in their live line.
 */
export function createSimulatedHistorySources(
  settings: Pick<FeedConfig, "FEED_SOURCES" | "SIMULATED_FEED_SEED">,
  database: Queryable,
): HistorySource[] {
  const simulatedSymbols = assetCatalogue
    .map((asset) => asset.symbol)
    .filter((symbol) => settings.FEED_SOURCES[symbol] === "simulated");
  const sources: HistorySource[] = [];
  if (simulatedSymbols.length > 0) {
    sources.push(
      createSimulatedHistorySource({
        database,
        seed: settings.SIMULATED_FEED_SEED,
        symbols: simulatedSymbols,
      }),
    );
  }
  return sources;
}

export type HistorySettings = Pick<
  FeedConfig,
  "FEED_SOURCES" | "FEED_API_KEY" | "BINANCE_REST_URL" | "FINNHUB_REST_URL"
>;

/**
 * One history source per real source in use, over the same symbols as its live feed
 * (createFeeds), so the chart's past comes from the provider that prices its present.
 */
export function createProviderHistorySources(
  settings: HistorySettings,
  clock: Clock,
  logger: FastifyBaseLogger,
): HistorySource[] {
  const split = symbolsBySource(settings.FEED_SOURCES);
  const sources: HistorySource[] = [];
  if (split.binance.length > 0) {
    sources.push(
      new BinanceHistory({
        symbols: split.binance,
        baseUrl: settings.BINANCE_REST_URL,
        clock,
        logger,
      }),
    );
  }
  if (split.finnhub.length > 0) {
    if (!settings.FEED_API_KEY)
      throw new Error("createProviderHistorySources: FEED_API_KEY is required");
    sources.push(
      new FinnhubHistory({
        symbols: split.finnhub,
        apiKey: settings.FEED_API_KEY,
        baseUrl: settings.FINNHUB_REST_URL,
        clock,
        logger,
      }),
    );
  }
  return sources;
}

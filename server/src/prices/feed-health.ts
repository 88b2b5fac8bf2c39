import { assetCatalogue } from "@tp/domain/catalogue";
import type { MarketState } from "@tp/domain/market-state";
import type { AppContext } from "../app-context.ts";
import type { FeedSource } from "../feeds/tick.ts";
import { entryStaleAfterMs, marketStatusOf } from "./market-status.ts";

/**
 * What staff see of the price feeds (GET /admin/feeds): this process's view, since each
 * process keeps its own price store and bus connection (issue 11, item 5).
 */
export interface FeedHealth {
  /** This process's event bus: down means every price here is treated as stale. */
  bus: { kind: "memory" | "redis"; connected: boolean; down_since: string | null };
  /** Feeds and whether this process is the one ingesting each (it holds the feed's lock). */
  sources: Array<{ source: FeedSource; symbols: number; ingesting_here: boolean }>;
  assets: Array<{
    symbol: string;
    /** The source configured for the asset (FEED_SOURCES). */
    source: FeedSource;
    state: MarketState;
    last_tick_at: string | null;
    /** Age of the newest tick in this process's store; null with no tick yet. */
    age_ms: number | null;
    /** The entry limit for the asset's class: older than this and trading pauses. */
    stale_after_ms: number;
  }>;
}

/** This process's view of every feed and asset now. */
export function feedHealthOf(context: AppContext): FeedHealth {
  const nowMs = context.clock.now().getTime();
  const bySource = new Map<FeedSource, number>();
  for (const source of Object.values(context.config.FEED_SOURCES)) {
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  const ingesting = new Set(context.marketData.ingesting());
  const busDownSinceMs = context.bus.downSinceMs();
  return {
    bus: {
      kind: context.bus.kind,
      connected: busDownSinceMs === null,
      down_since: busDownSinceMs === null ? null : new Date(busDownSinceMs).toISOString(),
    },
    sources: [...bySource].map(([source, symbols]) => ({
      source,
      symbols,
      ingesting_here: ingesting.has(source),
    })),
    assets: assetCatalogue.map((asset) => {
      const tick = context.marketData.store.last(asset.symbol);
      return {
        symbol: asset.symbol,
        source: context.config.FEED_SOURCES[asset.symbol] ?? "simulated",
        state: marketStatusOf(context, asset, nowMs).state,
        last_tick_at: tick ? new Date(tick.at).toISOString() : null,
        age_ms: tick ? Math.max(0, nowMs - tick.at) : null,
        stale_after_ms: entryStaleAfterMs(context.config, asset),
      };
    }),
  };
}

import { z } from "zod";
import { paginationSchema } from "./api.ts";
import { marketStates } from "./market-state.ts";

/**
 * Reply shapes of the feed-health views (issue 11, item 5): the public list of feed halts
 * with the trades refunded because of them, and the back office's view of every feed.
 */

/**
 * A trade refunded because its asset's feed was down across its expiry. Public: it never
 * says whose trade it was.
 */
export const refundedTradeSchema = z.object({
  id: z.number().int(),
  direction: z.enum(["call", "put"]),
  /** The stake, in dollars: refunded in full. */
  amount: z.number(),
  is_practice: z.boolean(),
  expires_at: z.string(),
  settlement_note: z.string().nullable(),
});
export type RefundedTrade = z.infer<typeof refundedTradeSchema>;

/** One feed halt: the asset's feed went quiet for longer than its entry limit. */
export const marketHaltSchema = z.object({
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  source: z.string(),
  /** The time of the last live tick before the halt. */
  started_at: z.string(),
  /** The first live tick after it; null while the halt lasts. */
  ended_at: z.string().nullable(),
  refunded_trades: z.array(refundedTradeSchema),
});
export type MarketHalt = z.infer<typeof marketHaltSchema>;

/** GET /market-halts: halts newest first, paginated. */
export const marketHaltsDataSchema = z.object({
  data: z.array(marketHaltSchema),
  pagination: paginationSchema,
});
export type MarketHaltsPage = z.infer<typeof marketHaltsDataSchema>;

export const feedSources = ["simulated", "binance", "finnhub"] as const;

/** GET /admin/feeds: one process's view of the bus, the feeds and every asset's state. */
export const feedHealthSchema = z.object({
  bus: z.object({
    kind: z.enum(["memory", "redis"]),
    connected: z.boolean(),
    down_since: z.string().nullable(),
  }),
  sources: z.array(
    z.object({
      source: z.enum(feedSources),
      symbols: z.number().int(),
      ingesting_here: z.boolean(),
    }),
  ),
  assets: z.array(
    z.object({
      symbol: z.string(),
      source: z.enum(feedSources),
      state: z.enum(marketStates),
      last_tick_at: z.string().nullable(),
      age_ms: z.number().nullable(),
      stale_after_ms: z.number(),
    }),
  ),
});
export type FeedHealthView = z.infer<typeof feedHealthSchema>;

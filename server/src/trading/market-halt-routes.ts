import { apiSuccessSchema } from "@tp/domain/api";
import { findAsset } from "@tp/domain/catalogue";
import { marketHaltsDataSchema } from "@tp/domain/market-status-api";
import { dollarsFromCents } from "@tp/domain/money";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { pageQuerySchema } from "../http/route-kit.ts";
import { feedHaltsPage } from "../prices/feed-halt-list.ts";
import { refundedTradesDuring } from "./trades.ts";

export const market_halts_page_size_max = 50;

/**
 * The public record of feed halts (issue 11, item 5): when each asset's prices stopped and
 * came back, and the trades refunded because the feed was down across their expiry. It
 * lives beside trading because it joins the prices module's halts to trading's refunds;
 * it never says whose trades they were.
 */
export async function marketHaltRoutes(app: FastifyInstance, context: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/market-halts",
    {
      schema: {
        tags: ["markets"],
        summary:
          "Feed halts, newest first, each with the trades refunded because the feed was down across their expiry",
        querystring: pageQuerySchema(market_halts_page_size_max),
        response: { 200: apiSuccessSchema(marketHaltsDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { rows, total } = await feedHaltsPage(context.database, page, limit);
      const refunds = await refundedTradesDuring(context.database, rows);
      return {
        status: "success" as const,
        data: {
          data: rows.map((halt) => ({
            id: halt.id,
            symbol: halt.symbol,
            name: findAsset(halt.symbol)?.name ?? halt.symbol,
            source: halt.source,
            started_at: halt.started_at.toISOString(),
            ended_at: halt.ended_at?.toISOString() ?? null,
            refunded_trades: (refunds.get(halt.id) ?? []).map((trade) => ({
              id: trade.id,
              direction: trade.direction,
              amount: dollarsFromCents(trade.stake_cents),
              is_practice: trade.is_practice,
              expires_at: trade.expires_at.toISOString(),
              settlement_note: trade.settlement_note,
            })),
          })),
          pagination: pageInfo(total, page, limit),
        },
      };
    },
  );
}

import {
  apiSuccessSchema,
  tradeAuditDataSchema,
  tradeHistoryDataSchema,
  tradeViewSchema,
} from "@tp/domain/api";
import { placeTradeSchema } from "@tp/domain/trade-form";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { bearerToken, sessionOf } from "../http/authenticate.ts";
import { AppError, notFound } from "../http/errors.ts";
import { receivedAtOf } from "../http/received-at.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { refuseRealMoneyIn } from "../jurisdictions/restricted-countries.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import { placeTrade } from "./place-trade.ts";
import { tradeAudit } from "./trade-audit.ts";
import { findUserTrade, tradeHistoryPage, tradeView } from "./trades.ts";

export const history_page_size_max = 100;

const historyQuerySchema = z.object({
  page: z.coerce
    .number({ error: "page must be a whole number from 1" })
    .int()
    .min(1)
    .max(1_000_000)
    .default(1),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${history_page_size_max}` })
    .int()
    .min(1)
    .max(history_page_size_max)
    .default(10),
});

export async function tradeRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/place-trade",
    {
      // place_trades checks the session live in the trade's own transaction.
      config: { session_checked_by_write: true },
      schema: {
        tags: ["trading"],
        summary: "Place a call or put at the price in force now; accepts Idempotency-Key",
        security: [{ bearer: [] }],
        body: placeTradeSchema,
        response: {
          201: apiSuccessSchema(z.object({ trade: tradeViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request, reply) => {
      const { userId, country, startedAt, sessionId } = sessionOf(request);
      // Real money is refused to residents of a restricted country; practice stays open.
      if (!request.body.is_practice) refuseRealMoneyIn(context.config, country);
      context.rateLimiter.consume(rateRules.placeTradePerAccount, String(userId));
      let result: Awaited<ReturnType<typeof placeTrade>>;
      try {
        result = await placeTrade(context, userId, request.body, idempotencyKeyOf(request), {
          receivedAt: receivedAtOf(request),
          sessionStartedAt: startedAt,
          sessionId,
        });
      } catch (error) {
        // The session ended since this process looked it up: the next request looks again.
        if (error instanceof AppError && error.code === "UNAUTHENTICATED") {
          context.sessions.forget(bearerToken(request) ?? "");
        }
        throw error;
      }
      if (result.replayed) reply.header("idempotency-replayed", "true");
      else context.settlement.wake(new Date(result.body.data.trade.expires_at));
      return reply.status(result.statusCode as 201).send(result.body);
    },
  );

  for (const [path, isPractice] of [
    ["/real-trade-history", false],
    ["/practice-trade-history", true],
  ] as const) {
    routes.get(
      path,
      {
        schema: {
          tags: ["trading"],
          summary: `${isPractice ? "Practice" : "Real"} trades, newest first, paginated`,
          security: [{ bearer: [] }],
          querystring: historyQuerySchema,
          response: { 200: apiSuccessSchema(tradeHistoryDataSchema), ...failureResponses },
        },
      },
      async (request) => {
        const { page, limit } = request.query;
        const { rows, total } = await tradeHistoryPage(
          context.database,
          sessionOf(request).userId,
          isPractice,
          page,
          limit,
        );
        return {
          status: "success" as const,
          data: {
            data: rows.map(tradeView),
            pagination: pageInfo(total, page, limit),
          },
        };
      },
    );
  }

  routes.get(
    "/trades/:id",
    {
      schema: {
        tags: ["trading"],
        summary: "One of your trades with its audit: the ticks around entry and around expiry",
        security: [{ bearer: [] }],
        params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
        response: { 200: apiSuccessSchema(tradeAuditDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const trade = await findUserTrade(
        context.database,
        sessionOf(request).userId,
        request.params.id,
      );
      if (!trade) throw notFound();
      return {
        status: "success" as const,
        data: await tradeAudit(context.database, context.marketData.store, trade),
      };
    },
  );
}

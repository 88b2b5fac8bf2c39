import { apiSuccessSchema, practiceBalanceDataSchema } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import { dollarsFromCents } from "@tp/domain/money";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { AppError } from "../http/errors.ts";
import { failureResponses, sendReply } from "../http/replies.ts";
import { idempotencyKeyOf, runIdempotent } from "../idempotency/idempotency.ts";
import { topUpPracticeBalance } from "./practice-balance.ts";

export async function practiceRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/practice-balance/top-up",
    {
      schema: {
        tags: ["account"],
        summary:
          "Put the practice balance back to the configured level (default 10,000.00 USD); accepts Idempotency-Key",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(practiceBalanceDataSchema), ...failureResponses },
      },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const { database, clock, config } = context;
      const at = clock.now();
      const result = await runIdempotent(
        database,
        userId,
        idempotencyKeyOf(request),
        at,
        async (transaction) => {
          const topUp = await topUpPracticeBalance(
            transaction,
            userId,
            config.practice_balance_cents,
            at,
          );
          if (topUp.status === "not_needed") {
            throw new AppError("PRACTICE_TOP_UP_NOT_NEEDED", serverMessages.topUpNotNeeded);
          }
          return {
            statusCode: 200,
            body: {
              status: "success" as const,
              message: serverMessages.topUpDone,
              data: { practice_balance: dollarsFromCents(topUp.practice_balance_cents) },
            },
          };
        },
      );
      return sendReply(reply, result);
    },
  );
}

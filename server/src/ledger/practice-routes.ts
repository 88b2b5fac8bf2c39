import { apiSuccessSchema, practiceBalanceDataSchema } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import { dollarsFromCents } from "@tp/domain/money";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { requireSession, sessionOf } from "../http/authenticate.ts";
import { AppError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { topUpPracticeBalance } from "./practice-balance.ts";

export async function practiceRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/practice-balance/top-up",
    {
      schema: {
        tags: ["account"],
        summary: "Put the practice balance back to the configured level (default 10,000.00 USD)",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(practiceBalanceDataSchema), ...failureResponses },
      },
      preHandler: requireSession(context),
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const { database, clock, config } = context;
      const result = await database.transaction((transaction) =>
        topUpPracticeBalance(transaction, userId, config.practice_balance_cents, clock.now()),
      );
      if (result.status === "not_needed") {
        throw new AppError("CONFLICT", serverMessages.topUpNotNeeded);
      }
      return {
        status: "success" as const,
        message: serverMessages.topUpDone,
        data: { practice_balance: dollarsFromCents(result.practice_balance_cents) },
      };
    },
  );
}

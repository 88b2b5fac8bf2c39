import { apiSuccessSchema } from "@tp/domain/api";
import { rulebookSchema, rulebookView } from "@tp/domain/rulebook";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";

/** GET /rules (public): the versioned rulebook every trade is settled by (issue 15 item 4). */
export async function rulebookRoutes(app: FastifyInstance, context: AppContext) {
  const rulebook = rulebookView({ ...context.config.ENTRY_PRICE_MAX_AGE_MS });
  app.withTypeProvider<ZodTypeProvider>().get(
    "/rules",
    {
      schema: {
        tags: ["trading"],
        summary:
          "The rulebook in force (entry, exit, outcome, payout and refund rules, payout table) with its version and every earlier version",
        response: { 200: apiSuccessSchema(rulebookSchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: rulebook }),
  );
}

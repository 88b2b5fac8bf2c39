import { apiSuccessSchema } from "@tp/domain/api";
import { engagementMessages, recentActivitySchema } from "@tp/domain/engagement";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { recentActivity } from "./recent-activity.ts";

/**
 * GET /activity/recent: what the "New Transaction" toast may show (PRODUCT.md D5, SPEC §4).
 * Real transactions only; none → an empty list → no toast. ACTIVITY_TOAST_ENABLED=false
 * turns it off: an empty list with enabled false.
 */
export async function activityRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/activity/recent",
    {
      schema: {
        tags: ["activity"],
        summary:
          "Confirmed deposits and paid withdrawals of the last 24 hours, anonymised (kind, amount, currency, method, at), newest first",
        security: [{ bearer: [] }],
        response: { 200: apiSuccessSchema(recentActivitySchema), ...failureResponses },
      },
    },
    async () => {
      if (!context.config.ACTIVITY_TOAST_ENABLED) {
        return {
          status: "success" as const,
          message: engagementMessages.activityDisabled,
          data: { enabled: false, data: [] },
        };
      }
      return {
        status: "success" as const,
        data: {
          enabled: true,
          data: await recentActivity(context.database, context.clock.now()),
        },
      };
    },
  );
}

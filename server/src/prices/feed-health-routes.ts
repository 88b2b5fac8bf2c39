import { apiSuccessSchema } from "@tp/domain/api";
import { feedHealthSchema } from "@tp/domain/market-status-api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { feedHealthOf } from "./feed-health.ts";

/** Staff see every feed's health (in the staff scope, under /admin; issue 11, item 5). */
export async function feedHealthRoutes(staff: FastifyInstance, context: AppContext) {
  staff.withTypeProvider<ZodTypeProvider>().get(
    "/feeds",
    {
      config: leastStaffRole.support,
      schema: {
        tags: staffTags,
        summary:
          "This process's view of the event bus, each feed (and whether it ingests it here) and every asset's state and tick age",
        security: bearerSecurity,
        response: { 200: apiSuccessSchema(feedHealthSchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: feedHealthOf(context) }),
  );
}

import { apiSuccessSchema } from "@tp/domain/api";
import { setupChecklistSchema } from "@tp/domain/setup-checklist";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { setupChecklist } from "./setup-checklist.ts";

/** The back office's home: what the operator has set up and what is left (under /admin). */
export async function setupRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  routes.get(
    "/setup",
    {
      config: leastStaffRole.support,
      schema: {
        tags: staffTags,
        summary:
          "The setup checklist: payment methods, live prices, SMTP, site content, staff 2FA, each done or not with a sentence, read from the real state",
        security: bearerSecurity,
        response: { 200: apiSuccessSchema(setupChecklistSchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: await setupChecklist(context) }),
  );
}

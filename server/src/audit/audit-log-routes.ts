import { adminAuditQuerySchema, adminListDataSchema, auditEntrySchema } from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { listAudit } from "./audit-log.ts";

/** Staff read the audit log (in the staff scope, under /admin). */
export async function auditLogRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/audit-log",
    {
      config: leastStaffRole.support,
      schema: {
        tags: staffTags,
        summary:
          "Every staff action, newest first; filter by actor (id or e-mail), action, target (type or type:id), from, to",
        security: bearerSecurity,
        querystring: adminAuditQuerySchema,
        response: {
          200: apiSuccessSchema(adminListDataSchema(auditEntrySchema)),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const { rows, total } = await listAudit(context.database, request.query);
      const { page, limit } = request.query;
      return {
        status: "success" as const,
        data: { data: rows, pagination: pageInfo(total, page, limit) },
      };
    },
  );
}

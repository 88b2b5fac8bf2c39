import {
  adminListDataSchema,
  adminUserDetailSchema,
  adminUserQuerySchema,
  adminUserSummarySchema,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { searchUsers, userDetail } from "./user-admin-queries.ts";

/** Staff's user search and user detail (in the staff scope, under /admin). */
export async function userAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const tags = staffTags;
  const security = bearerSecurity;

  routes.get(
    "/users",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "Search users by e-mail, username, name or id; newest first",
        security,
        querystring: adminUserQuerySchema,
        response: {
          200: apiSuccessSchema(adminListDataSchema(adminUserSummarySchema)),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const { q, page, limit } = request.query;
      const { rows, total } = await searchUsers(context.database, q, page, limit);
      return {
        status: "success" as const,
        data: { data: rows, pagination: pageInfo(total, page, limit) },
      };
    },
  );

  routes.get(
    "/users/:id",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary:
          "One user: balances, ledger lines, trades, deposits, withdrawals, documents and sessions",
        security,
        params: idParamsSchema,
        response: { 200: apiSuccessSchema(adminUserDetailSchema), ...failureResponses },
      },
    },
    async (request) => {
      const detail = await userDetail(
        context.database,
        request.params.id,
        context.config,
        context.clock.now(),
      );
      if (!detail) throw notFound();
      return { status: "success" as const, data: detail };
    },
  );
}

import { adminMessages } from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import {
  sign_in_history_page_size_default,
  sign_in_history_page_size_max,
  signInHistoryDataSchema,
} from "@tp/domain/sessions-api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { recordAudit } from "../audit/audit-log.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema, pageQuerySchema } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import { findUserById } from "../users/users.ts";
import {
  announceRevokedSessions,
  lockUserSession,
  revokeSession,
  revokeUserSessions,
} from "./sessions.ts";
import { signInHistoryPage } from "./sign-in-history.ts";

/**
 * Staff sign a user out of one session or everywhere (in the staff scope, under /admin), and
 * read the user's sign-in history (the sessions themselves are in the user detail).
 * Each revocation and its audit entry are one transaction; the session row is locked first.
 */
export async function sessionAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const tags = staffTags;
  const security = bearerSecurity;

  routes.post(
    "/users/:id/sessions/:session_id/revoke",
    {
      config: leastStaffRole.admin,
      schema: {
        tags,
        summary: "Sign the user out of one session",
        security,
        params: idParamsSchema.extend({ session_id: idParamsSchema.shape.id }),
        response: {
          200: apiSuccessSchema(z.object({ revoked: z.number().int() })),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const actor = await staffActorOf(context, request);
      const { id, session_id } = request.params;
      const at = context.clock.now();
      const revoked = await context.database.transaction(async (transaction) => {
        const session = await lockUserSession(transaction, id, session_id);
        if (!session) throw notFound();
        const revokedIds = await revokeSession(transaction, session_id, at);
        await recordAudit(transaction, {
          actor,
          action: "session.revoked",
          targetType: "session",
          targetId: session_id,
          before: { user_id: id, revoked_at: session.revoked_at?.toISOString() ?? null },
          after: { user_id: id, revoked_at: (session.revoked_at ?? at).toISOString() },
          at,
        });
        return revokedIds;
      });
      announceRevokedSessions(context.bus, id, revoked);
      return {
        status: "success" as const,
        message: adminMessages.sessionRevoked,
        data: { revoked: revoked.length },
      };
    },
  );

  routes.post(
    "/users/:id/sessions/revoke-all",
    {
      config: leastStaffRole.admin,
      schema: {
        tags,
        summary: "Sign the user out everywhere",
        security,
        params: idParamsSchema,
        response: {
          200: apiSuccessSchema(z.object({ revoked: z.number().int() })),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const actor = await staffActorOf(context, request);
      const { id } = request.params;
      const at = context.clock.now();
      const revoked = await context.database.transaction(async (transaction) => {
        if (!(await findUserById(transaction, id))) throw notFound();
        const revoked = await revokeUserSessions(transaction, id, null, at);
        await recordAudit(transaction, {
          actor,
          action: "sessions.revoked",
          targetType: "user",
          targetId: id,
          before: null,
          after: { revoked: revoked.length },
          at,
        });
        return revoked;
      });
      announceRevokedSessions(context.bus, id, revoked);
      return {
        status: "success" as const,
        message: adminMessages.sessionsRevoked,
        data: { revoked: revoked.length },
      };
    },
  );

  routes.get(
    "/users/:id/sign-in-history",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "The user's sign-in attempts, newest first (time, IP, browser, result)",
        security,
        params: idParamsSchema,
        querystring: pageQuerySchema(
          sign_in_history_page_size_max,
          sign_in_history_page_size_default,
        ),
        response: { 200: apiSuccessSchema(signInHistoryDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { page, limit } = request.query;
      if (!(await findUserById(context.database, id))) throw notFound();
      const { rows, total } = await signInHistoryPage(context.database, id, page, limit);
      return {
        status: "success" as const,
        data: { data: rows, pagination: pageInfo(total, page, limit) },
      };
    },
  );
}

import { adminMessages } from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { recordAudit } from "../audit/audit-log.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { staffTags } from "../http/staff-scope.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import { findUserById } from "../users/users.ts";
import { lockUserSession, revokeSession, revokeUserSessions } from "./sessions.ts";

/**
 * Staff sign a user out of one session or everywhere (in the staff scope, under /admin).
 * Each revocation and its audit entry are one transaction; the session row is locked first.
 */
export async function sessionAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const tags = staffTags;
  const security = bearerSecurity;

  routes.post(
    "/users/:id/sessions/:session_id/revoke",
    {
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
      return context.database.transaction(async (transaction) => {
        const session = await lockUserSession(transaction, id, session_id);
        if (!session) throw notFound();
        await revokeSession(transaction, session_id, at);
        await recordAudit(transaction, {
          actor,
          action: "session.revoked",
          targetType: "session",
          targetId: session_id,
          before: { user_id: id, revoked_at: session.revoked_at?.toISOString() ?? null },
          after: { user_id: id, revoked_at: (session.revoked_at ?? at).toISOString() },
          at,
        });
        return {
          status: "success" as const,
          message: adminMessages.sessionRevoked,
          data: { revoked: session.revoked_at ? 0 : 1 },
        };
      });
    },
  );

  routes.post(
    "/users/:id/sessions/revoke-all",
    {
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
      return context.database.transaction(async (transaction) => {
        if (!(await findUserById(transaction, id))) throw notFound();
        const revoked = await revokeUserSessions(transaction, id, null, at);
        await recordAudit(transaction, {
          actor,
          action: "sessions.revoked",
          targetType: "user",
          targetId: id,
          before: null,
          after: { revoked },
          at,
        });
        return {
          status: "success" as const,
          message: adminMessages.sessionsRevoked,
          data: { revoked },
        };
      });
    },
  );
}

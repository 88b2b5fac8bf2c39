import { apiMessageSchema, apiSuccessSchema } from "@tp/domain/api";
import { browserLabel } from "@tp/domain/browser-label";
import { serverMessages } from "@tp/domain/messages";
import {
  activeSessionsDataSchema,
  sign_in_history_page_size_default,
  sign_in_history_page_size_max,
  signInHistoryDataSchema,
} from "@tp/domain/sessions-api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema, pageQuerySchema } from "../http/route-kit.ts";
import {
  announceRevokedSessions,
  liveSessionsOfUser,
  lockUserSession,
  revokeSession,
  sessionLifetimesOf,
} from "./sessions.ts";
import { signInHistoryPage } from "./sign-in-history.ts";

/**
 * The caller's own sessions and sign-in history (issue 12, item 5), in the signed-in scope:
 * list the live sessions, end one (another user's session is a 404, as if it did not exist),
 * and page through the sign-in attempts.
 */
export async function sessionRoutes(signedIn: FastifyInstance, context: AppContext) {
  const { database, clock, config } = context;
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const tags = ["account"];
  const security = bearerSecurity;

  routes.get(
    "/sessions",
    {
      schema: {
        tags,
        summary: "The caller's live sessions, most recently used first; `current` marks this one",
        security,
        response: { 200: apiSuccessSchema(activeSessionsDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId, sessionId } = sessionOf(request);
      const rows = await liveSessionsOfUser(
        database,
        userId,
        clock.now(),
        sessionLifetimesOf(config),
      );
      return {
        status: "success" as const,
        data: {
          sessions: rows.map((row) => ({
            id: row.id,
            created_at: row.created_at.toISOString(),
            last_seen_at: row.last_seen_at.toISOString(),
            expires_at: row.expires_at.toISOString(),
            ip: row.ip,
            browser: browserLabel(row.user_agent),
            current: row.id === sessionId,
          })),
        },
      };
    },
  );

  routes.delete(
    "/sessions/:id",
    {
      schema: {
        tags,
        summary:
          "End one of the caller's sessions (this one too: that signs out); its sockets close at once",
        security,
        params: idParamsSchema,
        response: { 200: apiMessageSchema, ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const { id } = request.params;
      const revoked = await database.transaction(async (transaction) => {
        // Scoped to the caller: another user's session id is not found, never revoked.
        const session = await lockUserSession(transaction, userId, id);
        if (!session) throw notFound();
        return revokeSession(transaction, id, clock.now());
      });
      announceRevokedSessions(context.bus, userId, revoked);
      return { status: "success" as const, message: serverMessages.sessionEnded };
    },
  );

  routes.get(
    "/sign-in-history",
    {
      schema: {
        tags,
        summary: "The caller's sign-in attempts, newest first (time, IP, browser, result)",
        security,
        querystring: pageQuerySchema(
          sign_in_history_page_size_max,
          sign_in_history_page_size_default,
        ),
        response: { 200: apiSuccessSchema(signInHistoryDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const { page, limit } = request.query;
      const { rows, total } = await signInHistoryPage(database, userId, page, limit);
      return {
        status: "success" as const,
        data: { data: rows, pagination: pageInfo(total, page, limit) },
      };
    },
  );
}

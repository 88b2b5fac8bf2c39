import { serverMessages } from "@tp/domain/messages";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../app-context.ts";
import type { Session } from "../auth/sessions.ts";
import { AppError, unauthenticated } from "./errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in session, set by `requireSession` (null on public routes). */
    session: Session | null;
  }
}

/** "Bearer <token>" → token; anything else → null. The token is never read from a URL. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header);
  return match?.[1] ?? null;
}

/** preHandler for signed-in routes: 401 unless the bearer token is a live session. */
export function requireSession(context: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    const session = token ? await context.sessions.find(token) : null;
    if (!session) throw unauthenticated();
    request.session = session;
  };
}

/** preHandler for staff routes. */
export function requireRole(role: Session["role"]) {
  return async (request: FastifyRequest) => {
    if (!request.session) throw unauthenticated();
    if (request.session.role !== role) throw new AppError("FORBIDDEN", serverMessages.forbidden);
  };
}

/** The session of a request that passed `requireSession`. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new Error("route is missing requireSession");
  return request.session;
}

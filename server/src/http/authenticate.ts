import type { Role } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import type { FastifyRequest } from "fastify";
import { AppError, unauthenticated } from "./errors.ts";

/** Who a signed-in request is (auth/sessions.ts finds it from the bearer token). */
export interface Session {
  sessionId: number;
  userId: number;
  role: Role;
  /**
   * The country the user declared, read with the session (no round trip of its own): real
   * money is refused to residents of a restricted country (issue 14 item 4).
   */
  country: string;
  /** The sign-in: the session time limit counts from it (issue 14 item 1). */
  startedAt: Date;
}

/** What the signed-in hooks need of the application: a way to find a live session. */
export interface SignedInContext {
  sessions: {
    find(token: string): Promise<Session | null>;
    findRecent(token: string): Promise<Session | null>;
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in session, set by the signed-in scope (null on public routes). */
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** A trader money route (trader-scope.ts): a staff session is refused with 403. */
    traders_only?: boolean;
    /**
     * The route's own write checks the session live in its transaction (place-trade: the
     * session's check in place_trades), so the hook may take the session from the process's
     * recent lookups (auth/sessions.ts `findRecent`) instead of a round trip per request.
     */
    session_checked_by_write?: boolean;
  }
}

/** "Bearer <token>" → token; anything else → null. The token is never read from a URL. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header);
  return match?.[1] ?? null;
}

/**
 * Hook that signs the request in: 401 unless the bearer token is a live session. A request
 * already signed in by an earlier hook (one that runs on request, before the body is read)
 * is not looked up again, so a request costs one session lookup whichever hooks run. On a
 * trader money route (`traders_only`), a staff session is refused here, in the one place
 * every signed-in route passes, whichever hook signs it in: staff are not traders.
 */
export function authenticateSession(context: SignedInContext) {
  return async function authenticate(request: FastifyRequest) {
    if (!request.session) {
      const token = bearerToken(request);
      const session = !token
        ? null
        : request.routeOptions.config.session_checked_by_write
          ? await context.sessions.findRecent(token)
          : await context.sessions.find(token);
      if (!session) throw unauthenticated();
      request.session = session;
    }
    if (request.routeOptions.config.traders_only && request.session.role !== "trader") {
      throw new AppError("FORBIDDEN", serverMessages.staffNotTrader);
    }
  };
}

/** The session of a request in the signed-in scope. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new Error("route is outside the signed-in scope");
  return request.session;
}

import type { FastifyInstance } from "fastify";
import { authenticateSession, type SignedInContext } from "./authenticate.ts";

/**
 * The signed-in part of the API: one encapsulated scope whose hook checks the bearer session
 * for every route inside it, so handlers just read `sessionOf(request)`. The check runs as a
 * preHandler, after validation: a malformed request is a 400 whether or not it is signed in,
 * and an unknown route stays a 404. A nested scope that must refuse before the body is read
 * (uploads, the back office) calls `checkSessionOnRequest`; the preHandler then finds the
 * session already set and does not look it up again.
 */
export async function withSignedInScope(
  app: FastifyInstance,
  context: SignedInContext,
  routes: (signedIn: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(async (signedIn) => {
    signedIn.addHook("preHandler", authenticateSession(context));
    await routes(signedIn);
  });
}

/** In a nested scope: the session is checked on request, before a byte of the body is read. */
export function checkSessionOnRequest(scope: FastifyInstance, context: SignedInContext): void {
  scope.addHook("onRequest", authenticateSession(context));
}

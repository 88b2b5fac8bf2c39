import type { FastifyInstance, FastifyReply } from "fastify";
import { authenticateSession, type SignedInContext } from "./authenticate.ts";

/**
 * The signed-in part of the API: one encapsulated scope whose hook checks the bearer session
 * for every route inside it, so handlers just read `sessionOf(request)`. The check runs on
 * request, before the body is read or validated: a signed-out caller gets 401 whatever it
 * sent, and learns nothing of a route's fields from its 422s. An unknown route stays a 404
 * (the not-found handler is outside this scope, so its hooks do not run for it). Nested
 * scopes (uploads, the back office) may call `checkSessionOnRequest` as well; the session is
 * then already set and not looked up again.
 */
export async function withSignedInScope(
  app: FastifyInstance,
  context: SignedInContext,
  routes: (signedIn: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(async (signedIn) => {
    // Signed-in replies (balances, sessions, documents' metadata) are for this caller only:
    // no browser cache or proxy keeps them, refusals included.
    signedIn.addHook("onRequest", async (_request, reply) => doNotStore(reply));
    checkSessionOnRequest(signedIn, context);
    await routes(signedIn);
  });
}

/** In a nested scope: the session is checked on request, before a byte of the body is read. */
export function checkSessionOnRequest(scope: FastifyInstance, context: SignedInContext): void {
  scope.addHook("onRequest", authenticateSession(context));
}

/** `Cache-Control: no-store`: the reply carries a session's data or a token. */
export function doNotStore(reply: FastifyReply): void {
  reply.header("cache-control", "no-store");
}

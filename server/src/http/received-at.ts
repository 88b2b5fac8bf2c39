import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Clock } from "../clock.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** When the request arrived, on the platform's clock (ms since the epoch); 0 before. */
    receivedAtMs: number;
  }
}

/**
 * Notes each request's arrival on the platform's clock, first thing, before sign-in and body
 * checks: a trade stores it beside its acceptance and its entry tick (issue 15 item 5), so
 * "my order was late" has an answer measured from when the order reached us.
 */
export function installReceivedAt(app: FastifyInstance, clock: Clock): void {
  app.decorateRequest("receivedAtMs", 0);
  app.addHook("onRequest", async (request) => {
    request.receivedAtMs = clock.now().getTime();
  });
}

export function receivedAtOf(request: FastifyRequest): Date {
  return new Date(request.receivedAtMs);
}

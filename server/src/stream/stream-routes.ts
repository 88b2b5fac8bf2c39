import fastifyWebsocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../app-context.ts";
import { AppError } from "../http/errors.ts";
import { client_message_bytes_max } from "./stream-limits.ts";

/**
 * GET /api/v1/stream upgrades to the live socket. Browsers must come from PUBLIC_URL (the
 * Origin check stops other sites riding a trader's socket); the token travels in the first
 * message, never in the URL, so it stays out of logs and history.
 */
export async function streamRoutes(app: FastifyInstance, context: AppContext) {
  await app.register(fastifyWebsocket, { options: { maxPayload: client_message_bytes_max } });
  app.get(
    "/stream",
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request) => {
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== context.config.PUBLIC_URL) {
          throw new AppError("FORBIDDEN", "This origin may not open the stream");
        }
      },
    },
    (socket) => context.stream.accept(socket),
  );
}

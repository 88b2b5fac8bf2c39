import fastifyWebsocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../app-context.ts";
import { AppError } from "../http/errors.ts";
import { client_message_bytes_max } from "./stream-limits.ts";

/**
 * GET /api/v1/stream upgrades to the live socket. A browser's socket must come from a page
 * of this platform: the address the page was served from (the request's own host, so
 * http://127.0.0.1:3000 and a LAN address work as well as localhost) or PUBLIC_URL. The
 * Origin check stops other sites riding a trader's socket; the token travels in the first
 * message, never in the URL, so it stays out of logs and history.
 */
export async function streamRoutes(app: FastifyInstance, context: AppContext) {
  await app.register(fastifyWebsocket, { options: { maxPayload: client_message_bytes_max } });
  const publicOrigin = new URL(context.config.PUBLIC_URL).origin;
  app.get(
    "/stream",
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request) => {
        const origin = request.headers.origin;
        if (origin === undefined || isSameOrigin(origin, request.headers.host, publicOrigin)) {
          return;
        }
        request.log.warn(
          { origin, host: request.headers.host, publicUrl: context.config.PUBLIC_URL },
          `stream refused a socket from ${origin}: it is neither this server's address nor PUBLIC_URL; if pages are served there, set PUBLIC_URL=${origin}`,
        );
        throw new AppError("FORBIDDEN", "This origin may not open the stream");
      },
    },
    (socket) => context.stream.accept(socket),
  );
}

/** Whether a socket's Origin is PUBLIC_URL or the host the request itself was sent to. */
export function isSameOrigin(
  origin: string,
  host: string | undefined,
  publicOrigin: string,
): boolean {
  if (origin === publicOrigin) return true;
  if (!URL.canParse(origin) || host === undefined) return false;
  const url = new URL(origin);
  return (url.protocol === "http:" || url.protocol === "https:") && url.host === host;
}

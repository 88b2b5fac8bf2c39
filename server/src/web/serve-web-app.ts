import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { ApiFailure } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import { API_BASE_PATH } from "@tp/domain/paths";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built web app from WEB_DIST_DIR: hashed assets cached for a year, everything
 * else revalidated, and any non-API GET that matches no file answered with the app shell
 * (the SPA fallback), so deep links like /user/security load the app. Unknown /api paths
 * get a JSON 404 instead.
 */
export async function serveWebApp(app: FastifyInstance, webDistDir: string) {
  const shellExists = existsSync(path.join(webDistDir, "index.html"));
  if (shellExists) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isApi =
      pathname === API_BASE_PATH ||
      pathname.startsWith(`${API_BASE_PATH}/`) ||
      pathname.startsWith("/api/");
    if (isApi || (request.method !== "GET" && request.method !== "HEAD")) {
      const body: ApiFailure = {
        status: "error",
        message: serverMessages.routeNotFound,
        code: "NOT_FOUND",
      };
      return reply.status(404).send(body);
    }
    if (!shellExists) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The web app is not built yet: run `npm run build` (npm start does this for you).");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}

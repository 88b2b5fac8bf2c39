import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { ApiFailure } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import { API_BASE_PATH } from "@tp/domain/paths";
import type { SiteContent } from "@tp/domain/site-content";
import type { FastifyInstance } from "fastify";
import { prepareAppShell } from "./app-shell.ts";
import { registerRobotsAndSitemap } from "./robots-and-sitemap.ts";

/**
 * Serves the built web app from WEB_DIST_DIR: hashed assets cached for a year, everything
 * else revalidated, and any non-API GET that matches no file answered with the app shell
 * (the SPA fallback), so deep links like /user/security load the app. Unknown /api paths
 * get a JSON 404 instead. Each file goes out as the .br or .gz copy the build wrote beside
 * it when the browser accepts that encoding (web/build/precompress-plugin.ts); the shell
 * carries the site content (app-shell.ts); robots.txt and the sitemap are made here from
 * PUBLIC_URL.
 */
export async function serveWebApp(
  app: FastifyInstance,
  {
    webDistDir,
    publicUrl,
    siteContent,
  }: { webDistDir: string; publicUrl: string; siteContent: SiteContent },
) {
  registerRobotsAndSitemap(app, publicUrl);
  const shellExists = existsSync(path.join(webDistDir, "index.html"));
  const shell = shellExists
    ? await prepareAppShell(path.join(webDistDir, "index.html"), siteContent)
    : null;
  if (shellExists) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The cache rule is ours (setHeaders); left on, send's own "max-age=0" replaces it on
      // the precompressed copies.
      cacheControl: false,
      setHeaders(response, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : "no-cache",
        );
        // The same URL answers brotli, gzip or plain bytes by Accept-Encoding, so caches must
        // key on it (@fastify/static 9 does not say so itself).
        response.setHeader("vary", "accept-encoding");
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
    if (!shell) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The web app is not built yet: run `npm run build` (npm start does this for you).");
    }
    return shell.send(request, reply);
  });
}

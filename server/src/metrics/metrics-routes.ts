import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import { AppError, notFound } from "../http/errors.ts";
import type { Metrics } from "./metrics.ts";
import type { MetricsListener } from "./metrics-listener.ts";

export const metrics_path = "/metrics";
export const metricsTokenMessage = "Metrics need the header Authorization: Bearer <METRICS_TOKEN>";

/**
 * GET /metrics on the main port, outside the public API (no /api/v1, not in its docs):
 * with METRICS_TOKEN set it answers a request that bears that token, 401 otherwise; without
 * it the route answers 404 as if absent (it exists so the web app's shell, which answers
 * every other GET, is not served in its place).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, config: Config) {
  const expected = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : null;
  app.get(metrics_path, { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw notFound();
    const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    // Compared as digests, in constant time: the reply's timing says nothing of the token.
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      throw new AppError("UNAUTHENTICATED", metricsTokenMessage, {
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
      });
    }
    reply.header("cache-control", "no-store");
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * METRICS_PORT: a plain HTTP listener of its own serving only GET /metrics, with no token —
 * for a port that only the monitoring network reaches. Nothing else of the app is on it.
 */
export async function listenForMetrics(
  metrics: Metrics,
  options: { port: number; host: string },
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const pathname = (request.url ?? "/").split("?")[0];
    if (pathname !== metrics_path || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Not found: this port serves only GET /metrics\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, {
          "content-type": metrics.registry.contentType,
          "cache-control": "no-store",
        });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end(`Metrics could not be collected: ${String(error)}\n`);
      },
    );
  });
  // No request may hold the port for ever (Prometheus times its scrapes out anyway).
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: () => (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

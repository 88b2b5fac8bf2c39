import { crawlerDisallowedPaths, indexablePagePaths } from "@tp/domain/paths";
import type { FastifyInstance } from "fastify";

/** Crawlers may keep these an hour: they change only with a release or PUBLIC_URL. */
const crawler_files_cache_control = "public, max-age=3600";

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...crawlerDisallowedPaths.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** The sitemaps.org document of the public pages, at their addresses under PUBLIC_URL. */
export function sitemapXml(publicUrl: string): string {
  const urls = indexablePagePaths.map(
    (path) => `  <url><loc>${escapeXml(`${publicUrl}${path === "/" ? "/" : path}`)}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/**
 * GET /robots.txt and GET /sitemap.xml (issue 13 item 8): without them the app's HTML answered
 * both. Worked out once at start; PUBLIC_URL is where the pages live.
 */
export function registerRobotsAndSitemap(app: FastifyInstance, publicUrl: string) {
  const robots = robotsTxt(publicUrl);
  const sitemap = sitemapXml(publicUrl);
  app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header("cache-control", crawler_files_cache_control)
      .type("text/plain; charset=utf-8")
      .send(robots),
  );
  app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header("cache-control", crawler_files_cache_control)
      .type("application/xml; charset=utf-8")
      .send(sitemap),
  );
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { apiSuccessSchema } from "@tp/domain/api";
import { galleryListingSchema, galleryNameSchema } from "@tp/domain/market-info";
import { type SiteContent, siteContentSchema } from "@tp/domain/site-content";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { ConfigError } from "../config.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { listGallery, readGalleryImage } from "./galleries.ts";

/** Reads CONTENT_DIR/site.json once at start; a missing or invalid file stops the server. */
export function loadSiteContent(contentDir: string): SiteContent {
  const file = path.join(contentDir, "site.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`CONTENT_DIR: cannot read ${file}: ${(error as Error).message}`);
  }
  const result = siteContentSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`CONTENT_DIR: ${file} is invalid:\n  ${problems.join("\n  ")}`);
  }
  return result.data;
}

export async function siteContentRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    "/site-content",
    {
      schema: {
        tags: ["site"],
        summary: "Operator copy of the public pages (company, home, about, contact, risk warning)",
        response: { 200: apiSuccessSchema(siteContentSchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: context.siteContent }),
  );

  routes.get(
    "/site-content/galleries/:name",
    {
      schema: {
        tags: ["site"],
        summary:
          "Images of a document gallery (legal-documents, confirmation, financial-statement) from CONTENT_DIR/galleries; [] when none",
        params: z.object({ name: galleryNameSchema }),
        response: { 200: apiSuccessSchema(galleryListingSchema), ...failureResponses },
      },
    },
    async (request) => ({
      status: "success" as const,
      data: {
        name: request.params.name,
        images: await listGallery(context.config.CONTENT_DIR, request.params.name),
      },
    }),
  );

  routes.get(
    "/site-content/galleries/:name/:file",
    {
      schema: {
        tags: ["site"],
        summary: "One gallery image (PNG, JPEG, GIF or WebP by content); 404 for anything else",
        params: z.object({ name: galleryNameSchema, file: z.string().min(1).max(200) }),
      },
    },
    async (request, reply) => {
      const image = await readGalleryImage(
        context.config.CONTENT_DIR,
        request.params.name,
        request.params.file,
      );
      if (!image) throw notFound();
      return reply
        .header("content-type", image.type)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "public, max-age=300")
        .header("content-disposition", "inline")
        .send(image.bytes);
    },
  );
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { apiSuccessSchema } from "@tp/domain/api";
import { type SiteContent, siteContentSchema } from "@tp/domain/site-content";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { ConfigError } from "../config.ts";
import { failureResponses } from "../http/replies.ts";

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
  app.withTypeProvider<ZodTypeProvider>().get(
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
}

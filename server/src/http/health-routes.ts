import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "./replies.ts";

const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["pglite", "postgres"]),
  time: z.string(),
  /** Price sources this process ingests now (it holds their lock); [] on the others. */
  feeds_ingested: z.array(z.string()),
  bus: z.enum(["memory", "redis"]),
});

export async function healthRoutes(app: FastifyInstance, context: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/health",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness and database reachability",
        response: { 200: apiSuccessSchema(healthSchema), ...failureResponses },
      },
    },
    async () => {
      await context.database.query("SELECT 1");
      return {
        status: "success" as const,
        data: {
          status: "ok" as const,
          database: context.database.kind,
          time: context.clock.now().toISOString(),
          feeds_ingested: context.marketData.ingesting(),
          bus: context.bus.kind,
        },
      };
    },
  );
}

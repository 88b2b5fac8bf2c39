import { apiFailureSchema, apiSuccessSchema } from "@tp/domain/api";
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

const readinessSchema = z.object({
  ready: z.boolean(),
  checks: z.object({
    migrations: z.enum(["ok", "pending"]),
    database: z.enum(["ok", "unreachable"]),
    bus: z.enum(["ok", "unreachable", "not_configured"]),
    draining: z.boolean(),
  }),
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

  // Readiness for a load balancer: 503 (not 500) with the same data while this process
  // should get no traffic, so the balancer's check and a person both see which check failed.
  app.withTypeProvider<ZodTypeProvider>().get(
    "/ready",
    {
      schema: {
        tags: ["system"],
        summary: "Readiness: whether this process should receive traffic",
        response: {
          200: apiSuccessSchema(readinessSchema),
          503: apiFailureSchema.extend({ data: readinessSchema }),
          ...failureResponses,
        },
      },
    },
    async (_request, reply) => {
      const { ready, checks, reason } = await context.readiness.check();
      // Every poll must see the current state, never a cached answer.
      reply.header("cache-control", "no-store");
      if (reason === null) {
        return { status: "success" as const, data: { ready, checks } };
      }
      return reply.status(503).send({
        status: "error" as const,
        code: "NOT_READY" as const,
        message: reason,
        data: { ready, checks },
      });
    },
  );
}

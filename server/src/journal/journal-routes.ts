import { apiSuccessSchema } from "@tp/domain/api";
import { journalVerificationSchema, publishedCheckpointSchema } from "@tp/domain/journal";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { listCheckpoints } from "./checkpoints.ts";
import { verifyJournalConsistently } from "./journal-verify.ts";

const checkpoints_page_max = 100;

/** GET /journal/checkpoints (public): the signed checkpoints, newest first, a page at a time. */
export async function journalCheckpointRoutes(app: FastifyInstance, context: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/journal/checkpoints",
    {
      schema: {
        tags: ["trading"],
        summary:
          "The journal's signed checkpoints (chain heads and counts), newest first; each body is the exact signed canonical JSON, its key is published at /receipts/keys",
        querystring: z.object({
          before: z.coerce.number().int().positive().optional(),
          limit: z.coerce
            .number()
            .int()
            .min(1)
            .max(checkpoints_page_max)
            .default(checkpoints_page_max),
        }),
        response: {
          200: apiSuccessSchema(z.object({ checkpoints: z.array(publishedCheckpointSchema) })),
          ...failureResponses,
        },
      },
    },
    async (request) => ({
      status: "success" as const,
      data: {
        checkpoints: await listCheckpoints(context.database, {
          beforeId: request.query.before ?? null,
          limit: request.query.limit,
        }),
      },
    }),
  );
}

/** Staff recompute the journal's chains (under /admin); `npm run journal:verify` is the same. */
export async function journalVerifyRoutes(staff: FastifyInstance, context: AppContext) {
  staff.withTypeProvider<ZodTypeProvider>().get(
    "/journal/verify",
    {
      config: leastStaffRole.support,
      schema: {
        tags: staffTags,
        summary:
          "Recomputes every chain of the journal and checks every signed checkpoint; names the first record edited, deleted or inserted out of place",
        security: bearerSecurity,
        response: { 200: apiSuccessSchema(journalVerificationSchema), ...failureResponses },
      },
    },
    async () => ({
      status: "success" as const,
      data: await verifyJournalConsistently(context.database, context.clock.now()),
    }),
  );
}

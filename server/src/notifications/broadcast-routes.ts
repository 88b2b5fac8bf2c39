import { apiSuccessSchema } from "@tp/domain/api";
import { broadcastDataSchema, broadcastSchema } from "@tp/domain/engagement";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses, sendReply } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import { broadcastNotification } from "./broadcast.ts";

/**
 * Staff send a notification (issue 6), in the staff scope under /admin. The delivery it
 * kicks is started by `notificationRoutes`, which is mounted before the signed-in scope.
 */
export async function broadcastRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/notifications",
    {
      config: leastStaffRole.admin,
      schema: {
        tags: staffTags,
        summary:
          "Sends a notification (stream and Web Push too) to one trader (user_id) or to every trader; Idempotency-Key accepted",
        security: bearerSecurity,
        body: broadcastSchema,
        response: {
          201: apiSuccessSchema(broadcastDataSchema),
          ...failureResponses,
        },
      },
    },
    async (request, reply) =>
      sendReply(
        reply,
        await broadcastNotification(
          context,
          await staffActorOf(context, request),
          request.body,
          idempotencyKeyOf(request),
        ),
      ),
  );
}

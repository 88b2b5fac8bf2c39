import { apiFailureSchema } from "@tp/domain/api";
import type { FastifyReply } from "fastify";
import { z } from "zod";

/** Every route declares these failure shapes, so the OpenAPI document shows them. */
export const failureResponses = {
  "4xx": apiFailureSchema,
  "5xx": apiFailureSchema,
} as const;

/** The responses of a route that sends a stored file (a receipt, an identity document). */
export const fileReplySchema = {
  200: z.any().describe("The file, as an attachment"),
  ...failureResponses,
};

/**
 * Sends a stored reply (first time or replayed) with its status and the replay header. Typed
 * by shape, not by the idempotency module's type, so http/ imports nothing from a feature.
 */
export function sendReply<Body>(
  reply: FastifyReply,
  result: { statusCode: number; body: Body; replayed: boolean },
) {
  if (result.replayed) reply.header("idempotency-replayed", "true");
  return reply.status(result.statusCode).send(result.body);
}

/** The `pagination` of a paginated listing's reply: an empty listing still has one page. */
export function pageInfo(total: number, page: number, limit: number) {
  return { last_page: Math.max(1, Math.ceil(total / limit)), current_page: page, total };
}

import {
  adminListDataSchema,
  adminWithdrawalQuerySchema,
  adminWithdrawalViewSchema,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import { approveWithdrawalSchema, rejectSchema } from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, pageInfo, sendReply } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { staffTags } from "../http/staff-scope.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import {
  adminWithdrawalView,
  findWithdrawal,
  reviewWithdrawal,
  withdrawalQueue,
} from "./withdrawals.ts";

/** Staff's withdrawals queue and decisions (in the staff scope, under /admin). */
export async function withdrawalAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const tags = staffTags;
  const security = bearerSecurity;

  routes.get(
    "/withdrawals",
    {
      schema: {
        tags,
        summary: "Withdrawals queue, oldest first; ?status= filters (pending is the work)",
        security,
        querystring: adminWithdrawalQuerySchema,
        response: {
          200: apiSuccessSchema(adminListDataSchema(adminWithdrawalViewSchema)),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const { status, page, limit } = request.query;
      const { rows, total } = await withdrawalQueue(context.database, status, page, limit);
      return {
        status: "success" as const,
        data: { data: rows.map(adminWithdrawalView), pagination: pageInfo(total, page, limit) },
      };
    },
  );

  routes.get(
    "/withdrawals/:id",
    {
      schema: {
        tags,
        summary: "One withdrawal",
        security,
        params: idParamsSchema,
        response: {
          200: apiSuccessSchema(z.object({ withdrawal: adminWithdrawalViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const withdrawal = await findWithdrawal(context.database, request.params.id);
      if (!withdrawal) throw notFound();
      return {
        status: "success" as const,
        data: { withdrawal: adminWithdrawalView(withdrawal) },
      };
    },
  );

  routes.post(
    "/withdrawals/:id/approve",
    {
      schema: {
        tags,
        summary:
          "Mark a pending withdrawal paid with the payout reference; accepts Idempotency-Key",
        security,
        params: idParamsSchema,
        body: approveWithdrawalSchema,
        response: {
          200: apiSuccessSchema(z.object({ withdrawal: adminWithdrawalViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request, reply) =>
      sendReply(
        reply,
        await reviewWithdrawal(
          context,
          await staffActorOf(context, request),
          request.params.id,
          { to: "paid", payoutReference: request.body.payout_reference },
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.post(
    "/withdrawals/:id/reject",
    {
      schema: {
        tags,
        summary:
          "Reject a pending withdrawal with a reason: the hold goes back to the trader; accepts Idempotency-Key",
        security,
        params: idParamsSchema,
        body: rejectSchema,
        response: {
          200: apiSuccessSchema(z.object({ withdrawal: adminWithdrawalViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request, reply) =>
      sendReply(
        reply,
        await reviewWithdrawal(
          context,
          await staffActorOf(context, request),
          request.params.id,
          { to: "rejected", reason: request.body.reason },
          idempotencyKeyOf(request),
        ),
      ),
  );
}

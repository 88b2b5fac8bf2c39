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
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import { fourEyesThresholdCents } from "./four-eyes.ts";
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
  const threshold_cents = fourEyesThresholdCents(context.config);
  const security = bearerSecurity;

  routes.get(
    "/withdrawals",
    {
      config: leastStaffRole.support,
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
        data: {
          data: rows.map((row) => adminWithdrawalView(row, threshold_cents)),
          pagination: pageInfo(total, page, limit),
        },
      };
    },
  );

  routes.get(
    "/withdrawals/:id",
    {
      config: leastStaffRole.support,
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
      // Unconfirmed by its owner's e-mailed link: not in the staff queue yet (issue 12).
      if (!withdrawal || (withdrawal.status === "pending" && !withdrawal.email_confirmed_at)) {
        throw notFound();
      }
      return {
        status: "success" as const,
        data: { withdrawal: adminWithdrawalView(withdrawal, threshold_cents) },
      };
    },
  );

  routes.post(
    "/withdrawals/:id/approve",
    {
      config: leastStaffRole.reviewer,
      schema: {
        tags,
        summary:
          "Mark a pending withdrawal paid with the payout reference; above FOUR_EYES_THRESHOLD_DOLLARS a first approval (no reference, nothing paid) comes first and a second, different reviewer pays; accepts Idempotency-Key",
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
          { to: "paid", payoutReference: request.body.payout_reference ?? null },
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.post(
    "/withdrawals/:id/reject",
    {
      config: leastStaffRole.reviewer,
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

import {
  adminDepositQuerySchema,
  adminDepositViewSchema,
  adminListDataSchema,
  adminMessages,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import { rejectSchema } from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { AppError, notFound } from "../http/errors.ts";
import { failureResponses, fileReplySchema, pageInfo, sendReply } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { findUpload, sendUpload } from "../uploads/upload-store.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import {
  adminDepositView,
  approveDeposit,
  depositQueue,
  findDeposit,
  rejectDeposit,
} from "./deposits.ts";
import { fourEyesThresholdCents } from "./four-eyes.ts";

/** Staff's deposits queue and decisions (in the staff scope, under /admin). */
export async function depositAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const directory = context.uploadsDirectory;
  const tags = staffTags;
  const threshold_cents = fourEyesThresholdCents(context.config);
  const security = bearerSecurity;

  routes.get(
    "/deposits",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "Deposits queue, oldest first; ?status= filters (under_review is the work)",
        security,
        querystring: adminDepositQuerySchema,
        response: {
          200: apiSuccessSchema(adminListDataSchema(adminDepositViewSchema)),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const { status, page, limit } = request.query;
      const { rows, total } = await depositQueue(context.database, status, page, limit);
      return {
        status: "success" as const,
        data: {
          data: rows.map((row) => adminDepositView(row, threshold_cents)),
          pagination: pageInfo(total, page, limit),
        },
      };
    },
  );

  routes.get(
    "/deposits/:id",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "One deposit",
        security,
        params: idParamsSchema,
        response: {
          200: apiSuccessSchema(z.object({ deposit: adminDepositViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const deposit = await findDeposit(context.database, request.params.id);
      if (!deposit) throw notFound();
      return {
        status: "success" as const,
        data: { deposit: adminDepositView(deposit, threshold_cents) },
      };
    },
  );

  routes.get(
    "/deposits/:id/receipt",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "The deposit's receipt, as an attachment (fetch it and show it inline)",
        security,
        params: idParamsSchema,
        response: fileReplySchema,
      },
    },
    async (request, reply) => {
      const deposit = await findDeposit(context.database, request.params.id);
      if (!deposit) throw notFound();
      if (!deposit.receipt_upload_id) throw new AppError("NOT_FOUND", adminMessages.noReceipt);
      const upload = (await findUpload(context.database, deposit.receipt_upload_id))!;
      return sendUpload(reply, directory, upload, `receipt-${deposit.id}`);
    },
  );

  routes.post(
    "/deposits/:id/approve",
    {
      config: leastStaffRole.reviewer,
      schema: {
        tags,
        summary:
          "Approve a deposit under review: credits the trader's real balance once; above FOUR_EYES_THRESHOLD_DOLLARS the first approval is recorded and a second, different reviewer's completes it; accepts Idempotency-Key",
        security,
        params: idParamsSchema,
        response: {
          200: apiSuccessSchema(z.object({ deposit: adminDepositViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request, reply) =>
      sendReply(
        reply,
        await approveDeposit(
          context,
          await staffActorOf(context, request),
          request.params.id,
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.post(
    "/deposits/:id/reject",
    {
      config: leastStaffRole.reviewer,
      schema: {
        tags,
        summary: "Reject a deposit under review with a reason; accepts Idempotency-Key",
        security,
        params: idParamsSchema,
        body: rejectSchema,
        response: {
          200: apiSuccessSchema(z.object({ deposit: adminDepositViewSchema })),
          ...failureResponses,
        },
      },
    },
    async (request, reply) =>
      sendReply(
        reply,
        await rejectDeposit(
          context,
          await staffActorOf(context, request),
          request.params.id,
          request.body.reason,
          idempotencyKeyOf(request),
        ),
      ),
  );
}

import {
  adminAuditQuerySchema,
  adminDepositQuerySchema,
  adminDepositViewSchema,
  adminListDataSchema,
  adminMessages,
  adminPaymentMethodSchema,
  adminUserDetailSchema,
  adminUserQuerySchema,
  adminUserSummarySchema,
  adminVerificationQuerySchema,
  adminVerificationViewSchema,
  adminWithdrawalQuerySchema,
  adminWithdrawalViewSchema,
  auditEntrySchema,
  hasPaymentMethodChanges,
  ledgerReportSchema,
  updatePaymentMethodSchema,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import { broadcastDataSchema, broadcastSchema } from "@tp/domain/engagement";
import { approveWithdrawalSchema, rejectSchema } from "@tp/domain/funding";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { revokeSession, revokeUserSessions } from "../auth/sessions.ts";
import {
  adminDepositView,
  approveDeposit,
  depositQueue,
  findDeposit,
  rejectDeposit,
} from "../funding/deposits.ts";
import { idParamsSchema } from "../funding/funding-routes.ts";
import {
  adminPaymentMethodView,
  findPaymentMethod,
  listPaymentMethods,
  updatePaymentMethod,
} from "../funding/payment-methods.ts";
import {
  adminVerificationView,
  findVerification,
  reviewVerification,
  verificationQueue,
} from "../funding/verifications.ts";
import {
  adminWithdrawalView,
  findWithdrawal,
  reviewWithdrawal,
  withdrawalQueue,
} from "../funding/withdrawals.ts";
import { requireRole, requireSession, sessionOf } from "../http/authenticate.ts";
import { AppError, notFound, unauthenticated, validationError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { idempotencyKeyOf, sendReply } from "../idempotency/idempotency.ts";
import { broadcastNotification } from "../notifications/broadcast.ts";
import { findUpload, sendUpload, uploadsDirectory } from "../uploads/upload-store.ts";
import { findUserById } from "../users/users.ts";
import { searchUsers, userDetail } from "./admin-users.ts";
import { type AuditActor, listAudit, recordAudit } from "./audit-log.ts";
import { ledgerReport } from "./reconciliation.ts";

function pagination(total: number, page: number, limit: number) {
  return { last_page: Math.max(1, Math.ceil(total / limit)), current_page: page, total };
}

const fileReplySchema = {
  200: z.any().describe("The file, as an attachment"),
  ...failureResponses,
};

/**
 * The back office's API under /api/v1/admin (PRODUCT.md D7). Every route checks the session
 * and the admin role on request, before anything is parsed: signed out → 401, a trader → 403,
 * whatever the body. Every state change writes the audit log in its own transaction.
 */
export async function adminRoutes(app: FastifyInstance, context: AppContext) {
  const directory = uploadsDirectory(context.config.DATA_DIR);

  await app.register(
    async (admin) => {
      admin.addHook("onRequest", requireSession(context));
      admin.addHook("onRequest", requireRole("admin"));
      const routes = admin.withTypeProvider<ZodTypeProvider>();
      const tags = ["admin"];
      const security = [{ bearer: [] }];

      /** Who is acting, for the audit log: the admin's id and e-mail, and the client address. */
      async function actorOf(request: FastifyRequest): Promise<AuditActor & { userId: number }> {
        const { userId } = sessionOf(request);
        const user = await findUserById(context.database, userId);
        if (!user) throw unauthenticated();
        return { userId, label: user.email, ip: request.ip };
      }

      // Deposits ---------------------------------------------------------------------------

      routes.get(
        "/deposits",
        {
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
            data: { data: rows.map(adminDepositView), pagination: pagination(total, page, limit) },
          };
        },
      );

      routes.get(
        "/deposits/:id",
        {
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
          return { status: "success" as const, data: { deposit: adminDepositView(deposit) } };
        },
      );

      routes.get(
        "/deposits/:id/receipt",
        {
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
          schema: {
            tags,
            summary:
              "Approve a deposit under review: credits the trader's real balance once; accepts Idempotency-Key",
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
              await actorOf(request),
              request.params.id,
              idempotencyKeyOf(request),
            ),
          ),
      );

      routes.post(
        "/deposits/:id/reject",
        {
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
              await actorOf(request),
              request.params.id,
              request.body.reason,
              idempotencyKeyOf(request),
            ),
          ),
      );

      // Withdrawals ------------------------------------------------------------------------

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
            data: {
              data: rows.map(adminWithdrawalView),
              pagination: pagination(total, page, limit),
            },
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
              await actorOf(request),
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
              await actorOf(request),
              request.params.id,
              { to: "rejected", reason: request.body.reason },
              idempotencyKeyOf(request),
            ),
          ),
      );

      // Identity documents -----------------------------------------------------------------

      routes.get(
        "/verifications",
        {
          schema: {
            tags,
            summary:
              "Identity documents queue, oldest first; ?status= filters (pending is the work)",
            security,
            querystring: adminVerificationQuerySchema,
            response: {
              200: apiSuccessSchema(adminListDataSchema(adminVerificationViewSchema)),
              ...failureResponses,
            },
          },
        },
        async (request) => {
          const { status, page, limit } = request.query;
          const { rows, total } = await verificationQueue(context.database, status, page, limit);
          return {
            status: "success" as const,
            data: {
              data: rows.map(adminVerificationView),
              pagination: pagination(total, page, limit),
            },
          };
        },
      );

      routes.get(
        "/verifications/:id/file",
        {
          schema: {
            tags,
            summary: "The identity document, as an attachment (fetch it and show it inline)",
            security,
            params: idParamsSchema,
            response: fileReplySchema,
          },
        },
        async (request, reply) => {
          const verification = await findVerification(context.database, request.params.id);
          if (!verification) throw notFound();
          const upload = (await findUpload(context.database, verification.upload_id))!;
          return sendUpload(reply, directory, upload, `identity-${verification.id}`);
        },
      );

      for (const decision of ["approve", "reject"] as const) {
        routes.post(
          `/verifications/:id/${decision}`,
          {
            schema: {
              tags,
              summary:
                decision === "approve"
                  ? "Approve identity documents: sets the trader's kyc_verified_at (Account Status Active)"
                  : "Reject identity documents with a reason",
              security,
              params: idParamsSchema,
              ...(decision === "reject" ? { body: rejectSchema } : {}),
              response: {
                200: apiSuccessSchema(z.object({ verification: adminVerificationViewSchema })),
                ...failureResponses,
              },
            },
          },
          async (request) =>
            reviewVerification(
              context,
              await actorOf(request),
              request.params.id,
              decision === "approve"
                ? { to: "approved" }
                : { to: "rejected", reason: (request.body as { reason: string }).reason },
            ),
        );
      }

      // Users --------------------------------------------------------------------------------

      routes.get(
        "/users",
        {
          schema: {
            tags,
            summary: "Search users by e-mail, username, name or id; newest first",
            security,
            querystring: adminUserQuerySchema,
            response: {
              200: apiSuccessSchema(adminListDataSchema(adminUserSummarySchema)),
              ...failureResponses,
            },
          },
        },
        async (request) => {
          const { q, page, limit } = request.query;
          const { rows, total } = await searchUsers(context.database, q, page, limit);
          return {
            status: "success" as const,
            data: { data: rows, pagination: pagination(total, page, limit) },
          };
        },
      );

      routes.get(
        "/users/:id",
        {
          schema: {
            tags,
            summary:
              "One user: balances, ledger lines, trades, deposits, withdrawals, documents and sessions",
            security,
            params: idParamsSchema,
            response: { 200: apiSuccessSchema(adminUserDetailSchema), ...failureResponses },
          },
        },
        async (request) => {
          const detail = await userDetail(context.database, request.params.id);
          if (!detail) throw notFound();
          return { status: "success" as const, data: detail };
        },
      );

      routes.post(
        "/users/:id/sessions/:session_id/revoke",
        {
          schema: {
            tags,
            summary: "Sign the user out of one session",
            security,
            params: idParamsSchema.extend({ session_id: idParamsSchema.shape.id }),
            response: {
              200: apiSuccessSchema(z.object({ revoked: z.number().int() })),
              ...failureResponses,
            },
          },
        },
        async (request) => {
          const actor = await actorOf(request);
          const { id, session_id } = request.params;
          const at = context.clock.now();
          return context.database.transaction(async (transaction) => {
            const found = await transaction.query<{ revoked_at: Date | null }>(
              "SELECT revoked_at FROM sessions WHERE id = $1 AND user_id = $2 FOR UPDATE",
              [session_id, id],
            );
            const session = found.rows[0];
            if (!session) throw notFound();
            await revokeSession(transaction, session_id, at);
            await recordAudit(transaction, {
              actor,
              action: "session.revoked",
              targetType: "session",
              targetId: session_id,
              before: { user_id: id, revoked_at: session.revoked_at?.toISOString() ?? null },
              after: { user_id: id, revoked_at: (session.revoked_at ?? at).toISOString() },
              at,
            });
            return {
              status: "success" as const,
              message: adminMessages.sessionRevoked,
              data: { revoked: session.revoked_at ? 0 : 1 },
            };
          });
        },
      );

      routes.post(
        "/users/:id/sessions/revoke-all",
        {
          schema: {
            tags,
            summary: "Sign the user out everywhere",
            security,
            params: idParamsSchema,
            response: {
              200: apiSuccessSchema(z.object({ revoked: z.number().int() })),
              ...failureResponses,
            },
          },
        },
        async (request) => {
          const actor = await actorOf(request);
          const { id } = request.params;
          const at = context.clock.now();
          return context.database.transaction(async (transaction) => {
            if (!(await findUserById(transaction, id))) throw notFound();
            const revoked = await revokeUserSessions(transaction, id, null, at);
            await recordAudit(transaction, {
              actor,
              action: "sessions.revoked",
              targetType: "user",
              targetId: id,
              before: null,
              after: { revoked },
              at,
            });
            return {
              status: "success" as const,
              message: adminMessages.sessionsRevoked,
              data: { revoked },
            };
          });
        },
      );

      // Payment methods ----------------------------------------------------------------------

      routes.get(
        "/payment-methods",
        {
          schema: {
            tags,
            summary: "Every payment method with all its settings",
            security,
            response: {
              200: apiSuccessSchema(z.array(adminPaymentMethodSchema)),
              ...failureResponses,
            },
          },
        },
        async () => ({
          status: "success" as const,
          data: (await listPaymentMethods(context.database)).map(adminPaymentMethodView),
        }),
      );

      routes.put(
        "/payment-methods/:id",
        {
          schema: {
            tags,
            summary:
              "Change any of name, is_active, is_recommended, wallet_address, instructions, additional_details",
            security,
            params: z.object({ id: z.string().max(64) }),
            body: updatePaymentMethodSchema,
            response: {
              200: apiSuccessSchema(z.object({ payment_method: adminPaymentMethodSchema })),
              ...failureResponses,
            },
          },
        },
        async (request) => {
          if (!hasPaymentMethodChanges(request.body)) {
            throw validationError({}, adminMessages.nothingToChange);
          }
          const actor = await actorOf(request);
          const at = context.clock.now();
          return context.database.transaction(async (transaction) => {
            if (!(await findPaymentMethod(transaction, request.params.id))) throw notFound();
            const changed = await updatePaymentMethod(
              transaction,
              request.params.id,
              request.body,
              at,
            );
            if (!changed) throw notFound();
            const before = adminPaymentMethodView(changed.before);
            const after = adminPaymentMethodView(changed.after);
            await recordAudit(transaction, {
              actor,
              action: "payment_method.updated",
              targetType: "payment_method",
              targetId: request.params.id,
              before,
              after,
              at,
            });
            return {
              status: "success" as const,
              message: adminMessages.paymentMethodUpdated,
              data: { payment_method: after },
            };
          });
        },
      );

      // Notification broadcast (issue 6) -------------------------------------------------------

      routes.post(
        "/notifications",
        {
          schema: {
            tags,
            summary:
              "Sends a notification (stream and Web Push too) to one trader (user_id) or to every trader; Idempotency-Key accepted",
            security,
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
              await actorOf(request),
              request.body,
              idempotencyKeyOf(request),
            ),
          ),
      );

      // Audit log and reconciliation ----------------------------------------------------------

      routes.get(
        "/audit-log",
        {
          schema: {
            tags,
            summary:
              "Every staff action, newest first; filter by actor (id or e-mail), action, target (type or type:id), from, to",
            security,
            querystring: adminAuditQuerySchema,
            response: {
              200: apiSuccessSchema(adminListDataSchema(auditEntrySchema)),
              ...failureResponses,
            },
          },
        },
        async (request) => {
          const { rows, total } = await listAudit(context.database, request.query);
          const { page, limit } = request.query;
          return {
            status: "success" as const,
            data: { data: rows, pagination: pagination(total, page, limit) },
          };
        },
      );

      routes.get(
        "/ledger/check",
        {
          schema: {
            tags,
            summary:
              "Reconciliation: ledger invariants, funding records against the ledger, balances by account kind",
            security,
            response: { 200: apiSuccessSchema(ledgerReportSchema), ...failureResponses },
          },
        },
        async () => ({
          status: "success" as const,
          data: await ledgerReport(context.database, context.clock.now()),
        }),
      );
    },
    { prefix: "/admin" },
  );
}

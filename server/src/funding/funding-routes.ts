import fastifyMultipart from "@fastify/multipart";
import { apiSuccessSchema } from "@tp/domain/api";
import {
  createDepositDataSchema,
  createDepositSchema,
  createWithdrawalDataSchema,
  createWithdrawalSchema,
  depositDataSchema,
  fundingMessages,
  paymentMethodListDataSchema,
  transactionHistoryDataSchema,
  usesWalletAddress,
  verificationDataSchema,
  verificationListDataSchema,
  walletDataSchema,
  withdrawalDataSchema,
} from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { requireSession, sessionOf } from "../http/authenticate.ts";
import { AppError, notFound } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { idempotencyKeyOf, sendReply } from "../idempotency/idempotency.ts";
import type { RateRule } from "../rate-limit/rate-limiter.ts";
import {
  findUpload,
  prepareUploadsDirectory,
  receiveMultipart,
  sendUpload,
} from "../uploads/upload-store.ts";
import { findUserById } from "../users/users.ts";
import {
  cancelDeposit,
  createDeposit,
  depositView,
  findOwnDeposit,
  submitReceipt,
} from "./deposits.ts";
import { findPaymentMethod, listPaymentMethods, paymentMethodView } from "./payment-methods.ts";
import { transactionHistoryPage } from "./transaction-history.ts";
import {
  findOwnVerification,
  uploadVerification,
  verificationsOfUser,
  verificationView,
} from "./verifications.ts";
import {
  cancelWithdrawal,
  findOwnWithdrawal,
  requestWithdrawal,
  withdrawalView,
} from "./withdrawals.ts";

export const transaction_history_page_size_max = 100;
/** The trader's own identity documents listed at most. */
const own_verifications_max = 20;

/** Uploads are the heaviest request a trader can make: bounded per account. */
const uploadsPerAccount: RateRule = { name: "upload:account", limit: 30, window_ms: 60 * 60_000 };

export const idParamsSchema = z.object({
  id: z.coerce
    .number({ error: "The id must be a whole number" })
    .int("The id must be a whole number")
    .positive("The id must be a whole number")
    .max(Number.MAX_SAFE_INTEGER, "The id is too large"),
});

const historyQuerySchema = z.object({
  page: z.coerce
    .number({ error: "page must be a whole number from 1" })
    .int("page must be a whole number from 1")
    .min(1, "page must be a whole number from 1")
    .max(1_000_000, "page is too large")
    .default(1),
  limit: z.coerce
    .number({
      error: `limit must be a whole number from 1 to ${transaction_history_page_size_max}`,
    })
    .int()
    .min(1)
    .max(transaction_history_page_size_max)
    .default(10),
});

const fileReplySchema = {
  200: z.any().describe("The file, as an attachment"),
  ...failureResponses,
};

/**
 * The trader's funding routes (issue 5): payment methods, deposits with receipts,
 * withdrawals, identity documents and the transaction history. Money-moving calls accept
 * Idempotency-Key. Another trader's deposit, withdrawal or document is a 404.
 */
export async function fundingRoutes(app: FastifyInstance, context: AppContext) {
  const uploadsDirectory = prepareUploadsDirectory(
    context.config.DATA_DIR,
    context.config.WEB_DIST_DIR,
  );
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireSession(context);
  const tags = ["funding"];
  const security = [{ bearer: [] }];

  routes.get(
    "/payment-methods",
    {
      schema: {
        tags,
        summary:
          "Payment methods in the funding list's order; is_available false shows 'Currently unavailable'",
        security,
        response: { 200: apiSuccessSchema(paymentMethodListDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async () => ({
      status: "success" as const,
      data: (await listPaymentMethods(context.database)).map(paymentMethodView),
    }),
  );

  routes.get(
    "/payment-methods/:id/wallet",
    {
      schema: {
        tags,
        summary: "Wallet address and instruction lines of a crypto (or e-wallet) method",
        security,
        params: z.object({ id: z.string().max(64) }),
        response: { 200: apiSuccessSchema(walletDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request) => {
      const method = await findPaymentMethod(context.database, request.params.id);
      if (!method) throw new AppError("NOT_FOUND", fundingMessages.invalidPaymentMethod);
      if (!method.is_active) {
        throw new AppError("PAYMENT_METHOD_INACTIVE", fundingMessages.methodCurrentlyUnavailable);
      }
      if (!usesWalletAddress(method.kind) || !method.wallet_address) {
        throw new AppError("WALLET_ADDRESS_UNAVAILABLE", fundingMessages.walletNotAvailable);
      }
      return {
        status: "success" as const,
        data: {
          payment_method_id: method.id,
          name: method.name,
          wallet_address: method.wallet_address,
          instructions: method.instructions,
        },
      };
    },
  );

  routes.post(
    "/deposits",
    {
      schema: {
        tags,
        summary:
          "Start a deposit: returns deposit_id and the transaction_hash for the payment memo; accepts Idempotency-Key",
        security,
        body: createDepositSchema,
        response: { 201: apiSuccessSchema(createDepositDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request, reply) =>
      sendReply(
        reply,
        await createDeposit(
          context,
          sessionOf(request).userId,
          request.body,
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.get(
    "/deposits/:id",
    {
      schema: {
        tags,
        summary: "One of your deposits",
        security,
        params: idParamsSchema,
        response: { 200: apiSuccessSchema(depositDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request) => {
      const deposit = await findOwnDeposit(
        context.database,
        sessionOf(request).userId,
        request.params.id,
      );
      if (!deposit) throw notFound();
      return { status: "success" as const, data: { deposit: depositView(deposit) } };
    },
  );

  routes.delete(
    "/deposits/:id",
    {
      schema: {
        tags,
        summary: "Cancel your deposit while it awaits payment; accepts Idempotency-Key",
        security,
        params: idParamsSchema,
        response: { 200: apiSuccessSchema(depositDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request, reply) =>
      sendReply(
        reply,
        await cancelDeposit(
          context,
          sessionOf(request).userId,
          request.params.id,
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.get(
    "/deposits/:id/receipt",
    {
      schema: {
        tags,
        summary: "Your deposit's receipt, as an attachment",
        security,
        params: idParamsSchema,
        response: fileReplySchema,
      },
      preHandler: signedIn,
    },
    async (request, reply) => {
      const deposit = await findOwnDeposit(
        context.database,
        sessionOf(request).userId,
        request.params.id,
      );
      if (!deposit?.receipt_upload_id) throw notFound();
      const upload = (await findUpload(context.database, deposit.receipt_upload_id))!;
      return sendUpload(reply, uploadsDirectory, upload, `receipt-${deposit.id}`);
    },
  );

  routes.post(
    "/withdrawals",
    {
      schema: {
        tags,
        summary:
          "Request a withdrawal from the real balance: the amount moves into a hold; accepts Idempotency-Key",
        security,
        body: createWithdrawalSchema,
        response: { 201: apiSuccessSchema(createWithdrawalDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request, reply) =>
      sendReply(
        reply,
        await requestWithdrawal(
          context,
          sessionOf(request).userId,
          request.body,
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.get(
    "/withdrawals/:id",
    {
      schema: {
        tags,
        summary: "One of your withdrawals",
        security,
        params: idParamsSchema,
        response: { 200: apiSuccessSchema(withdrawalDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request) => {
      const withdrawal = await findOwnWithdrawal(
        context.database,
        sessionOf(request).userId,
        request.params.id,
      );
      if (!withdrawal) throw notFound();
      return { status: "success" as const, data: { withdrawal: withdrawalView(withdrawal) } };
    },
  );

  routes.delete(
    "/withdrawals/:id",
    {
      schema: {
        tags,
        summary:
          "Cancel your withdrawal while pending: the hold is released; accepts Idempotency-Key",
        security,
        params: idParamsSchema,
        response: { 200: apiSuccessSchema(withdrawalDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request, reply) =>
      sendReply(
        reply,
        await cancelWithdrawal(
          context,
          sessionOf(request).userId,
          request.params.id,
          idempotencyKeyOf(request),
        ),
      ),
  );

  routes.get(
    "/verifications",
    {
      schema: {
        tags,
        summary: "Your identity documents, newest first, and whether your identity is verified",
        security,
        response: { 200: apiSuccessSchema(verificationListDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const user = await findUserById(context.database, userId);
      if (!user) throw notFound();
      const rows = await verificationsOfUser(context.database, userId, own_verifications_max);
      return {
        status: "success" as const,
        data: {
          kyc_verified_at: user.kyc_verified_at?.toISOString() ?? null,
          data: rows.map(verificationView),
        },
      };
    },
  );

  routes.get(
    "/verifications/:id/file",
    {
      schema: {
        tags,
        summary: "Your identity document, as an attachment",
        security,
        params: idParamsSchema,
        response: fileReplySchema,
      },
      preHandler: signedIn,
    },
    async (request, reply) => {
      const verification = await findOwnVerification(
        context.database,
        sessionOf(request).userId,
        request.params.id,
      );
      if (!verification) throw notFound();
      const upload = (await findUpload(context.database, verification.upload_id))!;
      return sendUpload(reply, uploadsDirectory, upload, `identity-${verification.id}`);
    },
  );

  routes.get(
    "/transaction-history",
    {
      schema: {
        tags,
        summary: "Your deposits and withdrawals, newest first, paginated",
        security,
        querystring: historyQuerySchema,
        response: { 200: apiSuccessSchema(transactionHistoryDataSchema), ...failureResponses },
      },
      preHandler: signedIn,
    },
    async (request) => {
      const { page, limit } = request.query;
      const { rows, total } = await transactionHistoryPage(
        context.database,
        sessionOf(request).userId,
        page,
        limit,
      );
      return {
        status: "success" as const,
        data: {
          data: rows,
          pagination: {
            last_page: Math.max(1, Math.ceil(total / limit)),
            current_page: page,
            total,
          },
        },
      };
    },
  );

  // Multipart routes live in their own scope: only they parse multipart bodies. The session
  // is checked on request, before a byte of the body is read.
  await app.register(async (uploads) => {
    await uploads.register(fastifyMultipart, { throwFileSizeLimit: true });
    const multipartRoutes = uploads.withTypeProvider<ZodTypeProvider>();

    multipartRoutes.post(
      "/deposits/:id/receipt",
      {
        schema: {
          tags,
          summary:
            "multipart/form-data: receipt (an image or a PDF, at most 10 MB) and transaction_hash; the deposit goes under review",
          security,
          params: idParamsSchema,
          consumes: ["multipart/form-data"],
          response: { 200: apiSuccessSchema(depositDataSchema), ...failureResponses },
        },
        onRequest: signedIn,
      },
      async (request) => {
        const { userId } = sessionOf(request);
        context.rateLimiter.consume(uploadsPerAccount, String(userId));
        const form = await receiveMultipart(request, uploadsDirectory, {
          fileField: "receipt",
          textFields: ["transaction_hash"],
        });
        try {
          return await submitReceipt(context, uploadsDirectory, userId, request.params.id, form);
        } finally {
          await form.discard();
        }
      },
    );

    multipartRoutes.post(
      "/upload-verification",
      {
        schema: {
          tags,
          summary:
            "multipart/form-data: file (JPG, JPEG, PNG or PDF, at most 10 MB), accept_terms (1) and id_type (passport, national_id, drivers_license)",
          security,
          consumes: ["multipart/form-data"],
          response: { 201: apiSuccessSchema(verificationDataSchema), ...failureResponses },
        },
        onRequest: signedIn,
      },
      async (request, reply) => {
        const { userId } = sessionOf(request);
        context.rateLimiter.consume(uploadsPerAccount, String(userId));
        const form = await receiveMultipart(request, uploadsDirectory, {
          fileField: "file",
          textFields: ["id_type", "accept_terms", "idType", "acceptTerms"],
        });
        // SPEC §3: the fields may also come as idType / acceptTerms.
        form.fields.id_type ??= form.fields.idType ?? "";
        if (form.fields.accept_terms === undefined && form.fields.acceptTerms !== undefined) {
          form.fields.accept_terms = form.fields.acceptTerms;
        }
        delete form.fields.idType;
        delete form.fields.acceptTerms;
        try {
          const body = await uploadVerification(context, uploadsDirectory, userId, form);
          return reply.status(201).send(body);
        } finally {
          await form.discard();
        }
      },
    );
  });
}

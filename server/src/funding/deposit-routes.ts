import { apiSuccessSchema } from "@tp/domain/api";
import {
  createDepositDataSchema,
  createDepositSchema,
  depositDataSchema,
} from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, fileReplySchema, sendReply } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { refuseRealMoneyIn } from "../jurisdictions/restricted-countries.ts";
import { uploadsPerAccount, withUploadScope } from "../uploads/upload-scope.ts";
import { findUpload, receiveMultipart, sendUpload } from "../uploads/upload-store.ts";
import {
  cancelDeposit,
  createDeposit,
  depositView,
  findOwnDeposit,
  submitReceipt,
} from "./deposits.ts";

/**
 * The trader's deposits (issue 5, in the signed-in scope): start one, read it, cancel it,
 * send the receipt. Money-moving calls accept Idempotency-Key; another trader's is a 404.
 */
export async function depositRoutes(signedIn: FastifyInstance, context: AppContext) {
  const { uploadsDirectory } = context;
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const tags = ["funding"];
  const security = bearerSecurity;

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
    },
    async (request, reply) => {
      const session = sessionOf(request);
      // A deposit is real money: refused to residents of a restricted country.
      refuseRealMoneyIn(context.config, session.country);
      return sendReply(
        reply,
        await createDeposit(context, session.userId, request.body, idempotencyKeyOf(request)),
      );
    },
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

  await withUploadScope(signedIn, context, async (uploads) => {
    uploads.withTypeProvider<ZodTypeProvider>().post(
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
      },
      async (request) => {
        const { userId, country } = sessionOf(request);
        context.rateLimiter.consume(uploadsPerAccount, String(userId));
        const form = await receiveMultipart(request, uploadsDirectory, {
          fileField: "receipt",
          textFields: ["transaction_hash"],
        });
        try {
          return await submitReceipt(
            context,
            uploadsDirectory,
            userId,
            request.params.id,
            form,
            country,
          );
        } finally {
          await form.discard();
        }
      },
    );
  });
}

import { apiSuccessSchema } from "@tp/domain/api";
import { verificationDataSchema, verificationListDataSchema } from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, fileReplySchema } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { uploadsPerAccount, withUploadScope } from "../uploads/upload-scope.ts";
import { findUpload, receiveMultipart, sendUpload } from "../uploads/upload-store.ts";
import { findUserById } from "../users/users.ts";
import {
  findOwnVerification,
  uploadVerification,
  verificationsOfUser,
  verificationView,
} from "./verifications.ts";

/** The trader's own identity documents listed at most. */
const own_verifications_max = 20;

/**
 * The trader's identity documents (issue 5, in the signed-in scope): the list with the
 * verified date, one document's file, and the upload. Another trader's document is a 404.
 */
export async function verificationRoutes(signedIn: FastifyInstance, context: AppContext) {
  const { uploadsDirectory } = context;
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const tags = ["funding"];
  const security = bearerSecurity;

  routes.get(
    "/verifications",
    {
      schema: {
        tags,
        summary: "Your identity documents, newest first, and whether your identity is verified",
        security,
        response: { 200: apiSuccessSchema(verificationListDataSchema), ...failureResponses },
      },
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

  await withUploadScope(signedIn, context, async (uploads) => {
    uploads.withTypeProvider<ZodTypeProvider>().post(
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

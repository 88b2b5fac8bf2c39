import {
  adminListDataSchema,
  adminVerificationQuerySchema,
  adminVerificationViewSchema,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import { rejectSchema } from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, fileReplySchema, pageInfo } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { findUpload, sendUpload } from "../uploads/upload-store.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import {
  adminVerificationView,
  findVerification,
  reviewVerification,
  verificationQueue,
} from "./verifications.ts";

/** Staff's identity documents queue and decisions (in the staff scope, under /admin). */
export async function verificationAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const directory = context.uploadsDirectory;
  const tags = staffTags;
  const security = bearerSecurity;

  routes.get(
    "/verifications",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "Identity documents queue, oldest first; ?status= filters (pending is the work)",
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
          pagination: pageInfo(total, page, limit),
        },
      };
    },
  );

  routes.get(
    "/verifications/:id/file",
    {
      config: leastStaffRole.support,
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
        config: leastStaffRole.reviewer,
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
          await staffActorOf(context, request),
          request.params.id,
          decision === "approve"
            ? { to: "approved" }
            : { to: "rejected", reason: (request.body as { reason: string }).reason },
        ),
    );
  }
}

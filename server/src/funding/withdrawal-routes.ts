import { apiSuccessSchema } from "@tp/domain/api";
import {
  confirmWithdrawalSchema,
  createWithdrawalDataSchema,
  createWithdrawalSchema,
  fundingMessages,
  withdrawalDataSchema,
} from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { requireFreshStepUp } from "../auth/step-up.ts";
import { sessionOf } from "../http/authenticate.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses, sendReply } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { idempotencyKeyOf } from "../idempotency/idempotency.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import {
  cancelWithdrawal,
  confirmWithdrawal,
  findOwnWithdrawal,
  requestWithdrawal,
  withdrawalView,
} from "./withdrawals.ts";

/**
 * The trader's withdrawals (issue 5, in the signed-in scope): request, read, cancel.
 * Money-moving calls accept Idempotency-Key; another trader's withdrawal is a 404.
 */
export async function withdrawalRoutes(signedIn: FastifyInstance, context: AppContext) {
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const tags = ["funding"];
  const security = bearerSecurity;

  routes.post(
    "/withdrawals",
    {
      schema: {
        tags,
        summary:
          "Request a withdrawal from the real balance (needs a fresh step-up): the amount moves into a hold and the trader is e-mailed a single-use link that confirms it before staff see it; accepts Idempotency-Key",
        security,
        body: createWithdrawalSchema,
        response: { 201: apiSuccessSchema(createWithdrawalDataSchema), ...failureResponses },
      },
    },
    async (request, reply) => {
      // Money leaving needs a fresh second factor (issue 12): a stolen token alone cannot.
      await requireFreshStepUp(context.database, sessionOf(request), context.clock.now());
      return sendReply(
        reply,
        await requestWithdrawal(
          context,
          sessionOf(request).userId,
          request.body,
          idempotencyKeyOf(request),
        ),
      );
    },
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
}

/** The e-mailed link's confirmation (issue 12): public, since the link may open anywhere. */
export async function withdrawalConfirmationRoutes(app: FastifyInstance, context: AppContext) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    "/withdrawals/confirm",
    {
      schema: {
        tags: ["funding"],
        summary:
          "Confirm a withdrawal with the token of its e-mailed link (single use, expires); only then do staff see it",
        body: confirmWithdrawalSchema,
        response: { 200: apiSuccessSchema(withdrawalDataSchema), ...failureResponses },
      },
      preValidation: async (request) =>
        context.rateLimiter.consume(rateRules.verifyPerIp, request.ip),
    },
    async (request) => {
      const { outcome, withdrawal } = await confirmWithdrawal(context, request.body.token);
      return {
        status: "success" as const,
        message:
          outcome === "confirmed"
            ? fundingMessages.withdrawalConfirmed
            : fundingMessages.withdrawalAlreadyConfirmed,
        data: { withdrawal },
      };
    },
  );
}

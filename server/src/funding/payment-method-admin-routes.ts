import {
  adminMessages,
  adminPaymentMethodSchema,
  hasPaymentMethodChanges,
  paymentMethodChangeSchema,
  updatePaymentMethodSchema,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { validationError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import {
  confirmPaymentMethodChange,
  discardPaymentMethodChange,
  paymentMethodChangeView,
  pendingPaymentMethodChanges,
  proposePaymentMethodChange,
} from "./payment-method-changes.ts";
import { adminPaymentMethodView, listPaymentMethods } from "./payment-methods.ts";

/**
 * Staff's payment method settings (in the staff scope, under /admin): an admin proposes a
 * change, a second admin confirms it (payment-method-changes.ts); every step is audited.
 */
export async function paymentMethodAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const tags = staffTags;
  const security = bearerSecurity;

  routes.get(
    "/payment-methods",
    {
      config: leastStaffRole.support,
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
      config: leastStaffRole.admin,
      schema: {
        tags,
        summary:
          "Propose a change to any of name, is_active, is_recommended, wallet_address, instructions, additional_details and the fees (deposit_fee_fixed_cents, deposit_fee_basis_points, withdrawal_fee_fixed_cents, withdrawal_fee_basis_points: whole numbers); it takes effect when a second admin confirms it (202)",
        security,
        params: z.object({ id: z.string().max(64) }),
        body: updatePaymentMethodSchema,
        response: {
          202: apiSuccessSchema(z.object({ change: paymentMethodChangeSchema })),
          ...failureResponses,
        },
      },
    },
    async (request, reply) => {
      if (!hasPaymentMethodChanges(request.body)) {
        throw validationError({}, adminMessages.nothingToChange);
      }
      const actor = await staffActorOf(context, request);
      const at = context.clock.now();
      const change = await context.database.transaction((transaction) =>
        proposePaymentMethodChange(transaction, actor, request.params.id, request.body, at),
      );
      return reply.code(202).send({
        status: "success" as const,
        message: adminMessages.paymentMethodChangeProposed,
        data: { change: paymentMethodChangeView(change) },
      });
    },
  );

  routes.get(
    "/payment-method-changes",
    {
      config: leastStaffRole.support,
      schema: {
        tags,
        summary: "Payment-method changes waiting for a second admin, oldest first",
        security,
        response: {
          200: apiSuccessSchema(z.array(paymentMethodChangeSchema)),
          ...failureResponses,
        },
      },
    },
    async () => ({
      status: "success" as const,
      data: (await pendingPaymentMethodChanges(context.database)).map(paymentMethodChangeView),
    }),
  );

  routes.post(
    "/payment-method-changes/:id/confirm",
    {
      config: leastStaffRole.admin,
      schema: {
        tags,
        summary:
          "Confirm another admin's pending change: it is applied to the payment method (the proposer cannot confirm their own)",
        security,
        params: idParamsSchema,
        response: {
          200: apiSuccessSchema(
            z.object({
              change: paymentMethodChangeSchema,
              payment_method: adminPaymentMethodSchema,
            }),
          ),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const actor = await staffActorOf(context, request);
      const at = context.clock.now();
      const { change, method } = await context.database.transaction((transaction) =>
        confirmPaymentMethodChange(transaction, actor, request.params.id, at),
      );
      return {
        status: "success" as const,
        message: adminMessages.paymentMethodChangeConfirmed,
        data: { change: paymentMethodChangeView(change), payment_method: method },
      };
    },
  );

  routes.post(
    "/payment-method-changes/:id/discard",
    {
      config: leastStaffRole.admin,
      schema: {
        tags,
        summary: "Discard a pending payment-method change; the method is untouched",
        security,
        params: idParamsSchema,
        response: {
          200: apiSuccessSchema(z.object({ change: paymentMethodChangeSchema })),
          ...failureResponses,
        },
      },
    },
    async (request) => {
      const actor = await staffActorOf(context, request);
      const at = context.clock.now();
      const change = await context.database.transaction((transaction) =>
        discardPaymentMethodChange(transaction, actor, request.params.id, at),
      );
      return {
        status: "success" as const,
        message: adminMessages.paymentMethodChangeDiscarded,
        data: { change: paymentMethodChangeView(change) },
      };
    },
  );
}

import {
  adminMessages,
  adminPaymentMethodSchema,
  hasPaymentMethodChanges,
  updatePaymentMethodSchema,
} from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { recordAudit } from "../audit/audit-log.ts";
import { notFound, validationError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { staffTags } from "../http/staff-scope.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import {
  adminPaymentMethodView,
  findPaymentMethod,
  listPaymentMethods,
  updatePaymentMethod,
} from "./payment-methods.ts";

/** Staff's payment method settings (in the staff scope, under /admin); changes are audited. */
export async function paymentMethodAdminRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();
  const tags = staffTags;
  const security = bearerSecurity;

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
      const actor = await staffActorOf(context, request);
      const at = context.clock.now();
      return context.database.transaction(async (transaction) => {
        if (!(await findPaymentMethod(transaction, request.params.id))) throw notFound();
        const changed = await updatePaymentMethod(transaction, request.params.id, request.body, at);
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
}

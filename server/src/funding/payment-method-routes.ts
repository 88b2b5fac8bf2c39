import { apiSuccessSchema } from "@tp/domain/api";
import {
  fundingMessages,
  paymentMethodListDataSchema,
  usesWalletAddress,
  walletDataSchema,
} from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { AppError } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { liveCoinPrice } from "./coin-price.ts";
import { findPaymentMethod, listPaymentMethods, paymentMethodView } from "./payment-methods.ts";

/** The trader's payment methods and a method's wallet (in the signed-in scope). */
export async function paymentMethodRoutes(signedIn: FastifyInstance, context: AppContext) {
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const tags = ["funding"];
  const security = bearerSecurity;

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
        summary:
          "Wallet address and instruction lines of a crypto (or e-wallet) method, and the coin's live price (null unless a real feed has a fresh one)",
        security,
        params: z.object({ id: z.string().max(64) }),
        response: { 200: apiSuccessSchema(walletDataSchema), ...failureResponses },
      },
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
          coin_price: liveCoinPrice(context, method.id),
        },
      };
    },
  );
}

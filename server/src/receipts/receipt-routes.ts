import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { notFound } from "../http/errors.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { findUserTrade } from "../trading/trades.ts";
import { publishedReceiptKeys } from "./receipt-signing-key.ts";
import { signedTradeReceipt } from "./trade-receipts.ts";

const signedReceiptSchema = z.object({
  receipt: z.record(z.string(), z.unknown()),
  signature: z.object({
    algorithm: z.literal("Ed25519"),
    key_id: z.string(),
    public_key: z.string(),
    value: z.string(),
  }),
});

const receiptKeysSchema = z.object({
  keys: z.array(
    z.object({
      key_id: z.string(),
      algorithm: z.literal("Ed25519"),
      public_key: z.string(),
      first_used_at: z.string(),
    }),
  ),
});

/** GET /receipts/keys (public): every key that has signed receipts, oldest first. */
export async function receiptKeyRoutes(app: FastifyInstance, context: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/receipts/keys",
    {
      schema: {
        tags: ["trading"],
        summary:
          "The Ed25519 public keys (raw, base64) that sign trade receipts: the one in use and every earlier one",
        response: { 200: apiSuccessSchema(receiptKeysSchema), ...failureResponses },
      },
    },
    async () => ({
      status: "success" as const,
      data: {
        keys: (await publishedReceiptKeys(context.database)).map((key) => ({
          ...key,
          algorithm: "Ed25519" as const,
        })),
      },
    }),
  );
}

/** GET /trades/{id}/receipt: the trader's signed receipt of one of their trades, as a file. */
export async function tradeReceiptRoutes(app: FastifyInstance, context: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/trades/:id/receipt",
    {
      schema: {
        tags: ["trading"],
        summary:
          "A signed receipt of one of your trades (placement while open, settlement once settled), to keep or verify",
        security: bearerSecurity,
        params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
        response: { 200: signedReceiptSchema, ...failureResponses },
      },
    },
    async (request, reply) => {
      const trade = await findUserTrade(
        context.database,
        sessionOf(request).userId,
        request.params.id,
      );
      if (!trade) throw notFound();
      const signed = await signedTradeReceipt(
        context.database,
        context.marketData.store,
        context.receiptSigningKey,
        trade,
        context.clock.now(),
      );
      reply.header(
        "content-disposition",
        `attachment; filename="trade-${trade.id}-${signed.receipt.kind}-receipt.json"`,
      );
      // A plain object type, as the response schema's record wants (the interface has no index).
      return { receipt: { ...signed.receipt }, signature: signed.signature };
    },
  );
}

import { apiSuccessSchema } from "@tp/domain/api";
import { transactionHistoryDataSchema } from "@tp/domain/funding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { bearerSecurity, pageQuerySchema } from "../http/route-kit.ts";
import { transactionHistoryPage } from "./transaction-history.ts";

export const transaction_history_page_size_max = 100;

/** The trader's deposits and withdrawals in one paginated list (in the signed-in scope). */
export async function transactionHistoryRoutes(signedIn: FastifyInstance, context: AppContext) {
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/transaction-history",
    {
      schema: {
        tags: ["funding"],
        summary: "Your deposits and withdrawals, newest first, paginated",
        security: bearerSecurity,
        querystring: pageQuerySchema(transaction_history_page_size_max),
        response: { 200: apiSuccessSchema(transactionHistoryDataSchema), ...failureResponses },
      },
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
        data: { data: rows, pagination: pageInfo(total, page, limit) },
      };
    },
  );
}

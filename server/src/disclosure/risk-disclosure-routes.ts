import { apiSuccessSchema } from "@tp/domain/api";
import {
  losingAccountsMethod,
  losingAccountsSentence,
  type RiskDisclosure,
} from "@tp/domain/losing-accounts";
import { riskDisclosureSchema } from "@tp/domain/risk-disclosure-api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { latestSnapshot } from "./losing-accounts.ts";

/** GET /risk-disclosure: the day's share of losing accounts, its period and method (public). */
export async function riskDisclosureRoutes(app: FastifyInstance, context: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/risk-disclosure",
    {
      schema: {
        tags: ["site"],
        summary:
          "The share of real-money accounts that lost money trading in the last 12 months, computed daily from the ledger, with its period and method",
        response: { 200: apiSuccessSchema(riskDisclosureSchema), ...failureResponses },
      },
    },
    async () => {
      const snapshot = await latestSnapshot(context.database);
      const data: RiskDisclosure = {
        snapshot,
        sentence: losingAccountsSentence(snapshot?.lost_percent ?? null),
        method: losingAccountsMethod(
          snapshot?.min_accounts ?? context.config.LOSING_ACCOUNTS_MIN_ACCOUNTS,
        ),
      };
      return { status: "success" as const, data };
    },
  );
}

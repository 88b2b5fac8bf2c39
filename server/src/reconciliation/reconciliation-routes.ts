import { ledgerReportSchema } from "@tp/domain/admin-api";
import { apiSuccessSchema } from "@tp/domain/api";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { failureResponses } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { ledgerReport } from "./reconciliation.ts";

/** Staff run the ledger check (in the staff scope, under /admin); `npm run ledger:check` is the same report. */
export async function reconciliationRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/ledger/check",
    {
      config: leastStaffRole.support,
      schema: {
        tags: staffTags,
        summary:
          "Reconciliation: ledger invariants, funding records against the ledger, balances by account kind",
        security: bearerSecurity,
        response: { 200: apiSuccessSchema(ledgerReportSchema), ...failureResponses },
      },
    },
    async () => ({
      status: "success" as const,
      data: await ledgerReport(context.database, context.clock.now()),
    }),
  );
}

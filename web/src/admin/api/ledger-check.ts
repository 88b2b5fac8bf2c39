import { queryOptions } from "@tanstack/react-query";
import { ledgerReportSchema } from "@tp/domain/admin-api";
import { adminGet, adminRootKey } from "./admin-request.ts";

/** GET /admin/ledger/check: the ledger's invariants and the reconciliation figures. */
export function ledgerCheckQuery() {
  return queryOptions({
    queryKey: [...adminRootKey, "ledger-check"],
    queryFn: ({ signal }) => adminGet("/admin/ledger/check", ledgerReportSchema, signal),
  });
}

import { queryOptions } from "@tanstack/react-query";
import { journalVerificationSchema } from "@tp/domain/journal";
import { adminGet, adminRootKey } from "./admin-request.ts";

/**
 * GET /admin/journal/verify: every hash chain recomputed and every signed checkpoint checked
 * (issue 15 item 3). Its own query, apart from the ledger check: it reads every record, so it
 * may take longer and is run again on its own.
 */
export function journalVerifyQuery() {
  return queryOptions({
    queryKey: [...adminRootKey, "journal-verify"],
    queryFn: ({ signal }) => adminGet("/admin/journal/verify", journalVerificationSchema, signal),
  });
}

import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { adminListDataSchema, auditEntrySchema } from "@tp/domain/admin-api";
import { adminGet, adminRootKey, queryString } from "./admin-request.ts";

export const audit_page_size = 50;

const auditListSchema = adminListDataSchema(auditEntrySchema);

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  /** ISO date-times; `to` is exclusive. */
  from?: string | undefined;
  to?: string | undefined;
  page: number;
}

/** GET /admin/audit-log: newest first, every filter optional. */
export function auditLogQuery(filter: AuditFilter) {
  return queryOptions({
    queryKey: [...adminRootKey, "audit-log", filter],
    queryFn: ({ signal }) =>
      adminGet(
        `/admin/audit-log${queryString({ ...filter, limit: audit_page_size })}`,
        auditListSchema,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

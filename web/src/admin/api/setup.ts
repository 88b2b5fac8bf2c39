import { queryOptions } from "@tanstack/react-query";
import { setupChecklistSchema } from "@tp/domain/setup-checklist";
import { adminGet, adminRootKey } from "./admin-request.ts";

/** GET /admin/setup: what the operator has set up, read from the real state each time. */
export function setupChecklistQuery() {
  return queryOptions({
    queryKey: [...adminRootKey, "setup"],
    queryFn: ({ signal }) => adminGet("/admin/setup", setupChecklistSchema, signal),
  });
}

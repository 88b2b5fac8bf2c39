import { queryOptions } from "@tanstack/react-query";
import { feedHealthSchema } from "@tp/domain/market-status-api";
import { adminGet, adminRootKey } from "./admin-request.ts";

/** The feeds page reads again this often: a stalled feed shows within seconds. */
export const feeds_refetch_ms = 3_000;

/** GET /admin/feeds: this server's bus, its feeds and every asset's state and tick age. */
export function feedHealthQuery() {
  return queryOptions({
    queryKey: [...adminRootKey, "feeds"],
    queryFn: ({ signal }) => adminGet("/admin/feeds", feedHealthSchema, signal),
    refetchInterval: feeds_refetch_ms,
  });
}

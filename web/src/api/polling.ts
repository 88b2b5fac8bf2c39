import { ApiError } from "./client.ts";

/**
 * SPEC §7: "the dashboard client refetches every 3 s, stale after 1 s, retries 2". With the
 * live socket up (PRODUCT.md D10) events keep the data fresh and nothing is polled; these
 * apply while it is down.
 */
export const dashboard_refetch_ms = 3_000;
export const dashboard_stale_ms = 1_000;
export const dashboard_retries_max = 2;

/** Retries for the dashboard's queries: 2, and none for a 4xx (it would answer the same). */
export function dashboardRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < dashboard_retries_max;
}

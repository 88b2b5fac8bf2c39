import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client.ts";

/** SPEC §7: most queries retry 3 times with backoff min(1000·2^n, 30000) ms. */
export const query_retries_max = 3;
export const query_retry_delay_max_ms = 30_000;
/** SPEC §9: cache garbage collection after 5 minutes. */
export const query_gc_ms = 5 * 60_000;

/** A 4xx answer will be the same answer next time; only network failures and 5xx retry. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < query_retries_max;
}

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, query_retry_delay_max_ms);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, gcTime: query_gc_ms },
      // A retried POST could place or move money twice; a mutation answers once.
      mutations: { retry: false },
    },
  });
}

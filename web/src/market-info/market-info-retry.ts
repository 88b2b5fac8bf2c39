import { ApiError } from "../api/client.ts";

/** SPEC §7: most queries retry 3 times. */
export const market_info_retries_max = 3;

/**
 * Retries network failures and server errors, but not a 4xx (the same answer again) nor a
 * 503: the server already tried its provider and holds its circuit breaker open, so asking
 * again at once only delays the message the trader should see.
 */
export function marketInfoRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.status < 500 || error.status === 503)) return false;
  return failureCount < market_info_retries_max;
}

/**
 * The server's explanation of a failure, when it gave one worth showing (SPEC §8 "server
 * details"): a 4xx or the 503's provider message. A 500 says only "Internal Server Error".
 */
export function serverDetails(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.serverMessage === null || error.status === 500) {
    return null;
  }
  return error.serverMessage;
}

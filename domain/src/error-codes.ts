/**
 * Stable error codes shared by server and web. The server maps each to one HTTP status in
 * one place (server/src/http/errors.ts); clients may branch on the code, never on text.
 */
export const errorCodes = [
  "MALFORMED_REQUEST",
  "UNAUTHENTICATED",
  "INVALID_CREDENTIALS",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "BODY_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "VALIDATION_FAILED",
  "RATE_LIMITED",
  "INSUFFICIENT_FUNDS",
  "MARKET_CLOSED",
  "SIMULATED_PRICES_REAL_ACCOUNT",
  "IDEMPOTENCY_KEY_REUSED",
  "PAYMENT_METHOD_UNAVAILABLE",
  "VERIFICATION_REQUIRED",
  "PROVIDER_UNAVAILABLE",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

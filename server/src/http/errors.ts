import type { ErrorCode } from "@tp/domain/error-codes";
import { serverMessages } from "@tp/domain/messages";
import type { FieldErrors } from "@tp/domain/validation";

/**
 * An expected failure with a stable code. Modules throw it; the one error handler
 * (http/error-handler.ts) turns it into the failure envelope with the status below.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fieldErrors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
  }
}

/** The one map from error code to HTTP status; when each happens: domain/src/error-codes.ts. */
export const httpStatusByCode: Record<ErrorCode, number> = {
  MALFORMED_REQUEST: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  SECOND_FACTOR_INVALID: 422,
  AUTH_CHALLENGE_INVALID: 422,
  STEP_UP_REQUIRED: 403,
  PASSKEY_INVALID: 422,
  NOT_FOUND: 404,
  PRACTICE_TOP_UP_NOT_NEEDED: 409,
  TOO_MANY_AWAITING_DEPOSITS: 409,
  DEPOSIT_NOT_AWAITING_PAYMENT: 409,
  DEPOSIT_NOT_UNDER_REVIEW: 409,
  TOO_MANY_PENDING_WITHDRAWALS: 409,
  WITHDRAWAL_NOT_PENDING: 409,
  IDENTITY_ALREADY_VERIFIED: 409,
  VERIFICATION_ALREADY_PENDING: 409,
  VERIFICATION_NOT_PENDING: 409,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  /** 428 Precondition Required: the request may be repeated with a solved proof of work. */
  CHALLENGE_REQUIRED: 428,
  INSUFFICIENT_FUNDS: 422,
  MARKET_CLOSED: 422,
  SIMULATED_PRICES_REAL_ACCOUNT: 403,
  COUNTRY_RESTRICTED: 403,
  LIMIT_REACHED: 403,
  EXCLUDED: 403,
  EXCLUSION_NOT_SHORTENED: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  FEE_CHANGED: 409,
  PAYMENT_METHOD_INACTIVE: 422,
  PAYMENT_METHOD_NOT_CONFIGURED: 422,
  WALLET_ADDRESS_UNAVAILABLE: 422,
  EMAIL_NOT_VERIFIED: 403,
  IDENTITY_NOT_VERIFIED: 403,
  SECOND_APPROVER_REQUIRED: 409,
  PAYMENT_METHOD_CHANGE_NOT_PENDING: 409,
  ACCOUNT_CLOSED: 403,
  CLOSURE_BALANCE_REMAINING: 409,
  /** An outside data provider (stats, news, market data) cannot be reached or answered badly. */
  PROVIDER_UNAVAILABLE: 503,
  /** Readiness (GET /ready): a load balancer sends this process no traffic meanwhile. */
  NOT_READY: 503,
  INTERNAL: 500,
};

/** A 422 whose messages belong to fields, as the forms show them. */
export function validationError(fieldErrors: FieldErrors, message?: string): AppError {
  const first = Object.values(fieldErrors)[0]?.[0];
  return new AppError("VALIDATION_FAILED", message ?? first ?? serverMessages.validationFailed, {
    fieldErrors,
  });
}

export const notFound = () => new AppError("NOT_FOUND", serverMessages.notFound);
export const unauthenticated = () => new AppError("UNAUTHENTICATED", serverMessages.notSignedIn);

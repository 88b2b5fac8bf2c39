/**
 * Stable error codes shared by server and web. The server maps each to one HTTP status in
 * one place (server/src/http/errors.ts); clients may branch on the code, never on text.
 * One code per situation a client must tell apart; the comment says when it happens.
 */
export const errorCodes = [
  /** Bad query, params, header or unparsable body (not a form that failed its rules). */
  "MALFORMED_REQUEST",
  /** No session, or the session expired or was revoked. */
  "UNAUTHENTICATED",
  /** Login with an unknown e-mail or a wrong password. */
  "INVALID_CREDENTIALS",
  /** Signed in, but the role may not do this (a trader on a staff endpoint, a foreign origin). */
  "FORBIDDEN",
  /** The thing does not exist, or is not the caller's. */
  "NOT_FOUND",
  /** Practice top-up while the practice balance is already at or above the top-up level. */
  "PRACTICE_TOP_UP_NOT_NEEDED",
  /** A trader already has the maximum number of deposits awaiting payment. */
  "TOO_MANY_AWAITING_DEPOSITS",
  /** Cancel or receipt upload on a deposit that no longer awaits payment. */
  "DEPOSIT_NOT_AWAITING_PAYMENT",
  /** Staff approve or reject a deposit that is not under review (someone decided first). */
  "DEPOSIT_NOT_UNDER_REVIEW",
  /** A trader already has the maximum number of pending withdrawals. */
  "TOO_MANY_PENDING_WITHDRAWALS",
  /** Trader cancel or staff decision on a withdrawal that is no longer pending. */
  "WITHDRAWAL_NOT_PENDING",
  /** Identity documents uploaded by a trader whose identity is already verified. */
  "IDENTITY_ALREADY_VERIFIED",
  /** Identity documents uploaded while earlier ones are still under review. */
  "VERIFICATION_ALREADY_PENDING",
  /** Staff approve or reject documents that are no longer pending review. */
  "VERIFICATION_NOT_PENDING",
  /** Request body over the size limit (JSON, a form field or an uploaded file). */
  "BODY_TOO_LARGE",
  /** A content type the endpoint does not take (e.g. not multipart on an upload). */
  "UNSUPPORTED_MEDIA_TYPE",
  /** A form that failed its rules; `errors` holds the messages per field. */
  "VALIDATION_FAILED",
  /** Too many requests; Retry-After says when to try again. */
  "RATE_LIMITED",
  /** The account's balance does not cover the trade or withdrawal. */
  "INSUFFICIENT_FUNDS",
  /** A trade on an asset whose market is closed. */
  "MARKET_CLOSED",
  /** A real-money trade refused while prices are simulated. */
  "SIMULATED_PRICES_REAL_ACCOUNT",
  /**
   * A real-money trade or deposit by a trader whose declared country is on
   * RESTRICTED_COUNTRIES (practice trading and withdrawals stay available).
   */
  "COUNTRY_RESTRICTED",
  /**
   * A real trade or deposit that would cross one of the trader's own limits (loss, stake,
   * deposit, open trades, session time): the message names the limit and what is used.
   */
  "LIMIT_REACHED",
  /** A trade or deposit during the trader's time-out, self-exclusion or account closure. */
  "EXCLUDED",
  /** A time-out or self-exclusion that would end before the one in force. */
  "EXCLUSION_NOT_SHORTENED",
  /** The same Idempotency-Key sent again with a different request. */
  "IDEMPOTENCY_KEY_REUSED",
  /**
   * Deposit or withdrawal whose `expected_fee` (the fee the form showed) is not the method's
   * fee any more: staff changed it between the form and Confirm. Nothing is stored.
   */
  "FEE_CHANGED",
  /** Deposit, withdrawal or wallet request on a payment method staff switched off. */
  "PAYMENT_METHOD_INACTIVE",
  /** Deposit on a method missing its details (wallet address, bank name or location). */
  "PAYMENT_METHOD_NOT_CONFIGURED",
  /** Wallet request on a method that has no wallet address (or does not use one). */
  "WALLET_ADDRESS_UNAVAILABLE",
  /** Withdrawal refused until the trader's e-mail address is verified. */
  "EMAIL_NOT_VERIFIED",
  /** Withdrawal refused until the trader's identity documents are approved. */
  "IDENTITY_NOT_VERIFIED",
  /** An outside data provider (stats, news, market data) cannot be reached or answered badly. */
  "PROVIDER_UNAVAILABLE",
  /**
   * GET /ready while this process should not receive traffic: still starting, draining after
   * SIGTERM, or its database or (when configured) Redis unreachable. `data` names the check.
   */
  "NOT_READY",
  /** A sign-in or step-up code (TOTP or recovery code) that is wrong, used or expired. */
  "SECOND_FACTOR_INVALID",
  /** A sign-in step (second factor, enrolment, passkey ceremony) that is unknown, used or expired. */
  "AUTH_CHALLENGE_INVALID",
  /** Money leaving or a change of the account's keys without a fresh second factor (step-up). */
  "STEP_UP_REQUIRED",
  /**
   * A passkey's answer that does not verify: wrong origin, challenge, signature or counter,
   * or a passkey that is unknown, removed or not this account's.
   */
  "PASSKEY_INVALID",
  /**
   * Sign-in, forgot-password or resend for an account with too many recent attempts, without a
   * solved (fresh, unused) ALTCHA proof of work: fetch GET /challenge, solve it, send `altcha`.
   */
  "CHALLENGE_REQUIRED",
  /** A second approval by the staff member who gave the first (four eyes need two people). */
  "SECOND_APPROVER_REQUIRED",
  /** Confirm or discard of a payment-method change that is no longer pending. */
  "PAYMENT_METHOD_CHANGE_NOT_PENDING",
  /** Sign-in to an account that was closed (issue 14 item 7). */
  "ACCOUNT_CLOSED",
  /** Closure asked while real money is on the account: it must be withdrawn first. */
  "CLOSURE_BALANCE_REMAINING",
  /** Our own failure; the reply says only "Internal Server Error". */
  "INTERNAL",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

import { serverMessages } from "@tp/domain/messages";
import type { Clock } from "../clock.ts";
import { AppError } from "../http/errors.ts";
import { FixedWindows } from "./fixed-windows.ts";

export interface RateRule {
  name: string;
  /** Attempts allowed per window at RATE_LIMIT_FACTOR = 1. */
  limit: number;
  window_ms: number;
}

const minute_ms = 60 * 1000;

/**
 * Limits on the endpoints an attacker would hammer, per client address (and per session for
 * the current-password check). Sign-in, forgot-password and resend are not refused per
 * account, since a refusal per account locks its owner out: auth/attempt-throttle.ts slows
 * them and asks for a proof of work instead. All scale by RATE_LIMIT_FACTOR; 0 turns them off.
 */
export const rateRules = {
  loginPerIp: { name: "login:ip", limit: 30, window_ms: 15 * minute_ms },
  registerPerIp: { name: "register:ip", limit: 10, window_ms: 60 * minute_ms },
  forgotPerIp: { name: "forgot:ip", limit: 10, window_ms: 15 * minute_ms },
  resetPerIp: { name: "reset:ip", limit: 10, window_ms: 15 * minute_ms },
  resetPerAccount: { name: "reset:account", limit: 5, window_ms: 15 * minute_ms },
  resendPerIp: { name: "resend:ip", limit: 10, window_ms: 15 * minute_ms },
  verifyPerIp: { name: "verify:ip", limit: 20, window_ms: 15 * minute_ms },
  /** Passkey sign-in: each options call stores a challenge before anyone is known. */
  passkeyPerIp: { name: "passkey:ip", limit: 60, window_ms: 15 * minute_ms },
  /** Challenges are cheap to make but not free; a widget fetches one per attempt. */
  challengePerIp: { name: "challenge:ip", limit: 60, window_ms: 15 * minute_ms },
  /**
   * Guesses of the current password with a stolen session (PUT /update-password), per
   * session: the owner's own sessions keep their own count, so this cannot lock them out.
   */
  currentPasswordPerSession: {
    name: "current-password:session",
    limit: 5,
    window_ms: 15 * minute_ms,
  },
  /** Codes checked on a signed-in session (step-up, turning 2FA off, new recovery codes). */
  secondFactorPerAccount: { name: "second-factor:account", limit: 10, window_ms: 15 * minute_ms },
  /** Generous: a trader may fire a burst of 50 trades at once (the trading issue's floor). */
  placeTradePerAccount: { name: "trade:account", limit: 120, window_ms: minute_ms },
  /**
   * Statements, the data export and the auditors' exports read up to 5 years of records
   * each: enough for anyone picking periods and formats, not for a loop.
   */
  downloadsPerAccount: { name: "downloads:account", limit: 30, window_ms: 15 * minute_ms },
} as const satisfies Record<string, RateRule>;

/**
 * Fixed-window counters in this process's memory. With several processes each keeps its
 * own counts, so the effective limit is per process; a shared store arrives with Redis.
 */
export class RateLimiter {
  readonly #windows = new FixedWindows();
  readonly #factor: number;
  readonly #clock: Clock;

  constructor(factor: number, clock: Clock) {
    this.#factor = factor;
    this.#clock = clock;
  }

  /** Counts one attempt; throws a 429 AppError with Retry-After when over the limit. */
  consume(rule: RateRule, key: string): void {
    if (this.#factor === 0) return;
    const limit = Math.max(1, Math.ceil(rule.limit * this.#factor));
    const nowMs = this.#clock.now().getTime();
    const window = this.#windows.count(`${rule.name}:${key}`, rule.window_ms, nowMs);
    if (window.count > limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000));
      throw new AppError("RATE_LIMITED", serverMessages.rateLimited, {
        headers: { "retry-after": String(retryAfterSeconds) },
      });
    }
  }
}

import { serverMessages } from "@tp/domain/messages";
import type { Clock } from "../clock.ts";
import { AppError } from "../http/errors.ts";

export interface RateRule {
  name: string;
  /** Attempts allowed per window at RATE_LIMIT_FACTOR = 1. */
  limit: number;
  window_ms: number;
}

const minute_ms = 60 * 1000;

/**
 * Limits on the endpoints an attacker would hammer: per client address and per account
 * (the e-mail the request names). All scale by RATE_LIMIT_FACTOR; 0 turns them off.
 */
export const rateRules = {
  loginPerIp: { name: "login:ip", limit: 30, window_ms: 15 * minute_ms },
  loginPerAccount: { name: "login:account", limit: 10, window_ms: 15 * minute_ms },
  registerPerIp: { name: "register:ip", limit: 10, window_ms: 60 * minute_ms },
  forgotPerIp: { name: "forgot:ip", limit: 10, window_ms: 15 * minute_ms },
  forgotPerAccount: { name: "forgot:account", limit: 3, window_ms: 15 * minute_ms },
  resetPerIp: { name: "reset:ip", limit: 10, window_ms: 15 * minute_ms },
  resetPerAccount: { name: "reset:account", limit: 5, window_ms: 15 * minute_ms },
  resendPerIp: { name: "resend:ip", limit: 10, window_ms: 15 * minute_ms },
  resendPerAccount: { name: "resend:account", limit: 3, window_ms: 15 * minute_ms },
  verifyPerIp: { name: "verify:ip", limit: 20, window_ms: 15 * minute_ms },
  /** Generous: a trader may fire a burst of 50 trades at once (the trading issue's floor). */
  placeTradePerAccount: { name: "trade:account", limit: 120, window_ms: minute_ms },
} as const satisfies Record<string, RateRule>;

/** Bound on tracked keys, so a flood of distinct addresses cannot grow memory without end. */
const tracked_keys_max = 100_000;

/**
 * Fixed-window counters in this process's memory. With several processes each keeps its
 * own counts, so the effective limit is per process; a shared store arrives with Redis.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAtMs: number }>();
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
    const mapKey = `${rule.name}:${key}`;
    let window = this.#windows.get(mapKey);
    if (!window || window.resetAtMs <= nowMs) {
      if (this.#windows.size >= tracked_keys_max) this.#prune(nowMs);
      window = { count: 0, resetAtMs: nowMs + rule.window_ms };
      this.#windows.set(mapKey, window);
    }
    window.count += 1;
    if (window.count > limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000));
      throw new AppError("RATE_LIMITED", serverMessages.rateLimited, {
        headers: { "retry-after": String(retryAfterSeconds) },
      });
    }
  }

  #prune(nowMs: number) {
    for (const [key, window] of this.#windows) {
      if (window.resetAtMs <= nowMs) this.#windows.delete(key);
    }
    // Still full of live windows: drop the oldest insertions rather than grow.
    const excess = this.#windows.size - tracked_keys_max + 1;
    if (excess > 0) {
      let dropped = 0;
      for (const key of this.#windows.keys()) {
        if (dropped++ >= excess) break;
        this.#windows.delete(key);
      }
    }
  }
}

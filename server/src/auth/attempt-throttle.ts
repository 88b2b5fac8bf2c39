import { serverMessages } from "@tp/domain/messages";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import { AppError } from "../http/errors.ts";
import { FixedWindows } from "../rate-limit/fixed-windows.ts";
import type { ProofOfWork } from "./proof-of-work.ts";

/**
 * What stands in for a lockout on sign-in, forgot-password and resend, per account (the
 * e-mail the request names). A lockout would let anyone shut the owner out by failing on
 * purpose (issue 12 item 7); instead attempts past `delay_after` wait a little longer each
 * time, and past `challenge_after` must carry a solved ALTCHA proof of work. The owner, from
 * anywhere, with the right password and a solved challenge, always gets in.
 *
 * Every attempt is counted when it starts (so a burst of parallel guesses cannot slip under
 * the threshold) and a successful sign-in clears the count. Counts live in this process's
 * memory, like the rate limiter's; all scale by RATE_LIMIT_FACTOR and 0 turns them off.
 */
export interface ThrottleRule {
  name: string;
  /** Attempts per window before a proof of work is required, at RATE_LIMIT_FACTOR = 1. */
  challenge_after: number;
  /** Attempts per window before each further attempt is slowed down; null: never slowed. */
  delay_after: number | null;
  window_ms: number;
}

const minute_ms = 60 * 1000;

export const throttleRules = {
  signIn: { name: "sign-in", challenge_after: 5, delay_after: 3, window_ms: 15 * minute_ms },
  forgotPassword: {
    name: "forgot-password",
    challenge_after: 3,
    delay_after: null,
    window_ms: 15 * minute_ms,
  },
  resendVerification: {
    name: "resend-verification",
    challenge_after: 3,
    delay_after: null,
    window_ms: 15 * minute_ms,
  },
} as const satisfies Record<string, ThrottleRule>;

/** Each slowed attempt waits this much more than the one before, up to the cap. */
export const delay_step_ms = 100;
export const delay_ms_max = 1_000;

export class AttemptThrottle {
  readonly #windows = new FixedWindows();
  readonly #factor: number;
  readonly #clock: Clock;
  readonly #database: Database;
  readonly #proofOfWork: ProofOfWork;
  readonly #sleep: (milliseconds: number) => Promise<void>;

  constructor(options: {
    factor: number;
    clock: Clock;
    database: Database;
    proofOfWork: ProofOfWork;
    sleep?: (milliseconds: number) => Promise<void>;
  }) {
    this.#factor = options.factor;
    this.#clock = options.clock;
    this.#database = options.database;
    this.#proofOfWork = options.proofOfWork;
    this.#sleep =
      options.sleep ??
      ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)));
  }

  /**
   * Counts one attempt on `key`; waits when the account is being slowed down; throws
   * CHALLENGE_REQUIRED (428) when a proof of work is due and `altcha` is missing, wrong,
   * expired or already used. A solved challenge is spent only when it was needed.
   */
  async admit(rule: ThrottleRule, key: string, altcha: string | undefined): Promise<void> {
    if (this.#factor === 0) return;
    const earlier = this.#count(rule, key);
    const delayAfter = rule.delay_after === null ? null : this.#scaled(rule.delay_after);
    if (delayAfter !== null && earlier >= delayAfter) {
      await this.#sleep(Math.min(delay_ms_max, delay_step_ms * (earlier - delayAfter + 1)));
    }
    if (earlier >= this.#scaled(rule.challenge_after)) {
      const solved =
        altcha !== undefined && (await this.#proofOfWork.redeem(this.#database, altcha));
      if (!solved) {
        throw new AppError("CHALLENGE_REQUIRED", serverMessages.challengeRequired);
      }
    }
  }

  /** After a successful sign-in: the owner proved the password, so nothing to slow down. */
  clear(rule: ThrottleRule, key: string): void {
    this.#windows.forget(`${rule.name}:${key}`);
  }

  #scaled(attempts: number): number {
    return Math.max(1, Math.ceil(attempts * this.#factor));
  }

  /** Counts this attempt; returns how many came before it in the current window. */
  #count(rule: ThrottleRule, key: string): number {
    const nowMs = this.#clock.now().getTime();
    return this.#windows.count(`${rule.name}:${key}`, rule.window_ms, nowMs).count - 1;
  }
}

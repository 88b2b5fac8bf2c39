import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";

export const warning_window_ms = 60_000;

interface Window {
  startedAt: number;
  logged: number;
  suppressed: number;
}

/**
 * Warn-level logging with a cap per minute for each kind of warning (its message): a
 * provider sending garbage hundreds of times a second must not flood the log, nor hide a
 * different warning (a provider error) behind its own. What is held back is counted and
 * reported when that warning next comes up in a new window.
 */
export class RateLimitedWarnings {
  readonly #logger: FastifyBaseLogger;
  readonly #clock: Clock;
  readonly #warningsPerWindowMax: number;
  readonly #windows = new Map<string, Window>();

  constructor(logger: FastifyBaseLogger, clock: Clock, warningsPerWindowMax: number) {
    this.#logger = logger;
    this.#clock = clock;
    this.#warningsPerWindowMax = warningsPerWindowMax;
  }

  warn(fields: Record<string, unknown>, message: string): void {
    const now = this.#clock.now().getTime();
    let window = this.#windows.get(message);
    if (window === undefined || now - window.startedAt >= warning_window_ms) {
      if (window !== undefined && window.suppressed > 0) {
        this.#logger.warn(
          { suppressed: window.suppressed },
          `${window.suppressed} further "${message}" warnings were suppressed`,
        );
      }
      window = { startedAt: now, logged: 0, suppressed: 0 };
      // Keys are our own fixed messages, so this map stays a handful of entries.
      this.#windows.set(message, window);
    }
    if (window.logged < this.#warningsPerWindowMax) {
      window.logged += 1;
      this.#logger.warn(fields, message);
    } else {
      window.suppressed += 1;
    }
  }
}

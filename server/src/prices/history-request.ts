import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import { RateLimitedWarnings } from "../feeds/rate-limited-warnings.ts";
import { type Sleep, timerSleep } from "../feeds/sleep.ts";
import type { FeedSource } from "../feeds/tick.ts";
import { provider_reply_bytes_max, readBounded } from "../market-info/provider-request.ts";

/** How one provider's history API is called. Tests shrink the waits; production uses these. */
export interface HistoryRequestLimits {
  /** Deadline of one request: connection, headers and body. */
  request_timeout_ms: number;
  /** Least time between two requests to the provider (its rate limit, with margin). */
  request_interval_ms: number;
  /** Retries of a request the provider failed (5xx, unreachable, too slow). */
  failure_retries_max: number;
  /** First wait before such a retry; it doubles after each. */
  failure_retry_delay_ms_base: number;
  /** Wait after a 429 or 418 that says nothing of when to come back. */
  rate_limited_wait_ms_default: number;
  /**
   * The longest such wait slept through inside one backfill. A longer one (Binance bans an
   * address for minutes to days with 418) ends the backfill; the source then asks nothing
   * until the provider's time has passed.
   */
  rate_limited_wait_ms_max: number;
  /** Rate-limit refusals one request goes through before it gives up. */
  rate_limited_retries_max: number;
}

export const defaultHistoryRequestLimits: HistoryRequestLimits = {
  request_timeout_ms: 10_000,
  request_interval_ms: 100,
  failure_retries_max: 3,
  failure_retry_delay_ms_base: 1_000,
  rate_limited_wait_ms_default: 60_000,
  rate_limited_wait_ms_max: 120_000,
  rate_limited_retries_max: 3,
};

const warnings_per_minute_max = 10;

/**
 * The provider could not give the history now: it kept failing, it rate-limits us for
 * longer than a backfill waits, or it refused the request. The message is safe to log (no
 * key in it); the backfill logs it and tries again at the next gap.
 */
export class HistoryUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HistoryUnavailableError";
  }
}

/** A reply the provider gave: a JSON body (2xx), or a refusal the caller interprets (4xx). */
export type HistoryReply =
  | { kind: "json"; body: unknown }
  /** 2xx whose body is not JSON: the caller skips the page with a warning. */
  | { kind: "not-json"; text: string }
  | { kind: "refused"; status: number; text: string };

export interface HistoryRequestOptions {
  source: FeedSource;
  logger: FastifyBaseLogger;
  clock: Clock;
  /** Strings that must never reach the log (API keys in the URL). */
  secrets?: readonly string[];
  limits?: Partial<HistoryRequestLimits>;
  /** Injected in tests to advance a ManualClock instead of waiting. */
  sleep?: Sleep;
}

/**
 * GETs a provider's history API on behalf of one source: paced to its rate limit (shared
 * by every backfill running at once), backing off on 429/418 as long as the provider says
 * (Retry-After) and asking nothing before then, retrying 5xx and network failures a few
 * times with a doubling wait, and stopping at once when the backfill is aborted.
 */
export class HistoryRequester {
  readonly #source: FeedSource;
  readonly #logger: FastifyBaseLogger;
  readonly #clock: Clock;
  readonly #secrets: readonly string[];
  readonly #limits: HistoryRequestLimits;
  readonly #sleep: Sleep;
  readonly #warnings: RateLimitedWarnings;
  /** When the next request may leave (the pace). */
  #nextRequestAtMs = Number.NEGATIVE_INFINITY;
  /** Nothing is asked before this (the provider's own Retry-After). */
  #pausedUntilMs = Number.NEGATIVE_INFINITY;

  constructor(options: HistoryRequestOptions) {
    this.#source = options.source;
    this.#logger = options.logger.child({ history: options.source });
    this.#clock = options.clock;
    this.#secrets = (options.secrets ?? []).flatMap((secret) =>
      secret === "" ? [] : [secret, encodeURIComponent(secret)],
    );
    this.#limits = { ...defaultHistoryRequestLimits, ...options.limits };
    this.#sleep = options.sleep ?? timerSleep;
    this.#warnings = new RateLimitedWarnings(this.#logger, this.#clock, warnings_per_minute_max);
  }

  get logger(): FastifyBaseLogger {
    return this.#logger;
  }

  /** Warn-level, capped per minute per message (a bad page per symbol must not flood). */
  warn(fields: Record<string, unknown>, message: string): void {
    this.#warnings.warn(fields, message);
  }

  /** `text` with every secret replaced, for logs and error messages. */
  redact(text: string): string {
    let safe = text;
    for (const secret of this.#secrets) safe = safe.replaceAll(secret, "[redacted]");
    return safe;
  }

  async get(url: URL, signal: AbortSignal): Promise<HistoryReply> {
    const loggedUrl = this.redact(url.toString());
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      await this.#awaitTurn(signal);
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          headers: { accept: "application/json" },
          signal: AbortSignal.any([signal, AbortSignal.timeout(this.#limits.request_timeout_ms)]),
          redirect: "error",
        });
        text = await readBounded(response, provider_reply_bytes_max);
      } catch (error) {
        signal.throwIfAborted();
        failures += 1;
        await this.#retryAfterFailure(loggedUrl, this.#describe(error), failures, signal);
        continue;
      }

      const status = response.status;
      if (status === 429 || status === 418) {
        rateLimited += 1;
        const waitMs =
          retryAfterMs(response.headers, this.#clock.now().getTime()) ??
          this.#limits.rate_limited_wait_ms_default;
        this.#pausedUntilMs = Math.max(this.#pausedUntilMs, this.#clock.now().getTime() + waitMs);
        this.warn(
          { url: loggedUrl, status, waitMs },
          status === 418
            ? "history provider banned this address for a while (HTTP 418, it kept asking after 429); pausing history requests"
            : "history provider rate limit reached (HTTP 429); pausing history requests",
        );
        if (rateLimited > this.#limits.rate_limited_retries_max) {
          throw new HistoryUnavailableError(
            `${this.#source}: still rate limited (HTTP ${status}) after ${rateLimited} tries`,
          );
        }
        continue;
      }
      if (status >= 500) {
        failures += 1;
        await this.#retryAfterFailure(
          loggedUrl,
          `HTTP ${status} ${this.redact(text.slice(0, 200))}`,
          failures,
          signal,
        );
        continue;
      }
      if (status < 200 || status >= 300) {
        return { kind: "refused", status, text: this.redact(text) };
      }
      try {
        return { kind: "json", body: JSON.parse(text) };
      } catch {
        return { kind: "not-json", text: `not JSON: ${this.redact(text.slice(0, 200))}` };
      }
    }
  }

  /** Waits for this request's slot in the pace and for any pause the provider asked for. */
  async #awaitTurn(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const nowMs = this.#clock.now().getTime();
    const slotMs = Math.max(nowMs, this.#nextRequestAtMs);
    // Reserved before waiting, so backfills running at once queue up instead of bursting.
    this.#nextRequestAtMs = slotMs + this.#limits.request_interval_ms;
    if (slotMs > nowMs) await this.#sleep(slotMs - nowMs, signal);
    signal.throwIfAborted();
    for (;;) {
      const pausedMs = this.#pausedUntilMs - this.#clock.now().getTime();
      if (pausedMs <= 0) return;
      if (pausedMs > this.#limits.rate_limited_wait_ms_max) {
        throw new HistoryUnavailableError(
          `${this.#source}: the provider asked us to wait ${Math.ceil(pausedMs / 1000)} s more before asking again (rate limit)`,
        );
      }
      await this.#sleep(pausedMs, signal);
      signal.throwIfAborted();
    }
  }

  async #retryAfterFailure(
    loggedUrl: string,
    reason: string,
    failures: number,
    signal: AbortSignal,
  ): Promise<void> {
    if (failures > this.#limits.failure_retries_max) {
      throw new HistoryUnavailableError(
        `${this.#source}: history request failed ${failures} times, last: ${reason}`,
      );
    }
    const delayMs = this.#limits.failure_retry_delay_ms_base * 2 ** (failures - 1);
    this.warn({ url: loggedUrl, reason, failures, delayMs }, "history request failed; retrying");
    await this.#sleep(delayMs, signal);
    signal.throwIfAborted();
  }

  #describe(error: unknown): string {
    if (error instanceof Error) {
      if (error.name === "TimeoutError") {
        return `no reply within ${this.#limits.request_timeout_ms} ms`;
      }
      const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
      return this.redact(`${error.message}${cause}`);
    }
    return this.redact(String(error));
  }
}

/**
 * How long the provider asks us to wait: Retry-After in seconds or as an HTTP date
 * (Binance sends seconds), else Finnhub's X-Ratelimit-Reset (epoch seconds of the reset).
 */
export function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const atMs = Date.parse(retryAfter);
    if (Number.isFinite(atMs)) return Math.max(0, atMs - nowMs);
  }
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - nowMs);
  return undefined;
}

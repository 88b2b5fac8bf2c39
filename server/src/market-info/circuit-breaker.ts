import type { Clock } from "../clock.ts";

export type CircuitState = "closed" | "open" | "half-open";

/** Thrown instead of calling the provider while the circuit is open. */
export class CircuitOpenError extends Error {
  /** How long until the circuit lets a probe through (0: a probe is under way). */
  readonly retryInMs: number;
  constructor(name: string, retryInMs: number) {
    super(`${name}: circuit open, next probe in ${Math.max(0, retryInMs)} ms`);
    this.name = "CircuitOpenError";
    this.retryInMs = Math.max(0, retryInMs);
  }
}

/**
 * Stops hammering a provider that is down, so each request fails fast instead of waiting
 * for a timeout. Closed: calls pass; `failures_to_open` consecutive failures open it.
 * Open: calls fail at once until `cool_down_ms` has passed on the injected clock. Then
 * half-open: exactly one probe call passes (concurrent callers still fail fast); its success
 * closes the circuit, its failure opens it for another cool-down.
 */
export class CircuitBreaker {
  readonly #name: string;
  readonly #clock: Clock;
  readonly #failuresToOpen: number;
  readonly #coolDownMs: number;
  #state: CircuitState = "closed";
  #consecutiveFailures = 0;
  #openedAtMs = 0;
  #probeInFlight = false;

  constructor(options: {
    name: string;
    clock: Clock;
    failures_to_open: number;
    cool_down_ms: number;
  }) {
    if (!(Number.isInteger(options.failures_to_open) && options.failures_to_open >= 1)) {
      throw new Error(`failures_to_open must be a positive integer: ${options.failures_to_open}`);
    }
    this.#name = options.name;
    this.#clock = options.clock;
    this.#failuresToOpen = options.failures_to_open;
    this.#coolDownMs = options.cool_down_ms;
  }

  get state(): CircuitState {
    return this.#state;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const nowMs = this.#clock.now().getTime();
    if (this.#state === "open") {
      const waitedMs = nowMs - this.#openedAtMs;
      if (waitedMs < this.#coolDownMs) {
        throw new CircuitOpenError(this.#name, this.#coolDownMs - waitedMs);
      }
      this.#state = "half-open";
    }
    if (this.#state === "half-open") {
      if (this.#probeInFlight) throw new CircuitOpenError(this.#name, 0);
      this.#probeInFlight = true;
    }
    const probing = this.#state === "half-open";
    try {
      const result = await task();
      this.#state = "closed";
      this.#consecutiveFailures = 0;
      return result;
    } catch (error) {
      this.#consecutiveFailures += 1;
      if (probing || this.#consecutiveFailures >= this.#failuresToOpen) {
        this.#state = "open";
        this.#openedAtMs = this.#clock.now().getTime();
      }
      throw error;
    } finally {
      if (probing) this.#probeInFlight = false;
    }
  }
}

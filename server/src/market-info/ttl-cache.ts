import type { Clock } from "../clock.ts";

/**
 * Successful provider replies, kept for `ttl_ms` on the injected clock, at most
 * `entries_max` keys (the oldest goes first). Concurrent misses on one key share a single
 * load, so a burst of page views makes one provider call. Failures are not cached.
 */
export class TtlCache<T> {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #entriesMax: number;
  readonly #entries = new Map<string, { value: T; expiresAtMs: number }>();
  readonly #loading = new Map<string, Promise<T>>();

  constructor(options: { clock: Clock; ttl_ms: number; entries_max: number }) {
    this.#clock = options.clock;
    this.#ttlMs = options.ttl_ms;
    this.#entriesMax = options.entries_max;
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAtMs > this.#clock.now().getTime()) return entry.value;
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const loading = (async () => {
      try {
        const value = await load();
        this.#entries.delete(key);
        if (this.#entries.size >= this.#entriesMax) {
          const oldest = this.#entries.keys().next();
          if (!oldest.done) this.#entries.delete(oldest.value);
        }
        this.#entries.set(key, { value, expiresAtMs: this.#clock.now().getTime() + this.#ttlMs });
        return value;
      } finally {
        this.#loading.delete(key);
      }
    })();
    this.#loading.set(key, loading);
    return loading;
  }
}

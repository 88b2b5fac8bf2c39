/** Bound on tracked keys, so a flood of distinct addresses cannot grow memory without end. */
const tracked_keys_max = 100_000;

/** One key's attempts in its current window. */
export interface AttemptWindow {
  /** Attempts in this window, this one included. */
  count: number;
  resetAtMs: number;
}

/**
 * Fixed-window attempt counters in this process's memory, shared by the rate limiter and
 * the sign-in throttle. With several processes each keeps its own counts.
 */
export class FixedWindows {
  readonly #windows = new Map<string, AttemptWindow>();

  /** Counts one attempt on `key`; a window that has run out starts again at 0. */
  count(key: string, windowMs: number, nowMs: number): AttemptWindow {
    let window = this.#windows.get(key);
    if (!window || window.resetAtMs <= nowMs) {
      if (this.#windows.size >= tracked_keys_max) this.#prune(nowMs);
      window = { count: 0, resetAtMs: nowMs + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  forget(key: string): void {
    this.#windows.delete(key);
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

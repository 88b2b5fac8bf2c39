import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";

/**
 * A background worker that polls a table for due rows: the e-mail outbox, the push sender
 * and notification delivery are each one of these (workers.ts starts and stops them all).
 */
export interface PollingWorker {
  /**
   * Look for due rows now (after a commit that queued some): a pass starts at once, or,
   * when one is under way, once more right after it (kicks during a pass are coalesced).
   */
  kick(): void;
  /** No pass starts after this; resolves once the pass under way, if any, has ended. */
  stop(): Promise<void>;
}

export interface PollingWorkerOptions {
  /**
   * Claims a batch of the rows due at `now` (FOR UPDATE SKIP LOCKED, so processes never
   * share a row), handles it, and returns how many rows it claimed.
   */
  runBatch(now: Date): Promise<number>;
  /** A pass claims batch after batch while they come back full (this many rows). */
  batch_max: number;
  /** The wait between passes when nobody kicks. */
  poll_interval_ms: number;
  /**
   * A failed pass (the database unreachable, say) is logged and the wait before the next
   * one doubles with each failure in a row, up to this; a pass that succeeds resets it.
   */
  failure_backoff_ms_max: number;
  /** The app's one clock: `now` of each batch comes from it. */
  clock: Clock;
  log: FastifyBaseLogger;
  /** Logged with the error when a pass fails, e.g. "outbox delivery pass failed". */
  failure_message: string;
}

/**
 * Starts polling at once (whatever became due while no process ran is handled first).
 * Passes of one worker never overlap; the process's timers never keep it alive.
 */
export function startPollingWorker(options: PollingWorkerOptions): PollingWorker {
  const { runBatch, batch_max, poll_interval_ms, failure_backoff_ms_max, clock, log } = options;
  if (!(batch_max >= 1 && poll_interval_ms > 0 && failure_backoff_ms_max >= poll_interval_ms)) {
    throw new Error("polling worker: batch_max ≥ 1 and 0 < poll_interval_ms ≤ backoff max");
  }
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let kickedDuringPass = false;
  let failuresInRow = 0;
  let stopped = false;

  async function pass(): Promise<void> {
    for (;;) {
      if (stopped) return;
      const claimed = await runBatch(clock.now());
      if (claimed < batch_max) return;
    }
  }

  function waitAfterPass(): number {
    if (failuresInRow === 0) return poll_interval_ms;
    // 2^failures grows past any backoff in a few dozen failures: cap the exponent too.
    return Math.min(poll_interval_ms * 2 ** Math.min(failuresInRow, 30), failure_backoff_ms_max);
  }

  function schedule(delayMs: number) {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  function run() {
    if (stopped) return;
    if (running) {
      kickedDuringPass = true;
      return;
    }
    clearTimeout(timer);
    running = pass()
      .then(
        () => {
          failuresInRow = 0;
        },
        (error: unknown) => {
          failuresInRow += 1;
          log.error({ err: error }, options.failure_message);
        },
      )
      .finally(() => {
        running = null;
        if (kickedDuringPass) {
          kickedDuringPass = false;
          run();
        } else {
          schedule(waitAfterPass());
        }
      });
  }

  run();

  return {
    kick: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

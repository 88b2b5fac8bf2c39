import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../src/clock.ts";
import {
  type PollingWorker,
  type PollingWorkerOptions,
  startPollingWorker,
} from "../src/workers/polling-worker.ts";
import { captureLog } from "./feeds/support/capture-log.ts";

/** A promise the test resolves when it chooses: a batch that is "still running". */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Lets every promise callback that is ready run, without moving the timers. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("startPollingWorker", () => {
  const started: PollingWorker[] = [];
  const clock = new ManualClock(new Date("2030-01-01T00:00:00Z"));

  function start(options: Partial<PollingWorkerOptions> & Pick<PollingWorkerOptions, "runBatch">) {
    const worker = startPollingWorker({
      batch_max: 3,
      poll_interval_ms: 100,
      failure_backoff_ms_max: 400,
      clock,
      log: captureLog().logger,
      failure_message: "test pass failed",
      ...options,
    });
    started.push(worker);
    return worker;
  }

  beforeEach(() => {
    // Only the timers are fake: the worker's time for due rows is the manual clock's.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(async () => {
    for (const worker of started.splice(0)) await worker.stop();
    vi.useRealTimers();
  });

  it("claims batch after batch while they come back full, each at the clock's now", async () => {
    const sizes = [3, 3, 1];
    const nows: number[] = [];
    start({
      runBatch: async (now) => {
        nows.push(now.getTime());
        clock.advance(5);
        return sizes.shift() ?? 0;
      },
    });
    await settle();
    const startMs = Date.parse("2030-01-01T00:00:00Z");
    expect(nows).toEqual([startMs, startMs + 5, startMs + 10]);
    // The pass ended on a short batch: the next look is one poll interval later.
    await vi.advanceTimersByTimeAsync(99);
    expect(nows).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(nows).toHaveLength(4);
  });

  it("backs off after failed passes, doubling up to the maximum, and resets on success", async () => {
    const log = captureLog();
    const calledAt: number[] = [];
    let failuresLeft = 4;
    start({
      log: log.logger,
      runBatch: async () => {
        calledAt.push(Date.now());
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error("database unreachable");
        }
        return 0;
      },
    });
    await vi.advanceTimersByTimeAsync(1_550);
    const gaps = calledAt.slice(1).map((at, index) => at - calledAt[index]!);
    // Four failures: 200, 400, then capped at 400 twice; after the success, 100 again.
    expect(gaps).toEqual([200, 400, 400, 400, 100]);
    const failures = log.entries().filter((entry) => entry.msg === "test pass failed");
    expect(failures).toHaveLength(4);
    expect(log.text()).toContain("database unreachable");
  });

  it("runs at once when kicked, and once more (not once per kick) when kicked mid-pass", async () => {
    let calls = 0;
    let hold: ReturnType<typeof deferred> | null = null;
    const worker = start({
      poll_interval_ms: 60_000,
      failure_backoff_ms_max: 60_000,
      runBatch: async () => {
        calls += 1;
        if (hold) await hold.promise;
        return 0;
      },
    });
    await settle();
    expect(calls).toBe(1);

    worker.kick();
    await settle();
    expect(calls).toBe(2);

    hold = deferred();
    worker.kick();
    await settle();
    expect(calls).toBe(3);
    worker.kick();
    worker.kick();
    worker.kick();
    await settle();
    expect(calls).toBe(3);
    const held = hold;
    hold = null;
    held.resolve();
    await settle();
    expect(calls).toBe(4);
    await settle();
    expect(calls).toBe(4);
  });

  it("stop waits for the batch under way and starts nothing after it", async () => {
    let calls = 0;
    const hold = deferred();
    const worker = start({
      runBatch: async () => {
        calls += 1;
        await hold.promise;
        // A full batch: without the stop, the pass would claim another at once.
        return 3;
      },
    });
    await settle();
    expect(calls).toBe(1);

    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);

    hold.resolve();
    await stopping;
    expect(stopped).toBe(true);
    worker.kick();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { createRequestBatcher } from "../src/db/request-batcher.ts";

/** A run that records each batch and answers when released. */
function recordingRun() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  return {
    batches,
    releaseAll() {
      for (const release of releases.splice(0)) release();
    },
    run: (requests: number[]) =>
      new Promise<number[]>((resolve) => {
        batches.push(requests);
        releases.push(() => resolve(requests.map((request) => request * 10)));
      }),
  };
}

describe("createRequestBatcher", () => {
  it("sends a lone request at once, then groups what arrives while calls run", async () => {
    const recorder = recordingRun();
    const batcher = createRequestBatcher({ run: recorder.run, batchMax: 3, inFlightMax: 1 });
    const first = batcher.submit(1);
    expect(recorder.batches).toEqual([[1]]);
    const rest = [2, 3, 4, 5, 6].map((request) => batcher.submit(request));
    expect(recorder.batches).toEqual([[1]]);
    recorder.releaseAll();
    expect(await first).toBe(10);
    await Promise.resolve();
    expect(recorder.batches).toEqual([[1], [2, 3, 4]]);
    for (let round = 0; round < 3; round++) {
      recorder.releaseAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(rest)).toEqual([20, 30, 40, 50, 60]);
    expect(recorder.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("is idle at once with nothing to do, and otherwise only after every waiting request's call has answered", async () => {
    const recorder = recordingRun();
    const batcher = createRequestBatcher({ run: recorder.run, batchMax: 2, inFlightMax: 1 });
    await batcher.idle();
    const answers = [1, 2, 3].map((request) => batcher.submit(request));
    let idle = false;
    void batcher.idle().then(() => {
      idle = true;
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    recorder.releaseAll();
    await turn();
    // [1] answered, [2, 3] running: not idle yet (a shutdown would cut that call).
    expect(recorder.batches).toEqual([[1], [2, 3]]);
    expect(idle).toBe(false);
    recorder.releaseAll();
    await turn();
    expect(idle).toBe(true);
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
  });

  it("starts the next call before it answers the finished call's requests", async () => {
    const recorder = recordingRun();
    const batcher = createRequestBatcher({ run: recorder.run, batchMax: 10, inFlightMax: 1 });
    // What had been sent when the first request's answer arrived.
    let sentWhenAnswered: number[][] = [];
    const first = batcher.submit(1).then((answer) => {
      sentWhenAnswered = recorder.batches.map((batch) => [...batch]);
      return answer;
    });
    const rest = [2, 3].map((request) => batcher.submit(request));
    recorder.releaseAll();
    expect(await first).toBe(10);
    // The database already works on [2, 3] while this process writes the first reply.
    expect(sentWhenAnswered).toEqual([[1], [2, 3]]);
    recorder.releaseAll();
    expect(await Promise.all(rest)).toEqual([20, 30]);
  });

  it("with a call running, starts another only once overlapBatchMin requests wait", async () => {
    const recorder = recordingRun();
    const batcher = createRequestBatcher({
      run: recorder.run,
      batchMax: 10,
      inFlightMax: 2,
      overlapBatchMin: 3,
    });
    const answers = [batcher.submit(1)];
    expect(recorder.batches).toEqual([[1]]);
    answers.push(batcher.submit(2), batcher.submit(3));
    // Two waiting, one call running: they wait for it.
    expect(recorder.batches).toEqual([[1]]);
    answers.push(batcher.submit(4));
    // Three: a second call starts beside the first, with all three.
    expect(recorder.batches).toEqual([[1], [2, 3, 4]]);
    answers.push(batcher.submit(5));
    // Two calls running (inFlightMax): the fifth waits whatever the count.
    expect(recorder.batches).toHaveLength(2);
    recorder.releaseAll();
    await new Promise((resolve) => setImmediate(resolve));
    // Nothing running any more: a lone request goes at once, overlap or not.
    expect(recorder.batches).toEqual([[1], [2, 3, 4], [5]]);
    recorder.releaseAll();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
  });

  it("never puts two requests with one exclusive key in the same call", async () => {
    const recorder = recordingRun();
    const batcher = createRequestBatcher({
      run: recorder.run,
      batchMax: 10,
      inFlightMax: 1,
      exclusiveKey: (request: number) => (request % 2 === 0 ? "even" : null),
    });
    const answers = [1, 2, 3, 4, 5].map((request) => batcher.submit(request));
    for (let round = 0; round < 4; round++) {
      recorder.releaseAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
    expect(recorder.batches).toEqual([[1], [2, 3, 5], [4]]);
  });

  it("fails every request of a failed call, and goes on with the next", async () => {
    let calls = 0;
    const batcher = createRequestBatcher({
      batchMax: 10,
      inFlightMax: 1,
      run: async (requests: number[]) => {
        calls += 1;
        if (calls === 2) throw new Error("database gone");
        return requests;
      },
    });
    const first = batcher.submit(1);
    const failing = [batcher.submit(2), batcher.submit(3)];
    expect(await first).toBe(1);
    for (const answer of failing) await expect(answer).rejects.toThrow("database gone");
    expect(await batcher.submit(4)).toBe(4);
  });
});

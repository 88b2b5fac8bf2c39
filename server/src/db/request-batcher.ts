/**
 * Application-level batching of one kind of database call. Requests that arrive while
 * earlier calls are running wait and go together in the next call: one round trip, one
 * plan (and, for writes, one commit) for the lot, each request still with its own answer.
 * With nothing running a request goes at once, alone, so a quiet process pays no extra
 * latency; under load the batches grow by themselves.
 */
export interface RequestBatcher<Request, Answer> {
  submit(request: Request): Promise<Answer>;
  /**
   * Resolves once no request waits and no call runs (at once when idle): a shutdown waits
   * for it before closing the database, so every call it started has committed or failed.
   */
  idle(): Promise<void>;
}

export interface RequestBatcherOptions<Request, Answer> {
  /** Answers the requests of one batch, in their order (one answer each). */
  run(requests: Request[]): Promise<Answer[]>;
  /** Most requests per call: bounds a call's duration (and its locks). */
  batchMax: number;
  /**
   * Calls running at once: more than one, so a call's commit overlaps the next call's
   * work; few, so requests queue into batches instead of into the connection pool.
   */
  inFlightMax: number;
  /**
   * With a call already running, another starts only once this many requests wait (default
   * 1: at once). It then overlaps the running call's commit and the trip of its answers,
   * which otherwise leave the database idle between calls; below this many it would pay a
   * call's fixed cost for a few requests, which the running call's end picks up anyway.
   */
  overlapBatchMin?: number;
  /** Requests with the same key never share a call: the later waits for the next one. */
  exclusiveKey?(request: Request): string | null;
}

interface Waiting<Request, Answer> {
  request: Request;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

export function createRequestBatcher<Request, Answer>(
  options: RequestBatcherOptions<Request, Answer>,
): RequestBatcher<Request, Answer> {
  let waiting: Array<Waiting<Request, Answer>> = [];
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];

  function settleIdle() {
    if (inFlight > 0 || waiting.length > 0) return;
    const resolved = idleWaiters;
    idleWaiters = [];
    for (const resolve of resolved) resolve();
  }

  const overlapBatchMin = options.overlapBatchMin ?? 1;

  function flush() {
    while (
      inFlight < options.inFlightMax &&
      waiting.length >= (inFlight === 0 ? 1 : overlapBatchMin)
    ) {
      const batch: Array<Waiting<Request, Answer>> = [];
      const later: Array<Waiting<Request, Answer>> = [];
      const keys = new Set<string>();
      for (const entry of waiting) {
        const key = options.exclusiveKey?.(entry.request) ?? null;
        if (batch.length >= options.batchMax || (key !== null && keys.has(key))) {
          later.push(entry);
          continue;
        }
        if (key !== null) keys.add(key);
        batch.push(entry);
      }
      waiting = later;
      inFlight += 1;
      void run(batch);
    }
  }

  async function run(batch: Array<Waiting<Request, Answer>>) {
    let answers: Answer[] | null = null;
    let failure: unknown = null;
    try {
      answers = await options.run(batch.map((entry) => entry.request));
      if (answers.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} requests got ${answers.length} answers`);
      }
    } catch (error) {
      answers = null;
      failure = error;
    }
    // The call is over: the next one starts before this one's requests are answered, so the
    // database works on the next batch while this process writes the replies (answering
    // first left the database idle for as long as the replies took).
    inFlight -= 1;
    flush();
    if (answers === null) {
      for (const entry of batch) entry.reject(failure);
    } else {
      for (const [index, answer] of answers.entries()) batch[index]!.resolve(answer);
    }
    settleIdle();
  }

  return {
    submit(request) {
      return new Promise<Answer>((resolve, reject) => {
        waiting.push({ request, resolve, reject });
        flush();
      });
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
  };
}

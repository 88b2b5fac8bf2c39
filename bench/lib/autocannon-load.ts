// The maximum rate as a well-known client measures it (issue 16): autocannon, in this
// process, N keep-alive connections back to back, each request built by `next` (its own
// trader's token, its own Idempotency-Key), so the client's cost is a good client's.
import autocannon from "autocannon";

export interface AutocannonRequest {
  body: Buffer;
  headers: Record<string, string>;
}

export interface AutocannonOutcome {
  requestsPerSecond: number;
  /** 2xx replies. */
  completed: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  elapsedS: number;
}

export async function autocannonMax(options: {
  url: string;
  path: string;
  connections: number;
  durationS: number;
  next: (sequence: number) => AutocannonRequest;
}): Promise<AutocannonOutcome> {
  let sequence = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: options.path,
        setupRequest: (request) => {
          const built = options.next(sequence++);
          return {
            ...request,
            method: "POST",
            path: options.path,
            headers: {
              ...built.headers,
              "content-type": "application/json",
            },
            body: built.body,
          };
        },
      },
    ],
  });
  const completed = result["2xx"];
  return {
    requestsPerSecond: completed / result.duration,
    completed,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    elapsedS: result.duration,
  };
}

// HTTP load over keep-alive connections (node:http with a keep-alive Agent capped at N
// sockets): a closed loop (N workers, each sends the next request when its reply is in) for
// the maximum rate, and an open loop (requests on a fixed schedule) for latency at a rate.
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface RequestSpec {
  path: string;
  body: Buffer;
  token: string;
  /** Sent as the Idempotency-Key header (as the web app sends one with every trade). */
  idempotencyKey?: string;
}

export interface LoadOutcome {
  sent: number;
  completed: number;
  elapsedS: number;
  /** Latency of each completed 2xx request, ms. */
  latenciesMs: number[];
  /** Status code (or "network") → count, for non-2xx replies. */
  failures: Record<string, number>;
  /** Open loop only: requests not sent because too many were already waiting. */
  skipped: number;
}

export function keepAliveAgent(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

function send(
  agent: http.Agent,
  base: URL,
  spec: RequestSpec,
): Promise<{ status: number | "network" }> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: spec.path,
        headers: {
          "content-type": "application/json",
          "content-length": spec.body.length,
          authorization: `Bearer ${spec.token}`,
          ...(spec.idempotencyKey ? { "idempotency-key": spec.idempotencyKey } : {}),
        },
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.on("error", () => resolve({ status: "network" }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", () => resolve({ status: "network" }));
    request.end(spec.body);
  });
}

function record(outcome: LoadOutcome, status: number | "network", latencyMs: number) {
  outcome.completed += 1;
  if (typeof status === "number" && status >= 200 && status < 300) {
    outcome.latenciesMs.push(latencyMs);
  } else {
    outcome.failures[String(status)] = (outcome.failures[String(status)] ?? 0) + 1;
  }
}

export function emptyOutcome(): LoadOutcome {
  return { sent: 0, completed: 0, elapsedS: 0, latenciesMs: [], failures: {}, skipped: 0 };
}

/** N workers back to back for `durationMs` (or `maxRequests`, whichever comes first). */
export async function closedLoop(options: {
  baseUrl: string;
  agent: http.Agent;
  workers: number;
  durationMs: number;
  maxRequests: number;
  next: (sequence: number) => RequestSpec;
}): Promise<LoadOutcome> {
  const base = new URL(options.baseUrl);
  const outcome = emptyOutcome();
  const started = performance.now();
  const deadline = started + options.durationMs;
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (performance.now() < deadline && outcome.sent < options.maxRequests) {
        const spec = options.next(outcome.sent);
        outcome.sent += 1;
        const begin = performance.now();
        const { status } = await send(options.agent, base, spec);
        record(outcome, status, performance.now() - begin);
      }
    }),
  );
  outcome.elapsedS = (performance.now() - started) / 1000;
  return outcome;
}

/**
 * An open loop's schedule: from `started`, a request every 1/`ratePerSecond` s for
 * `durationMs`, each handed to `sendDue` with the time it was due (latency counts from it, so
 * queueing behind busy connections is included, not hidden); skipped, and counted, while
 * `outstanding()` is at `maxOutstanding`. Returns once the last is handed over.
 */
export async function onSchedule(
  options: {
    ratePerSecond: number;
    durationMs: number;
    maxOutstanding: number;
    next: (sequence: number) => RequestSpec;
  },
  started: number,
  outcome: LoadOutcome,
  outstanding: () => number,
  sendDue: (dueAt: number, spec: RequestSpec) => void,
): Promise<void> {
  const intervalMs = 1000 / options.ratePerSecond;
  const total = Math.floor((options.durationMs / 1000) * options.ratePerSecond);
  let scheduled = 0;
  while (scheduled < total && performance.now() - started < options.durationMs + 5_000) {
    const now = performance.now();
    while (scheduled < total && started + scheduled * intervalMs <= now) {
      const dueAt = started + scheduled * intervalMs;
      scheduled += 1;
      if (outstanding() >= options.maxOutstanding) {
        outcome.skipped += 1;
        continue;
      }
      const spec = options.next(outcome.sent);
      outcome.sent += 1;
      sendDue(dueAt, spec);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Requests at `ratePerSecond` on a fixed schedule for `durationMs` (see onSchedule). */
export async function openLoop(options: {
  baseUrl: string;
  agent: http.Agent;
  ratePerSecond: number;
  durationMs: number;
  maxOutstanding: number;
  next: (sequence: number) => RequestSpec;
}): Promise<LoadOutcome> {
  const base = new URL(options.baseUrl);
  const outcome = emptyOutcome();
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  await onSchedule(
    options,
    started,
    outcome,
    () => inFlight.size,
    (dueAt, spec) => {
      const request = send(options.agent, base, spec).then(({ status }) => {
        record(outcome, status, performance.now() - dueAt);
        inFlight.delete(request);
      });
      inFlight.add(request);
    },
  );
  await Promise.all(inFlight);
  outcome.elapsedS = (performance.now() - started) / 1000;
  return outcome;
}

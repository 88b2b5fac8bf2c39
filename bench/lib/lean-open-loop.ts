// An open loop (requests on a fixed schedule) over raw keep-alive TCP connections, the way
// autocannon drives them: each request is written as one ready-made buffer and each reply is
// read only as far as its status line and Content-Length. node:http's client spends ~120 µs
// of CPU a request here (its agent, header objects, the response stream), a quarter of the
// server's at half the maximum rate on the same 2 cores; autocannon cannot replace it for
// latency, because it rate-limits by per-second budgets (each connection sends its second's
// share at once), not by a schedule.
import net from "node:net";
import { performance } from "node:perf_hooks";
import { emptyOutcome, type LoadOutcome, onSchedule, type RequestSpec } from "./http-load.ts";

interface Connection {
  socket: net.Socket;
  buffered: Buffer;
  /** The request in flight on it: when it was due, or null when idle. */
  dueAt: number | null;
}

const header_end = Buffer.from("\r\n\r\n");

/** Status and total length of the first complete reply in `data`, or null if incomplete. */
function completeReply(data: Buffer): { status: number; length: number } | null {
  const end = data.indexOf(header_end);
  if (end < 0) return null;
  const head = data.toString("latin1", 0, end);
  const status = Number(head.slice(9, 12));
  const match = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (!match) throw new Error(`a reply without Content-Length: ${head.slice(0, 200)}`);
  const length = end + header_end.length + Number(match[1]);
  return data.length >= length ? { status, length } : null;
}

function requestBytes(host: string, spec: RequestSpec): Buffer {
  const head =
    `POST ${spec.path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${spec.body.length}\r\nAuthorization: Bearer ${spec.token}\r\n` +
    (spec.idempotencyKey ? `Idempotency-Key: ${spec.idempotencyKey}\r\n` : "") +
    "\r\n";
  return Buffer.concat([Buffer.from(head, "latin1"), spec.body]);
}

/**
 * Requests at `ratePerSecond` on a fixed schedule for `durationMs`, over `connections`
 * keep-alive connections, one request at a time on each; latency counts from the scheduled
 * send time, so waiting for a free connection is included, not hidden.
 */
export async function leanOpenLoop(options: {
  baseUrl: string;
  connections: number;
  ratePerSecond: number;
  durationMs: number;
  maxOutstanding: number;
  next: (sequence: number) => RequestSpec;
  /** Told of each 2xx reply: when it was due (ms after the start) and its latency. */
  onReply?: (dueAfterStartMs: number, latencyMs: number) => void;
  /** Called as the schedule starts (its connections open), with performance.now(). */
  onStart?: (startedMs: number) => void;
}): Promise<LoadOutcome> {
  const base = new URL(options.baseUrl);
  const host = base.host;
  const outcome = emptyOutcome();
  let started = performance.now();
  const idle: Connection[] = [];
  /** Due requests waiting for a free connection, oldest first. */
  const queued: Array<{ dueAt: number; bytes: Buffer }> = [];
  let outstanding = 0;
  let onDrained: (() => void) | null = null;

  const finish = (status: number | "network", dueAt: number) => {
    outstanding -= 1;
    outcome.completed += 1;
    if (typeof status === "number" && status >= 200 && status < 300) {
      const latencyMs = performance.now() - dueAt;
      outcome.latenciesMs.push(latencyMs);
      options.onReply?.(dueAt - started, latencyMs);
    } else {
      outcome.failures[String(status)] = (outcome.failures[String(status)] ?? 0) + 1;
    }
    if (outstanding === 0) onDrained?.();
  };
  const dispatch = (connection: Connection) => {
    const request = queued.shift();
    if (!request) {
      connection.dueAt = null;
      idle.push(connection);
      return;
    }
    connection.dueAt = request.dueAt;
    connection.socket.write(request.bytes);
  };

  const connections = await Promise.all(
    Array.from(
      { length: options.connections },
      () =>
        new Promise<Connection>((resolve, reject) => {
          const socket = net.connect({ host: base.hostname, port: Number(base.port) });
          socket.setNoDelay(true);
          const connection: Connection = { socket, buffered: Buffer.alloc(0), dueAt: null };
          socket.once("connect", () => resolve(connection));
          socket.once("error", reject);
        }),
    ),
  );
  for (const connection of connections) {
    connection.socket.removeAllListeners("error");
    connection.socket.on("data", (chunk: Buffer) => {
      connection.buffered =
        connection.buffered.length === 0 ? chunk : Buffer.concat([connection.buffered, chunk]);
      const reply = completeReply(connection.buffered);
      if (!reply || connection.dueAt === null) return;
      connection.buffered = connection.buffered.subarray(reply.length);
      const dueAt = connection.dueAt;
      dispatch(connection);
      finish(reply.status, dueAt);
    });
    const lost = () => {
      const index = idle.indexOf(connection);
      if (index >= 0) idle.splice(index, 1);
      if (connection.dueAt !== null) {
        const dueAt = connection.dueAt;
        connection.dueAt = null;
        finish("network", dueAt);
      }
    };
    connection.socket.on("error", lost);
    connection.socket.on("close", lost);
    idle.push(connection);
  }

  started = performance.now();
  options.onStart?.(started);
  await onSchedule(
    options,
    started,
    outcome,
    () => outstanding,
    (dueAt, spec) => {
      outstanding += 1;
      queued.push({ dueAt, bytes: requestBytes(host, spec) });
      const connection = idle.pop();
      if (connection) dispatch(connection);
    },
  );
  if (outstanding > 0) {
    await new Promise<void>((resolve) => {
      onDrained = resolve;
      setTimeout(resolve, 30_000);
    });
  }
  outcome.elapsedS = (performance.now() - started) / 1000;
  for (const connection of connections) connection.socket.destroy();
  return outcome;
}

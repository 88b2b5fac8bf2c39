// Starts bench/platform-child.ts (or the stream bench's minimal ws server) in its own process
// and calls its API over IPC.
import { type ChildProcess, fork } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { serverNodeFlags } from "../../scripts/server-node-flags.mjs";
import type { MinimalWsApi } from "../minimal-ws-child.ts";
import type { ChildApi } from "../platform-child.ts";

const childEntry = fileURLToPath(new URL("../platform-child.ts", import.meta.url));
const minimalWsEntry = fileURLToPath(new URL("../minimal-ws-child.ts", import.meta.url));
const start_timeout_ms = 60_000;

export interface PlatformChild {
  pid: number;
  baseUrl: string;
  databaseUrl: string;
  databaseName: string;
  logFile: string;
  call: ChildProcessHandle<ChildApi>["call"];
  /** Warn-or-worse lines the server logged (pino JSON, level >= 40). */
  warnings(): { count: number; sample: string[] };
  close(): Promise<void>;
}

export function adminDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

/**
 * Starts the platform in a child process. `redisUrl`: on the Redis bus. `joinDatabaseUrl`:
 * a second process of the platform on that database (the first one's), which therefore
 * leaves it alone on close. `env` adds to the child's environment: the soak's BENCH_CHILD_*
 * settings (see platform-child.ts).
 */
export async function startPlatformChild(
  label: string,
  options: { redisUrl?: string; joinDatabaseUrl?: string; env?: Record<string, string> } = {},
): Promise<PlatformChild> {
  const {
    process: child,
    call,
    logFile,
    exited,
  } = await startChildProcess<ChildApi>(childEntry, label, {
    ...(options.redisUrl ? { BENCH_CHILD_REDIS_URL: options.redisUrl } : {}),
    ...(options.joinDatabaseUrl ? { BENCH_CHILD_JOIN_DATABASE_URL: options.joinDatabaseUrl } : {}),
    ...options.env,
  });
  const info = await call("info");
  const databaseName = new URL(info.databaseUrl).pathname.slice(1);
  return {
    pid: info.pid,
    baseUrl: info.baseUrl,
    databaseUrl: info.databaseUrl,
    databaseName,
    logFile,
    call,
    warnings: () => warningsOf(logFile),
    async close() {
      await closeChild(child, exited, () => call("close", undefined, 30_000));
      // The child drops its database on close; make sure, in case it was killed. A joining
      // process's database is the first process's, dropped by that one.
      if (!options.joinDatabaseUrl) await dropDatabase(databaseName);
    },
  };
}

/** A child process speaking the IPC protocol of bench/platform-child.ts (`{ id, method }`). */
export interface ChildProcessHandle<Api> {
  process: ChildProcess;
  logFile: string;
  exited: () => boolean;
  call<M extends keyof Api & string>(
    method: M,
    params?: ApiParams<Api, M>,
    timeoutMs?: number,
  ): Promise<ApiResult<Api, M>>;
}

type ApiParams<Api, M extends keyof Api> = Api[M] extends (...args: infer A) => unknown
  ? A extends [infer P]
    ? P
    : undefined
  : never;
type ApiResult<Api, M extends keyof Api> = Api[M] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;

export async function startChildProcess<Api>(
  entry: string,
  label: string,
  env: Record<string, string>,
): Promise<ChildProcessHandle<Api>> {
  const logFile = path.join(tmpdir(), `bench-${label}-${Date.now().toString(36)}.log`);
  const logFd = openSync(logFile, "a");
  const child: ChildProcess = fork(entry, [], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    // BENCH_CHILD_NODE_ARGS adds Node flags to the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
    execArgv: [
      "--import",
      "tsx",
      "--expose-gc",
      // As in production (npm start, the service): the server's own flags.
      ...serverNodeFlags,
      ...(process.env.BENCH_CHILD_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      DATABASE_URL: adminDatabaseUrl(),
      BENCH_SERVER_LOG_LEVEL: "warn",
      RATE_LIMIT_FACTOR: "0",
      ...env,
    },
    stdio: ["ignore", logFd, logFd, "ipc"],
  });
  closeSync(logFd);
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  let nextId = 1;
  let exited = false;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} child did not start in time; see ${logFile}`)),
      start_timeout_ms,
    );
    child.on("message", (message: { ready?: boolean; id?: number; ok?: boolean } & object) => {
      if (message.ready) {
        clearTimeout(timer);
        resolve();
        return;
      }
      const reply = message as { id: number; ok: boolean; result?: unknown; error?: string };
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      clearTimeout(waiter.timer);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new Error(`${label} child: ${reply.error}`));
    });
    child.once("exit", (code) => {
      exited = true;
      clearTimeout(timer);
      reject(new Error(`${label} child exited with ${code}; see ${logFile}`));
      for (const waiter of pending.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`${label} child exited with ${code}; see ${logFile}`));
      }
      pending.clear();
    });
  });
  await ready;

  function call<M extends keyof Api & string>(
    method: M,
    params?: ApiParams<Api, M>,
    timeoutMs = 60_000,
  ): Promise<ApiResult<Api, M>> {
    if (exited) return Promise.reject(new Error("child process has exited"));
    const id = nextId++;
    return new Promise<ApiResult<Api, M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${label} child: ${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      child.send({ id, method, params: params ?? {} });
    });
  }
  return { process: child, logFile, exited: () => exited, call };
}

/** Warn-or-worse lines a child logged (pino JSON, level >= 40; other lines count too). */
function warningsOf(logFile: string): { count: number; sample: string[] } {
  const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  const serious = lines.filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 40;
    } catch {
      return true;
    }
  });
  return { count: serious.length, sample: serious.slice(0, 3).map((l) => l.slice(0, 300)) };
}

/** Asks the child to close, then waits for it to exit (killing it after 10 s). */
async function closeChild(
  child: ChildProcess,
  exited: () => boolean,
  close: () => Promise<unknown>,
) {
  if (exited()) return;
  await close().catch(() => {});
  await new Promise<void>((resolve) => {
    if (exited()) return resolve();
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The minimal ws server of the stream bench (bench/minimal-ws-child.ts) in its own process. */
export interface MinimalWsChild {
  pid: number;
  baseUrl: string;
  logFile: string;
  call: ChildProcessHandle<MinimalWsApi>["call"];
  warnings(): { count: number; sample: string[] };
  close(): Promise<void>;
}

export async function startMinimalWsChild(label: string): Promise<MinimalWsChild> {
  const handle = await startChildProcess<MinimalWsApi>(minimalWsEntry, label, {});
  const info = await handle.call("info");
  return {
    pid: info.pid,
    baseUrl: info.baseUrl,
    logFile: handle.logFile,
    call: handle.call,
    warnings: () => warningsOf(handle.logFile),
    close: () =>
      closeChild(handle.process, handle.exited, () => handle.call("close", undefined, 10_000)),
  };
}

export async function dropDatabase(name: string) {
  if (!/^tp_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

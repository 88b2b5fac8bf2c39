// Starts bench/platform-child.ts in its own process and calls its API over IPC.
import { type ChildProcess, fork } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { ChildApi, ChildMethod } from "../platform-child.ts";

const childEntry = fileURLToPath(new URL("../platform-child.ts", import.meta.url));
const start_timeout_ms = 60_000;

type Params<M extends ChildMethod> = Parameters<ChildApi[M]> extends [infer P] ? P : undefined;
type Result<M extends ChildMethod> = Awaited<ReturnType<ChildApi[M]>>;

export interface PlatformChild {
  pid: number;
  baseUrl: string;
  databaseUrl: string;
  databaseName: string;
  logFile: string;
  call<M extends ChildMethod>(
    method: M,
    params?: Params<M>,
    timeoutMs?: number,
  ): Promise<Result<M>>;
  /** Warn-or-worse lines the server logged (pino JSON, level >= 40). */
  warnings(): { count: number; sample: string[] };
  close(): Promise<void>;
}

export function adminDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

export async function startPlatformChild(label: string): Promise<PlatformChild> {
  const logFile = path.join(tmpdir(), `bench-${label}-${Date.now().toString(36)}.log`);
  const logFd = openSync(logFile, "a");
  const child: ChildProcess = fork(childEntry, [], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    // BENCH_CHILD_NODE_ARGS adds Node flags to the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
    execArgv: [
      "--import",
      "tsx",
      "--expose-gc",
      ...(process.env.BENCH_CHILD_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      DATABASE_URL: adminDatabaseUrl(),
      BENCH_SERVER_LOG_LEVEL: "warn",
      RATE_LIMIT_FACTOR: "0",
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
      () => reject(new Error(`platform child did not start in time; see ${logFile}`)),
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
      else waiter.reject(new Error(`platform child: ${reply.error}`));
    });
    child.once("exit", (code) => {
      exited = true;
      clearTimeout(timer);
      reject(new Error(`platform child exited with ${code}; see ${logFile}`));
      for (const waiter of pending.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`platform child exited with ${code}; see ${logFile}`));
      }
      pending.clear();
    });
  });
  await ready;

  function call<M extends ChildMethod>(
    method: M,
    params?: Params<M>,
    timeoutMs = 60_000,
  ): Promise<Result<M>> {
    if (exited) return Promise.reject(new Error("platform child has exited"));
    const id = nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`platform child: ${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      child.send({ id, method, params: params ?? {} });
    });
  }

  const info = await call("info");
  const databaseName = new URL(info.databaseUrl).pathname.slice(1);
  return {
    pid: info.pid,
    baseUrl: info.baseUrl,
    databaseUrl: info.databaseUrl,
    databaseName,
    logFile,
    call,
    warnings() {
      const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
      const serious = lines.filter((line) => {
        try {
          return (JSON.parse(line) as { level?: number }).level! >= 40;
        } catch {
          return true;
        }
      });
      return { count: serious.length, sample: serious.slice(0, 3).map((l) => l.slice(0, 300)) };
    },
    async close() {
      if (!exited) {
        await call("close", undefined, 30_000).catch(() => {});
        await new Promise<void>((resolve) => {
          if (exited) return resolve();
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
      // The child drops its database on close; make sure, in case it was killed.
      await dropDatabase(databaseName);
    },
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

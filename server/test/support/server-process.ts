import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer } from "node:net";
import { fileURLToPath } from "node:url";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
}

/**
 * A real server process (`server/src/main.ts`) with the given settings, on `env.PORT` when
 * given (a load balancer's configuration names it before the process starts), else a free port.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // One process (no tsx wrapper), so a signal reaches the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "server/src/main.ts"], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      RATE_LIMIT_FACTOR: "0",
      LOG_LEVEL: "warn",
      SMTP_URL: "",
      // Suites register traders from the United Kingdom, restricted by default.
      RESTRICTED_COUNTRIES: "",
      // No load balancer polls these processes: a stop need not wait for one to notice.
      // Suites that test draining behind one (readiness.test.ts) set their own delay.
      SHUTDOWN_READINESS_DELAY_MS: "0",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited };
}

export async function waitHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${server.baseUrl}/api/v1/health`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${server.baseUrl} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function health(
  server: ServerProcess,
): Promise<{ feeds_ingested: string[]; bus: string }> {
  const reply = await fetch(`${server.baseUrl}/api/v1/health`);
  return ((await reply.json()) as { data: { feeds_ingested: string[]; bus: string } }).data;
}

export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null) server.child.kill("SIGTERM");
  await server.exited;
}

/** A private Redis server (the real binary) on a free port, to be killed and restarted. */
export interface RedisProcess {
  url: string;
  port: number;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export async function startRedisProcess(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  async function start() {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      const reachable = await new Promise<boolean>((resolve) => {
        const socket = connect(port, "127.0.0.1");
        socket.once("connect", () => {
          socket.end();
          resolve(true);
        });
        socket.once("error", () => resolve(false));
      });
      if (reachable) return;
      if (Date.now() > deadline) throw new Error("redis-server did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  async function kill() {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  }
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, restart: start };
}

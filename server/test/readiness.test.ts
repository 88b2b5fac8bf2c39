import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { openPgliteDatabase } from "../src/db/pglite-database.ts";
import { openPostgresDatabase } from "../src/db/postgres-database.ts";
import { Readiness } from "../src/http/readiness.ts";
import { checkLedger } from "../src/ledger/ledger.ts";
import {
  createMigratedPostgresDatabase,
  databaseKindsUnderTest,
  type FreshPostgres,
} from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { type HttpReply, httpClient, newTrader } from "./support/http.ts";
import {
  type RedisProcess,
  startRedisProcess,
  startServerProcess,
  waitHealthy,
} from "./support/server-process.ts";
import { StreamClient } from "./support/stream-client.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls GET /ready until `done` holds for its reply; fails past the deadline. */
async function readyUntil(
  baseUrl: string,
  done: (reply: HttpReply) => boolean,
  timeoutMs = 10_000,
): Promise<HttpReply> {
  const http = httpClient(baseUrl);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await http.get("/api/v1/ready");
    if (done(reply)) return reply;
    if (Date.now() > deadline) {
      throw new Error(`/ready never turned as expected; last: ${reply.status} ${reply.text}`);
    }
    await sleep(100);
  }
}

/**
 * Issue 17 item 2: GET /api/v1/ready says whether this process should receive traffic
 * (a load balancer's health check), apart from liveness (GET /api/v1/health).
 */
describe.each(databaseKindsUnderTest())("readiness on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it("is ready on a started platform, without signing in, and never cached", async () => {
    const reply = await http.get("/api/v1/ready");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: "success",
      data: {
        ready: true,
        checks: { migrations: "ok", database: "ok", bus: "not_configured", draining: false },
      },
    });
    expect(reply.headers.get("cache-control")).toBe("no-store");
    const openapi = await http.get("/api/v1/openapi.json");
    expect(Object.keys(openapi.body.paths["/api/v1/ready"].get.responses)).toEqual(
      expect.arrayContaining(["200", "503"]),
    );
  });

  it("is not ready before the app is built: migrations pending", async () => {
    // Readiness as buildApp makes it, before its last step marks it started.
    const readiness = new Readiness({
      database: platform.database,
      bus: platform.context.bus,
      log: platform.app.log,
    });
    expect(await readiness.check()).toEqual({
      ready: false,
      checks: { migrations: "pending", database: "ok", bus: "not_configured", draining: false },
      reason: "Not ready: the server is still starting",
    });
  });

  it.runIf(kind === "postgres")(
    "turns 503 while the database refuses connections, and ready again once it takes them",
    async () => {
      const name = new URL(platform.context.config.DATABASE_URL!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        // A real outage for this process: its connections are cut and new ones refused.
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [name],
        );
        const startedMs = Date.now();
        const down = await readyUntil(platform.baseUrl, (reply) => reply.status !== 200);
        // The check is bounded (~1 s), so a poll never hangs on a dead database.
        expect(Date.now() - startedMs).toBeLessThan(3_000);
        expect(down.status).toBe(503);
        expect(down.body).toEqual({
          status: "error",
          code: "NOT_READY",
          message: "Not ready: the database is unreachable",
          data: {
            ready: false,
            checks: {
              migrations: "ok",
              database: "unreachable",
              bus: "not_configured",
              draining: false,
            },
          },
        });
      } finally {
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        await admin.end();
      }
      const back = await readyUntil(platform.baseUrl, (reply) => reply.status === 200);
      expect(back.body.data.checks.database).toBe("ok");
    },
    30_000,
  );

  it("answers 503 NOT_READY with the same data while draining; liveness stays 200", async () => {
    platform.context.readiness.startDraining();
    try {
      const reply = await http.get("/api/v1/ready");
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({
        status: "error",
        code: "NOT_READY",
        message: "Not ready: the server is shutting down",
        data: {
          ready: false,
          checks: { migrations: "ok", database: "ok", bus: "not_configured", draining: true },
        },
      });
      expect((await http.get("/api/v1/health")).status).toBe(200);
    } finally {
      await platform.restart();
      http = httpClient(platform.baseUrl);
    }
    expect((await http.get("/api/v1/ready")).status).toBe(200);
  });
});

describe("readiness with REDIS_URL", () => {
  let redis: RedisProcess;
  let platform: TestPlatform;

  beforeAll(async () => {
    redis = await startRedisProcess();
    platform = await startTestPlatform("pglite", { env: { REDIS_URL: redis.url } });
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
    await redis?.kill();
  });

  it("turns 503 while Redis is down and ready again when it is back", async () => {
    const up = await httpClient(platform.baseUrl).get("/api/v1/ready");
    expect(up.status).toBe(200);
    expect(up.body.data.checks.bus).toBe("ok");

    await redis.kill();
    const down = await readyUntil(platform.baseUrl, (reply) => reply.status !== 200, 5_000);
    expect(down.status).toBe(503);
    expect(down.body.message).toBe("Not ready: Redis (the event bus) is unreachable");
    expect(down.body.data).toEqual({
      ready: false,
      checks: { migrations: "ok", database: "ok", bus: "unreachable", draining: false },
    });

    await redis.restart();
    const back = await readyUntil(platform.baseUrl, (reply) => reply.status === 200);
    expect(back.body.data.checks.bus).toBe("ok");
  }, 30_000);
});

/**
 * A real server process drained by SIGTERM while traders place trades: not ready at once,
 * still serving through the readiness delay, every trade it acknowledged committed, its
 * sockets told to reconnect elsewhere (1012), and exit 0 within SHUTDOWN_TIMEOUT_MS.
 */
describe.each(databaseKindsUnderTest())("draining a server process on %s", (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tp-drain-"));
  let postgres: FreshPostgres | null = null;

  afterAll(async () => {
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("turns not ready, finishes its trades in flight, sends sockets elsewhere and exits 0", async () => {
    if (kind === "postgres") {
      postgres = await createMigratedPostgresDatabase(process.env.DATABASE_URL!, "drain");
    }
    const readinessDelayMs = 1_500;
    const timeoutMs = 10_000;
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url ?? "",
      SHUTDOWN_READINESS_DELAY_MS: String(readinessDelayMs),
      SHUTDOWN_TIMEOUT_MS: String(timeoutMs),
      LOG_LEVEL: "error",
    });
    try {
      await waitHealthy(server);
      expect((await httpClient(server.baseUrl).get("/api/v1/ready")).status).toBe(200);
      const http = httpClient(server.baseUrl);
      const trader = newTrader();
      expect((await http.post("/api/v1/register", trader)).status).toBe(201);
      const token = (
        await http.post("/api/v1/login", { email: trader.email, password: trader.password })
      ).body.data.token as string;
      const place = () =>
        http.post(
          "/api/v1/place-trade",
          { asset: "EURUSD", type: "call", amount: 1, duration: 60, is_practice: true },
          token,
        );
      // The simulated feed's first prices arrive shortly after the start.
      const priceDeadline = Date.now() + 20_000;
      while ((await place()).status !== 201) {
        if (Date.now() > priceDeadline) throw new Error("no trade was accepted: no prices?");
        await sleep(250);
      }

      const socket = new StreamClient(server.baseUrl);
      await socket.opened;
      socket.send({ type: "subscribe", symbols: ["EURUSD"] });

      // Traders keep placing trades on kept-alive connections through the whole drain.
      const acknowledged: Array<{ id: number; atMs: number }> = [];
      let stopLoad = false;
      const loops = Array.from({ length: 6 }, async () => {
        while (!stopLoad) {
          try {
            const reply = await place();
            if (reply.status === 201) {
              acknowledged.push({ id: reply.body.data.trade.id, atMs: Date.now() });
            } else {
              // Refused while closing (503) or the like: never acknowledged, so never promised.
              expect([503]).toContain(reply.status);
            }
          } catch {
            // Connection refused or cut once the process stops listening.
            await sleep(20);
          }
        }
      });
      await sleep(300);

      const sigtermAtMs = Date.now();
      server.child.kill("SIGTERM");
      // Not ready at once (once the process handles the signal, between two requests): the
      // balancer's next check already hears it.
      const first = await readyUntil(server.baseUrl, (reply) => reply.status !== 200, 1_000);
      expect(first.status).toBe(503);
      expect(Date.now() - sigtermAtMs).toBeLessThan(1_000);
      expect(first.body.data).toMatchObject({ ready: false, checks: { draining: true } });
      // …and never ready again while the process still answers.
      const readyAnswers: number[] = [];
      const readyPolls = (async () => {
        for (;;) {
          try {
            readyAnswers.push((await httpClient(server.baseUrl).get("/api/v1/ready")).status);
          } catch {
            return; // stopped listening
          }
          await sleep(100);
        }
      })();

      const closed = await socket.closed;
      const closedAtMs = Date.now();
      expect(closed.code).toBe(1012);
      // The socket stays through the readiness delay: it is told to go only once no new
      // traffic comes here.
      expect(closedAtMs - sigtermAtMs).toBeGreaterThanOrEqual(readinessDelayMs - 100);
      // A socket that still comes now is refused or sent on at once, never kept.
      const late = new StreamClient(server.baseUrl);
      const lateOutcome = await late.opened.then(
        () => late.closed.then((close) => close.code),
        () => "refused",
      );
      expect(["refused", 1012]).toContain(lateOutcome);

      const exitCode = await server.exited;
      const exitedAtMs = Date.now();
      stopLoad = true;
      await Promise.all(loops);
      await readyPolls;
      expect(exitCode).toBe(0);
      expect(exitedAtMs - sigtermAtMs).toBeLessThan(timeoutMs);
      expect(readyAnswers.length).toBeGreaterThan(0);
      expect(readyAnswers.every((status) => status === 503)).toBe(true);
      // Trades were still taken during the readiness delay (the balancer had not noticed yet).
      expect(acknowledged.some((trade) => trade.atMs > sigtermAtMs)).toBe(true);

      // Every trade answered 201 is in the database.
      const database: Database =
        kind === "postgres"
          ? await openPostgresDatabase(postgres!.url)
          : await openPgliteDatabase(path.join(dataDir, "pglite"));
      try {
        const ids = acknowledged.map((trade) => trade.id);
        const stored = await database.query<{ id: number }>(
          "SELECT id FROM trades WHERE id = ANY($1::bigint[])",
          [ids],
        );
        expect(stored.rows.map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual(
          [...ids].sort((a, b) => a - b),
        );
        expect(await checkLedger(database)).toEqual([]);
      } finally {
        await database.close();
      }
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await server.exited;
    }
  }, 120_000);
});

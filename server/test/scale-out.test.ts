import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresDatabase } from "../src/db/postgres-database.ts";
import { checkLedger } from "../src/ledger/ledger.ts";
import {
  createMigratedPostgresDatabase,
  type FreshPostgres,
} from "../src/testing/fresh-database.ts";
import { httpClient, newTrader } from "./support/http.ts";
import {
  health,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  waitHealthy,
} from "./support/server-process.ts";
import { StreamClient } from "./support/stream-client.ts";

function scaleOutEnvironment(): { databaseUrl: string; redisUrl: string } | null {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (databaseUrl && redisUrl) return { databaseUrl, redisUrl };
  if (process.env.CI === "true") {
    throw new Error(
      "CI=true but DATABASE_URL or REDIS_URL is missing: the two-process test must run in CI",
    );
  }
  process.stderr.write(
    "\n*** DATABASE_URL and REDIS_URL are not both set: the two-process test is SKIPPED. ***\n\n",
  );
  return null;
}

const environment = scaleOutEnvironment();

// Two server processes on one PostgreSQL database and one Redis, as behind a load balancer.
describe.runIf(environment !== null)("two server processes on one PostgreSQL and one Redis", () => {
  let postgres: FreshPostgres;
  const dataDir = mkdtempSync(path.join(tmpdir(), "tp-scale-"));
  const servers: ServerProcess[] = [];
  const sockets: StreamClient[] = [];

  async function startServer(): Promise<ServerProcess> {
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      REDIS_URL: environment!.redisUrl,
    });
    servers.push(server);
    return server;
  }

  async function socketOn(server: ServerProcess) {
    const client = new StreamClient(server.baseUrl);
    sockets.push(client);
    await client.opened;
    return client;
  }

  beforeAll(async () => {
    postgres = await createMigratedPostgresDatabase(environment!.databaseUrl, "scale");
    const [first, second] = [await startServer(), await startServer()];
    await Promise.all([waitHealthy(first!), waitHealthy(second!)]);
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const server of servers) await stopServerProcess(server);
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("exactly one process ingests the feed, and ticks reach sockets on both", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const ingesting = [(await health(a)).feeds_ingested, (await health(b)).feeds_ingested];
    expect(ingesting.flat()).toEqual(["simulated"]);
    expect((await health(a)).bus).toBe("redis");
    const onA = await socketOn(a);
    const onB = await socketOn(b);
    for (const socket of [onA, onB]) socket.send({ type: "subscribe", symbols: ["EURUSD"] });
    const tickOnA = await onA.waitFor(
      (message) => message.type === "tick" && message.symbol === "EURUSD",
      10_000,
    );
    const tickOnB = await onB.waitFor(
      (message) => message.type === "tick" && message.symbol === "EURUSD",
      10_000,
    );
    expect(tickOnA.source).toBe("simulated");
    expect(tickOnB.source).toBe("simulated");
  });

  it("a trade placed through one process is pushed to the trader's socket on the other and settles once", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const httpA = httpClient(a.baseUrl);
    const httpB = httpClient(b.baseUrl);
    const trader = newTrader();
    expect((await httpA.post("/api/v1/register", trader)).status).toBe(201);
    const token = (
      await httpB.post("/api/v1/login", { email: trader.email, password: trader.password })
    ).body.data.token;
    const onB = await socketOn(b);
    onB.send({ type: "auth", token });
    await onB.waitFor((message) => message.type === "auth");

    const placed = await httpA.post(
      "/api/v1/place-trade",
      { asset: "EURUSD", type: "call", amount: 10, duration: 30, is_practice: true },
      token,
    );
    expect(placed.status).toBe(201);
    const id = placed.body.data.trade.id;
    const opened = await onB.waitFor((message) => message.type === "trade", 10_000);
    expect((opened.trade as { id: number }).id).toBe(id);

    // Both processes run the settlement worker; the trade must settle exactly once.
    const settled = await onB.waitFor(
      (message) =>
        message.type === "trade" && (message.trade as { status: string }).status !== "open",
      45_000,
    );
    expect((settled.trade as { id: number }).id).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(
      onB.of("trade").filter((message) => (message.trade as { status: string }).status !== "open"),
    ).toHaveLength(1);

    const database = await openPostgresDatabase(postgres.url);
    try {
      // The trade names the entries that moved its money: one stake, at most one credit.
      const entries = await database.query<{ kind: string }>(
        `SELECT e.kind FROM trades t
         JOIN journal_entries e ON e.id IN (t.placed_entry_id, t.settled_entry_id)
         WHERE t.id = $1 ORDER BY e.id`,
        [id],
      );
      expect(entries.rows[0]?.kind).toBe("trade_stake");
      expect(entries.rows.length).toBeLessThanOrEqual(2);
      expect(
        entries.rows
          .slice(1)
          .every((row) => row.kind === "trade_payout" || row.kind === "trade_refund"),
      ).toBe(true);
      expect(await checkLedger(database)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it("a session signed out through one process loses its socket on the other within a second", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const trader = newTrader();
    expect((await httpClient(a.baseUrl).post("/api/v1/register", trader)).status).toBe(201);
    const token = (
      await httpClient(a.baseUrl).post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      })
    ).body.data.token;
    const onB = await socketOn(b);
    onB.send({ type: "auth", token });
    await onB.waitFor((message) => message.type === "auth" && message.status === "ok");

    const started = Date.now();
    expect((await httpClient(a.baseUrl).post("/api/v1/logout", undefined, token)).status).toBe(200);
    const closed = await Promise.race([
      onB.closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000)),
    ]);
    expect(closed?.code).toBe(4401);
    expect(Date.now() - started).toBeLessThan(1_000);
  }, 30_000);

  it("when the ingesting process dies, the other takes the feed over within seconds", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const ingester = (await health(a)).feeds_ingested.length > 0 ? a : b;
    const survivor = ingester === a ? b : a;
    ingester.child.kill("SIGKILL");
    await ingester.exited;
    const deadline = Date.now() + 15_000;
    while ((await health(survivor)).feeds_ingested.length === 0) {
      if (Date.now() > deadline) throw new Error("no process took the feed over");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const socket = await socketOn(survivor);
    socket.send({ type: "subscribe", symbols: ["XAUUSD"] });
    await socket.waitFor(
      (message) => message.type === "tick" && message.symbol === "XAUUSD",
      10_000,
    );
  }, 60_000);
});

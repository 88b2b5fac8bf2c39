import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import WebSocket from "ws";
import { openPostgresDatabase } from "../src/db/postgres-database.ts";
import { checkLedger } from "../src/ledger/ledger.ts";
import {
  createMigratedPostgresDatabase,
  type FreshPostgres,
} from "../src/testing/fresh-database.ts";
import { httpClient, newTrader } from "./support/http.ts";
import {
  freePort,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from "./support/server-process.ts";

// The operator's example, run as shipped: only the addresses come from the environment.
const haproxyConfig = fileURLToPath(new URL("../../deploy/haproxy.cfg", import.meta.url));

function loadBalancerEnvironment(): { databaseUrl: string; redisUrl: string } | null {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  const haproxy = spawnSync("haproxy", ["-v"], { encoding: "utf8" });
  const missing = [
    databaseUrl ? null : "DATABASE_URL",
    redisUrl ? null : "REDIS_URL",
    haproxy.error || haproxy.status !== 0 ? "haproxy (apt-get install haproxy)" : null,
  ].filter((name) => name !== null);
  if (databaseUrl && redisUrl && missing.length === 0) return { databaseUrl, redisUrl };
  if (process.env.CI === "true") {
    throw new Error(`CI=true but ${missing.join(", ")} missing: the load-balancer test must run`);
  }
  process.stderr.write(
    `\n*** ${missing.join(", ")} missing: the load-balancer test is SKIPPED. ***\n\n`,
  );
  return null;
}

const environment = loadBalancerEnvironment();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** One command on HAProxy's admin socket (the operator's `socat stdio <socket>`). */
function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let output = "";
    socket.on("connect", () => socket.write(`${command}\n`));
    socket.on("data", (chunk) => {
      output += chunk;
    });
    socket.on("end", () => resolve(output));
    socket.on("error", reject);
  });
}

/** HAProxy's view of each server of the backend: "UP", "DOWN", "UP 1/2" (going down), … */
async function serverStates(socketPath: string): Promise<Record<string, string>> {
  const [header = "", ...rows] = (await haproxyCommand(socketPath, "show stat")).trim().split("\n");
  const columns = header.replace(/^# /, "").split(",");
  const [proxy, server, status] = ["pxname", "svname", "status"].map((name) =>
    columns.indexOf(name),
  ) as [number, number, number];
  const states: Record<string, string> = {};
  for (const row of rows) {
    const fields = row.split(",");
    if (fields[proxy] === "platform" && /^[abc]$/.test(fields[server] ?? "")) {
      states[fields[server]!] = fields[status] ?? "";
    }
  }
  return states;
}

/** A trader's live-price socket through the load balancer that reconnects, as the web app does. */
interface StreamConnection {
  servedBy: string | null;
  openedAt: number;
  closeCode: number | null;
  tickTimes: number[];
}

class ReconnectingStream {
  readonly connections: StreamConnection[] = [];
  #socket: WebSocket | null = null;
  #stopped = false;

  constructor(
    readonly url: string,
    readonly token: string,
  ) {
    this.#open();
  }

  #open() {
    const connection: StreamConnection = {
      servedBy: null,
      openedAt: Date.now(),
      closeCode: null,
      tickTimes: [],
    };
    this.connections.push(connection);
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.on("upgrade", (response) => {
      connection.servedBy = String(response.headers["x-served-by"] ?? "");
    });
    socket.on("open", () => {
      socket.send(JSON.stringify({ type: "auth", token: this.token }));
      socket.send(JSON.stringify({ type: "subscribe", symbols: ["EURUSD"] }));
    });
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type?: string };
      if (message.type === "tick") connection.tickTimes.push(Date.now());
    });
    // A refused upgrade or a dead server: "close" follows, which reconnects.
    socket.on("error", () => {});
    socket.on("close", (code) => {
      connection.closeCode = code;
      if (!this.#stopped) setTimeout(() => this.#open(), 200);
    });
  }

  get current(): StreamConnection {
    return this.connections.at(-1)!;
  }

  /** Whether a connection opened after `since` has received a tick. */
  tickedSince(since: number): StreamConnection | null {
    return (
      this.connections.find(
        (connection) => connection.openedAt > since && connection.tickTimes.length > 0,
      ) ?? null
    );
  }

  stop() {
    this.#stopped = true;
    this.#socket?.terminate();
  }
}

interface Attempt {
  sentAt: number;
  /** When the answer (or the failure) came back; a request sent just before a signal can arrive after it. */
  answeredAt: number;
  /** null: no HTTP answer at all (the connection to HAProxy failed). */
  status: number | null;
  servedBy: string | null;
  error?: string;
}

interface PlacedTrade {
  key: string;
  id: number | null;
  attempts: Attempt[];
}

describe.runIf(environment !== null)(
  "HAProxy (deploy/haproxy.cfg) in front of several server processes",
  () => {
    let postgres: FreshPostgres;
    const workDir = mkdtempSync(path.join(tmpdir(), "tp-haproxy-"));
    const statsSocket = path.join(workDir, "admin.sock");
    const servers = new Map<"a" | "b" | "c", ServerProcess>();
    const ports = { listen: 0, a: 0, b: 0, c: 0 };
    let haproxy: ChildProcess | null = null;
    let haproxyOutput = "";
    const streams: ReconnectingStream[] = [];

    async function startServer(name: "a" | "b" | "c") {
      const server = await startServerProcess({
        PORT: String(ports[name]),
        DATA_DIR: workDir,
        DATABASE_URL: postgres.url,
        REDIS_URL: environment!.redisUrl,
        // The chart history is beside the point here; filling 48 hours costs every start.
        PRICE_HISTORY_HOURS: "0",
        TRUST_PROXY: "true",
      });
      servers.set(name, server);
      return server;
    }

    async function stateOf(server: "a" | "b" | "c") {
      return (await serverStates(statsSocket))[server] ?? "";
    }

    /** Time at which HAProxy was first seen to hold `server` in a state matching `pattern`. */
    function seenState(server: "a" | "b" | "c", pattern: RegExp, timeoutMs = 20_000) {
      return until(
        `HAProxy to report ${server} ${pattern}`,
        async () => (pattern.test(await stateOf(server)) ? Date.now() : null),
        timeoutMs,
      );
    }

    beforeAll(async () => {
      postgres = await createMigratedPostgresDatabase(environment!.databaseUrl, "haproxy");
      for (const name of ["listen", "a", "b", "c"] as const) ports[name] = await freePort();
      // One after the other: the first start runs `migrate` (on this copy of the migrated
      // template, only the SQL functions).
      for (const name of ["a", "b"] as const) {
        const server = await startServer(name);
        await until(
          `${name} to be ready`,
          async () => {
            try {
              return (await fetch(`${server.baseUrl}/api/v1/ready`)).status === 200 ? true : null;
            } catch {
              return null;
            }
          },
          60_000,
        );
      }
      haproxy = spawn("haproxy", ["-db", "-f", haproxyConfig], {
        env: {
          ...process.env,
          TP_LISTEN: `127.0.0.1:${ports.listen}`,
          TP_SERVER_A: `127.0.0.1:${ports.a}`,
          TP_SERVER_B: `127.0.0.1:${ports.b}`,
          TP_SERVER_C: `127.0.0.1:${ports.c}`,
          TP_STATS_SOCKET: statsSocket,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      for (const stream of [haproxy.stdout, haproxy.stderr]) {
        stream?.on("data", (chunk) => {
          haproxyOutput += chunk;
        });
      }
      // C is listed but not started: HAProxy must have found it down before traffic flows.
      await until(
        "HAProxy to see a and b up and c down",
        async () => {
          try {
            const states = await serverStates(statsSocket);
            return states.a === "UP" && states.b === "UP" && states.c === "DOWN" ? true : null;
          } catch {
            return null; // the socket is not there yet
          }
        },
        20_000,
      );
    }, 120_000);

    afterAll(async () => {
      for (const stream of streams) stream.stop();
      haproxy?.kill("SIGKILL");
      for (const server of servers.values()) await stopServerProcess(server);
      await postgres?.drop();
      rmSync(workDir, { recursive: true, force: true });
    }, 60_000);

    it("SIGTERM on one process and SIGKILL on another lose no acknowledged trade, and sockets reconnect and keep ticking", async () => {
      // HAProxy's log says which server took each request and when it saw each one go down.
      onTestFailed(() => {
        process.stderr.write(
          `\nHAProxy log (last 200 lines):\n${haproxyOutput.split("\n").slice(-200).join("\n")}\n`,
        );
      });
      const viaHaproxy = `http://127.0.0.1:${ports.listen}`;
      const http = httpClient(viaHaproxy);

      // Traders sign up and in through the load balancer.
      const traders: Array<{ email: string; token: string }> = [];
      for (let index = 0; index < 4; index += 1) {
        const trader = newTrader();
        expect((await http.post("/api/v1/register", trader)).status).toBe(201);
        const login = await http.post("/api/v1/login", {
          email: trader.email,
          password: trader.password,
        });
        expect(login.status).toBe(200);
        traders.push({ email: trader.email.toLowerCase(), token: login.body.data.token });
      }

      // Their sockets: leastconn spreads them over a and b; open more until both hold some.
      const wsUrl = `ws://127.0.0.1:${ports.listen}/api/v1/stream`;
      for (let index = 0; index < 10; index += 1) {
        const trader = traders[index % traders.length]!;
        streams.push(new ReconnectingStream(wsUrl, trader.token));
        await until(
          "the socket's upgrade",
          async () => (streams.at(-1)!.current.servedBy ? true : null),
          10_000,
        );
        const holders = new Set(streams.map((stream) => stream.current.servedBy));
        if (streams.length >= 4 && holders.has("a") && holders.has("b")) break;
      }
      const onA = streams.filter((stream) => stream.current.servedBy === "a");
      expect(onA.length).toBeGreaterThan(0);
      expect(streams.some((stream) => stream.current.servedBy === "b")).toBe(true);
      for (const stream of streams) {
        await until("a first tick", async () => stream.tickedSince(0), 15_000);
      }

      // Every trader places practice trades without pause. A trade whose answer is lost
      // (the load balancer's 502/503, a reset connection) is sent again with the same
      // Idempotency-Key, as a real client must: it is then placed once or replayed.
      const placed: PlacedTrade[] = [];
      const refused: Array<{ status: number; code: unknown }> = [];
      let trading = true;
      async function tradeLoop(token: string) {
        while (trading) {
          const trade: PlacedTrade = { key: randomUUID(), id: null, attempts: [] };
          placed.push(trade);
          for (let attempt = 0; trade.id === null; attempt += 1) {
            if (attempt >= 100) throw new Error(`trade ${trade.key} never acknowledged`);
            const sentAt = Date.now();
            try {
              const reply = await http.request("POST", "/api/v1/place-trade", {
                json: { asset: "EURUSD", type: "call", amount: 1, duration: 30, is_practice: true },
                token,
                headers: { "idempotency-key": trade.key },
              });
              trade.attempts.push({
                sentAt,
                answeredAt: Date.now(),
                status: reply.status,
                servedBy: reply.headers.get("x-served-by"),
              });
              if (reply.status === 201) trade.id = Number(reply.body.data.trade.id);
              else if (reply.status < 500) {
                // Refused on its merits (e.g. a price too old while the feed changes hands):
                // nothing was placed; the next trade gets a new key.
                refused.push({ status: reply.status, code: reply.body?.code });
                placed.splice(placed.indexOf(trade), 1);
                break;
              }
            } catch (error) {
              const cause = (error as { cause?: { code?: string; message?: string } }).cause;
              trade.attempts.push({
                sentAt,
                answeredAt: Date.now(),
                status: null,
                servedBy: null,
                error: [cause?.code, cause?.message ?? String(error)].filter(Boolean).join(" "),
              });
            }
            if (trade.id === null) await sleep(50);
          }
        }
      }
      const loops = traders.map((trader) => tradeLoop(trader.token));
      const acknowledgedBy = (server: string, after = 0) =>
        placed.filter((trade) =>
          trade.attempts.some(
            (attempt) =>
              attempt.status === 201 && attempt.servedBy === server && attempt.sentAt > after,
          ),
        ).length;

      try {
        await until(
          "trades on a and on b",
          async () => (acknowledgedBy("a") > 3 && acknowledgedBy("b") > 3 ? true : null),
          20_000,
        );

        // SIGTERM a: it drains, HAProxy takes it out, its sockets come back through b.
        const a = servers.get("a")!;
        const aTerminatedAt = Date.now();
        a.child.kill("SIGTERM");
        const aDownAt = await seenState("a", /^DOWN/);
        // HAProxy took a out on its readiness answer, while a still served (for
        // SHUTDOWN_READINESS_DELAY_MS, 2 s), not later when its connections were refused.
        expect(aDownAt - aTerminatedAt).toBeLessThan(2_000);
        expect(await a.exited).toBe(0);
        for (const stream of onA) {
          // 1012 "service restart": the server asks the client to come back elsewhere.
          expect(stream.connections.find((c) => c.servedBy === "a")?.closeCode).toBe(1012);
          const again = await until(
            "a socket of a to reconnect and tick",
            async () => stream.tickedSince(aTerminatedAt),
            15_000,
          );
          expect(again.servedBy).toBe("b");
        }
        await until(
          "trades on b after a went down",
          async () => (acknowledgedBy("b", aDownAt) > 3 ? true : null),
          15_000,
        );

        // Start c, wait until HAProxy sends it traffic, then SIGKILL b: everything moves to c.
        await startServer("c");
        await seenState("c", /^UP$/, 60_000);
        const b = servers.get("b")!;
        const bKilledAt = Date.now();
        b.child.kill("SIGKILL");
        const bDownAt = await seenState("b", /^DOWN/);
        for (const stream of streams) {
          const again = await until(
            "every socket to tick through c",
            async () => stream.tickedSince(bKilledAt),
            20_000,
          );
          expect(again.servedBy).toBe("c");
        }
        await until(
          "trades on c after b went down",
          async () => (acknowledgedBy("c", bDownAt) > 3 ? true : null),
          20_000,
        );

        trading = false;
        await Promise.all(loops);

        // The load balancer never sent a request to a process after seeing it not ready.
        const attempts = placed.flatMap((trade) => trade.attempts);
        const late = (server: string, downAt: number) =>
          attempts.filter((attempt) => attempt.servedBy === server && attempt.sentAt > downAt);
        expect(late("a", aDownAt)).toEqual([]);
        expect(late("b", bDownAt)).toEqual([]);
        // No process answered a trade with a server error of its own. The one 5xx a process
        // may give is the draining a's 503 to a request that reached it after it stopped
        // taking requests (Fastify's return503OnClosing: the handler never ran); HAProxy
        // does not resend a POST that reached a server, the client resends it, same key.
        // Such a request may have been sent a moment before the SIGTERM (it was in HAProxy
        // or on the wire), so what marks it is that its answer came after the signal.
        expect(
          attempts.filter(
            (attempt) =>
              attempt.status !== null &&
              attempt.status >= 500 &&
              /^[abc]$/.test(attempt.servedBy ?? "") &&
              !(
                attempt.servedBy === "a" &&
                attempt.status === 503 &&
                attempt.answeredAt >= aTerminatedAt
              ),
          ),
        ).toEqual([]);
        const failedAttempts = attempts
          .filter((attempt) => attempt.status !== 201)
          .map(
            (attempt) =>
              `${attempt.status ?? attempt.error} from ${attempt.servedBy ?? "HAProxy"}, sent ${attempt.sentAt - aTerminatedAt} ms after a's SIGTERM, ${attempt.sentAt - bKilledAt} ms after b's SIGKILL`,
          );
        process.stdout.write(
          `load balancer: ${placed.length} trades acknowledged; attempts answered otherwise and retried: ${JSON.stringify(failedAttempts)}; refused on their merits (a new key follows): ${JSON.stringify(refused.map((refusal) => refusal.code))}; HAProxy took a out ${aDownAt - aTerminatedAt} ms after its SIGTERM, b ${bDownAt - bKilledAt} ms after its SIGKILL\n`,
        );
      } finally {
        trading = false;
        await Promise.allSettled(loops);
      }

      // Every acknowledged trade is in the database exactly once, and nothing else is.
      const ids = placed.map((trade) => trade.id!);
      expect(new Set(ids).size).toBe(ids.length);
      const database = await openPostgresDatabase(postgres.url);
      try {
        const stored = await database.query<{ id: string | number }>(
          "SELECT id FROM trades WHERE id = ANY($1::bigint[])",
          [ids],
        );
        expect(stored.rows.map((row) => Number(row.id)).sort((x, y) => x - y)).toEqual(
          [...ids].sort((x, y) => x - y),
        );
        const ofTraders = await database.query<{ n: string | number }>(
          "SELECT COUNT(*)::bigint AS n FROM trades t JOIN users u ON u.id = t.user_id WHERE lower(u.email) = ANY($1::text[])",
          [traders.map((trader) => trader.email)],
        );
        expect(Number(ofTraders.rows[0]!.n)).toBe(ids.length);
        expect(await checkLedger(database)).toEqual([]);
      } finally {
        await database.close();
      }
    }, 150_000);
  },
);

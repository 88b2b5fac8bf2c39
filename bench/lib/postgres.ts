// pgbench runs on the benchmark's own database, and a sampler of pg_stat_activity (what the
// platform's connections are doing: running, waiting on a row lock, idle in a transaction).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export function pgbenchPath(): string {
  const packaged = "/usr/lib/postgresql/15/bin/pgbench";
  return existsSync(packaged) ? packaged : "pgbench";
}

export interface PgbenchResult {
  script: string;
  clients: number;
  threads: number;
  seconds: number;
  tps: number;
  latencyAverageMs: number;
  transactions: number;
  failed: number;
  output: string;
}

/** The traders of the pgbench reference tables (as many as the benches' traders). */
export const pgbench_accounts = 1_000;

/**
 * pgbench's tables on a bench's database: 0 is a house row, 1..1000 the traders, 1001..1016
 * a house account split in 16 rows.
 */
export const pgbenchSetup = `
CREATE TABLE IF NOT EXISTS bench_accounts (id integer PRIMARY KEY, balance bigint NOT NULL);
INSERT INTO bench_accounts SELECT g, 100000000 FROM generate_series(0, ${pgbench_accounts + 16}) AS g
ON CONFLICT (id) DO NOTHING;
CREATE TABLE IF NOT EXISTS bench_history (
  id bigserial PRIMARY KEY, account_id integer NOT NULL, delta bigint NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);`;

/** The issue's reference: one row update plus one insert, rows spread over 1,000 accounts. */
export const updatePlusInsert = `\\set id random(1, ${pgbench_accounts})
BEGIN;
UPDATE bench_accounts SET balance = balance - 1 WHERE id = :id;
INSERT INTO bench_history (account_id, delta) VALUES (:id, -1);
END;
`;

/** Makes pgbench's tables on a bench's database, unless they are there. */
export async function createPgbenchTables(databaseUrl: string) {
  await withClient(databaseUrl, (client) => client.query(pgbenchSetup));
}

/**
 * The reference rate the engine benches are judged against: update+insert, -c 64 -j 2. The
 * tables are made on the first call; a later call on the same database runs on them.
 */
export async function pgbenchUpdatePlusInsert(databaseUrl: string, seconds: number, clients = 64) {
  await createPgbenchTables(databaseUrl);
  return runPgbench({
    databaseUrl,
    name: "update-plus-insert",
    script: updatePlusInsert,
    clients,
    threads: 2,
    seconds,
  });
}

/** Runs pgbench with a custom script (-n: no vacuum of pgbench's own tables). */
export async function runPgbench(options: {
  databaseUrl: string;
  name: string;
  script: string;
  clients: number;
  threads: number;
  seconds: number;
}): Promise<PgbenchResult> {
  const folder = mkdtempSync(path.join(tmpdir(), "bench-pgbench-"));
  const scriptFile = path.join(folder, `${options.name}.sql`);
  writeFileSync(scriptFile, options.script);
  const url = new URL(options.databaseUrl);
  const args = [
    "-n",
    "-f",
    scriptFile,
    "-c",
    String(options.clients),
    "-j",
    String(options.threads),
    "-T",
    String(options.seconds),
    "-h",
    url.hostname,
    "-p",
    url.port || "5432",
    "-U",
    decodeURIComponent(url.username || "postgres"),
    url.pathname.slice(1),
  ];
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(pgbenchPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (chunk) => {
        text += chunk;
      });
      child.stderr.on("data", (chunk) => {
        text += chunk;
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), (options.seconds + 30) * 1000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(text);
        else reject(new Error(`pgbench exited with ${code}:\n${text}`));
      });
    });
    const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
    return {
      script: options.name,
      clients: options.clients,
      threads: options.threads,
      seconds: options.seconds,
      tps: number(/tps = ([\d.]+) \(without initial connection time\)/),
      latencyAverageMs: number(/latency average = ([\d.]+) ms/),
      transactions: number(/number of transactions actually processed: (\d+)/),
      failed: number(/number of failed transactions: (\d+)/) || 0,
      output,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Samples pg_stat_activity for one database every `everyMs` until stopped (at most
 * `samples_max` samples): per sample, each backend's state and wait event.
 */
export function sampleActivity(databaseUrl: string, databaseName: string, everyMs = 50) {
  const samples_max = 2_000;
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped && samples < samples_max) {
      const result = await client.query<{ state: string | null; wait: string | null; q: string }>(
        `SELECT state, wait_event_type || ':' || wait_event AS wait, left(query, 40) AS q
         FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        [databaseName],
      );
      samples += 1;
      for (const row of result.rows) {
        let key: string;
        if (row.state === "active") {
          key = `active ${row.wait ?? "(on CPU)"}${row.wait?.startsWith("Lock") ? ` [${row.q.replace(/\s+/g, " ")}]` : ""}`;
        } else {
          key = `${row.state ?? "?"}`;
        }
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      // Average number of the platform's connections in each state at any instant.
      return {
        samples,
        averageBackends: Object.fromEntries(
          [...counts.entries()]
            .sort((a, b) => b[1] - a[1])
            .map(([key, count]) => [key, Number((count / Math.max(1, samples)).toFixed(2))]),
        ),
      };
    },
  };
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface StatementTime {
  query: string;
  /** false: run inside a function (its time is also part of its caller's). */
  topLevel: boolean;
  calls: number;
  totalMs: number;
}

/**
 * Where PostgreSQL's time goes, statement by statement, for one database over a measured
 * window: pg_stat_statements with `pg_stat_statements.track = all`, so the statements inside
 * the PL/pgSQL functions are counted too. Only when the server preloads the extension (a
 * setting the benchmarks do not make: see bench/RESULTS.md); otherwise `available` is false.
 */
export async function statementTimes(adminUrl: string, databaseName: string) {
  const probe = await withClient(adminUrl, async (client) => {
    const loaded = await client.query<{ loaded: boolean }>(
      "SELECT 'pg_stat_statements' = ANY (string_to_array(current_setting('shared_preload_libraries'), ', ')) AS loaded",
    );
    if (!loaded.rows[0]?.loaded) return null;
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const database = await client.query<{ oid: number }>(
      "SELECT oid FROM pg_database WHERE datname = $1",
      [databaseName],
    );
    const oid = database.rows[0]?.oid ?? null;
    if (oid !== null) await client.query("SELECT pg_stat_statements_reset(0, $1, 0)", [oid]);
    return oid;
  });
  return {
    available: probe !== null,
    async top(limit: number): Promise<StatementTime[]> {
      if (probe === null) return [];
      return withClient(adminUrl, async (client) => {
        const result = await client.query<{
          query: string;
          toplevel: boolean;
          calls: string;
          total_ms: number;
        }>(
          `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, toplevel, calls, total_exec_time AS total_ms
           FROM pg_stat_statements WHERE dbid = $1 ORDER BY total_exec_time DESC LIMIT $2`,
          [probe, limit],
        );
        return result.rows.map((row) => ({
          query: row.query,
          topLevel: row.toplevel,
          calls: Number(row.calls),
          totalMs: row.total_ms,
        }));
      });
    },
  };
}

/** One line per statement: "123 ms in 26 calls (4.7 ms each, nested): SELECT …". */
export function formatStatementTimes(times: StatementTime[], width = 110): string {
  return times
    .map(
      (time) =>
        `${time.totalMs.toFixed(0)} ms in ${time.calls} calls (${(time.totalMs / Math.max(1, time.calls)).toFixed(2)} ms each${time.topLevel ? "" : ", nested"}): ${time.query.slice(0, width)}`,
    )
    .join("\n  ");
}

export interface TableUpdates {
  updated: number;
  heapOnly: number;
}

/**
 * A table's rows updated so far, and how many of those PostgreSQL wrote heap-only (HOT: no
 * new index entries), from the cumulative statistics. They reach pg_stat_user_tables when a
 * backend reports, within about a second of its last transaction.
 */
export async function tableUpdates(databaseUrl: string, table: string): Promise<TableUpdates> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ updated: string; heap_only: string }>(
      "SELECT n_tup_upd AS updated, n_tup_hot_upd AS heap_only FROM pg_stat_user_tables WHERE relname = $1",
      [table],
    );
    const row = result.rows[0];
    return { updated: Number(row?.updated ?? 0), heapOnly: Number(row?.heap_only ?? 0) };
  });
}

/** The updates between two readings of tableUpdates. */
export function updatesSince(before: TableUpdates, after: TableUpdates): TableUpdates {
  return { updated: after.updated - before.updated, heapOnly: after.heapOnly - before.heapOnly };
}

// What one place_trades call costs PostgreSQL, by the number of trades in it: the part a
// call pays whatever its size (its statements' planning and executor start, the locks, the
// commit) and the part each trade adds. Every place-trade request pays its share of both, and
// under light load calls carry a few trades each, so the fixed part is most of PostgreSQL's
// work there (bench/RESULTS.md, issue 16's twenty-second session).
//
// The platform runs in its child process (its own fresh database, 1,000 traders with live
// sessions); the child builds each call as the trade batcher would (`placeTradesStatement`:
// practice trades of distinct traders, each request with its own Idempotency-Key and session
// check), and this process runs the calls one at a time on a connection of its own, reading
// that backend's CPU time (/proc/<pid>/schedstat) before and after each. CPU time, not
// latency: queueing behind other processes does not count, as it does in a p99. It still
// moves with the machine's own speed, so two engines compare in one run (below), not in
// runs minutes apart. The call commits (autocommit, as the batcher's does); the wall time
// includes waiting for the WAL flush, the CPU time does not.
//
// BENCH_CALL_COST_SIZES (default 1,5,20,80) and BENCH_CALL_COST_ROUNDS (default 5): each round
// runs a block of calls of every size, the sizes' order turning from round to round.
// BENCH_CALL_COST_COMPARE_SQL (e.g. "SET plan_cache_mode = force_generic_plan") compares: a
// second connection runs it once, and the calls alternate between the two connections, so
// both are measured in the same minutes (this machine's speed moves by a third between
// runs minutes apart, more than most changes to a call's cost). A changed function compares
// the same way: a script that creates it in a schema of its own and ends with
// `SET search_path = <that schema>, public` (its first line names it in the table).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { type PlatformChild, startPlatformChild } from "./lib/child.ts";
import { type BenchResult, fixed, loadAverage, type ResultRow, summarise } from "./lib/stats.ts";

const traders_count = 1_000;
/** Calls of one size in a row, per round; the first of each block is not counted (warm-up). */
const calls_per_block = 21;

function parsePositiveList(text: string): number[] {
  const values = text.split(",").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1)) {
    throw new Error(`BENCH_CALL_COST_SIZES must be whole numbers of trades, not "${text}"`);
  }
  if (Math.max(...values) > traders_count) {
    throw new Error(`BENCH_CALL_COST_SIZES: at most ${traders_count} trades a call`);
  }
  return values;
}

/**
 * A process's time on a CPU so far (ns): the first field of /proc/<pid>/schedstat. Not
 * stats.ts's processCpuSeconds: /proc/<pid>/stat counts in 10 ms ticks, longer than most calls.
 */
function cpuNanoseconds(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
}

/** A script's first line, cut at 60 characters. */
function shortLabel(sql: string): string {
  const first = sql.trim().split("\n")[0]!;
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
}

/** Least squares of y on x: the fixed part (intercept) and the part per unit (slope). */
function lineFit(points: Array<[number, number]>): { fixed: number; perUnit: number } {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  const perUnit = variance === 0 ? Number.NaN : covariance / variance;
  return { fixed: meanY - perUnit * meanX, perUnit };
}

export async function runCallCostBench(): Promise<BenchResult> {
  // Read when the benchmark runs, so a bad value fails this benchmark alone.
  const sizes = parsePositiveList(process.env.BENCH_CALL_COST_SIZES ?? "1,5,20,80");
  const rounds = Number(process.env.BENCH_CALL_COST_ROUNDS ?? 5);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error("BENCH_CALL_COST_ROUNDS must be a whole number of rounds, 1 or more");
  }
  const compareSql = process.env.BENCH_CALL_COST_COMPARE_SQL || null;
  const loadBefore = loadAverage();
  let child: PlatformChild | null = null;
  const clients: pg.Client[] = [];
  try {
    child = await startPlatformChild("call-cost");
    const server = child;
    const setup = await server.call("createTraders", { count: traders_count }, 120_000);
    const connect = async (setupSql: string | null) => {
      const connection = new pg.Client({ connectionString: server.databaseUrl });
      clients.push(connection);
      await connection.connect();
      if (setupSql) await connection.query(setupSql);
      const { pid } = (await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))
        .rows[0]!;
      return {
        // The SQL's first line names it in the table (a script of variant functions is long).
        label: setupSql === null ? "as configured" : shortLabel(setupSql),
        client: connection,
        backend: pid,
        cpuMs: new Map<number, number[]>(sizes.map((size) => [size, []])),
        wallMs: new Map<number, number[]>(sizes.map((size) => [size, []])),
      };
    };
    const connections = [await connect(null)];
    if (compareSql) connections.push(await connect(compareSql));

    for (let round = 0; round < rounds; round++) {
      const order = sizes.map((_, index) => sizes[(index + round) % sizes.length]!);
      for (const size of order) {
        const statements = await server.call(
          "placeTradesStatements",
          { size, count: calls_per_block * connections.length },
          60_000,
        );
        for (const [index, statement] of statements.entries()) {
          const connection = connections[index % connections.length]!;
          const cpuBefore = cpuNanoseconds(connection.backend);
          const started = performance.now();
          const result = await connection.client.query<{ outcome: string }>(
            statement.sql,
            statement.params,
          );
          const wall = performance.now() - started;
          const cpu = (cpuNanoseconds(connection.backend) - cpuBefore) / 1e6;
          const unplaced = result.rows.filter((row) => row.outcome !== "placed");
          if (result.rows.length !== size || unplaced.length > 0) {
            throw new Error(
              `a call of ${size} trades answered ${result.rows.length} rows, ${unplaced.length} not placed (${unplaced[0]?.outcome})`,
            );
          }
          // Each connection's first call of a block is its warm-up.
          if (index < connections.length) continue;
          connection.cpuMs.get(size)!.push(cpu);
          connection.wallMs.get(size)!.push(wall);
        }
      }
    }

    const rows: ResultRow[] = [];
    const figures = connections.map((connection) => {
      const bySize = sizes.map((size) => ({
        size,
        cpuMs: summarise(connection.cpuMs.get(size)!),
        wallMs: summarise(connection.wallMs.get(size)!),
      }));
      // One size alone fits no line: both parts are NaN then.
      const fit = lineFit(bySize.map((entry) => [entry.size, entry.cpuMs.p50]));
      const on = connections.length > 1 ? ` (${connection.label})` : "";
      for (const entry of bySize) {
        rows.push({
          metric: `${entry.size} trade${entry.size === 1 ? "" : "s"} a call${on}: PostgreSQL CPU a call p50 / p90 (ms), a trade (µs); wall p50 (ms)`,
          value: `${fixed(entry.cpuMs.p50, 2)} / ${fixed(entry.cpuMs.p90, 2)}, ${fixed((1000 * entry.cpuMs.p50) / entry.size, 0)}; ${fixed(entry.wallMs.p50, 2)}`,
        });
      }
      rows.push({
        metric: `PostgreSQL CPU a call${on}, fitted to the sizes' medians: fixed (ms) + per trade (µs)`,
        value: `${fixed(fit.fixed, 2)} + ${fixed(1000 * fit.perUnit, 0)}`,
      });
      return { connection: connection.label, bySize, fixedMs: fit.fixed, perTradeMs: fit.perUnit };
    });
    return {
      name: "call-cost",
      rows,
      figures: { rounds, callsPerSizeAndRound: calls_per_block - 1, connections: figures },
      notes: [
        `Setup: ${traders_count} traders with sessions in ${fixed(setup.seconds)} s; ${rounds} rounds of ${calls_per_block - 1} counted calls per size${connections.length > 1 ? " and connection, the calls alternating between the connections" : ", one at a time on one connection"}.`,
        `Load average before: ${loadBefore}; after: ${loadAverage()}.`,
      ],
    };
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await child?.close();
  }
}

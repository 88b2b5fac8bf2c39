// `npm run bench [-- name ...]`: the engine's benchmarks in sequence (default: all), each
// printed as a table, then one JSON line per benchmark. Needs PostgreSQL at DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres) and pgbench; not part of npm test.
//   place-trade  POST /api/v1/place-trade, 1,000 traders, 64 keep-alive connections
//                (BENCH_PLACE_CONNECTIONS), vs pgbench; BENCH_PLACE_HALF_RATE fixes the half
//                pass's rate (requests a second) to compare engines at one load
//   settlement   50,000 trades expiring in the same second
//   stream       WebSocket fan-out ramp 1k → 10k sockets × 10 symbols × 4 ticks/s, beside a
//                minimal ws server; then two server processes on Redis (needs REDIS_URL)
//   hot-path     GET /api/v1/user and POST /api/v1/login on PGlite (the original benchmark)
//   lighthouse   Lighthouse mobile on the public pages (needs `npm run build` and Chromium)
//   call-cost    PostgreSQL's CPU for one place_trades call of 1, 5, 20 and 80 trades
//                (BENCH_CALL_COST_SIZES, BENCH_CALL_COST_ROUNDS): the fixed part and per trade;
//                BENCH_CALL_COST_COMPARE_SQL compares a session setting in the same minutes
//   cost-growth  place-trade and settlement cost at 1k, 10k, 100k and 1M settled trades in the
//                database (~17 min: run it by name; BENCH_GROWTH_SIZES=1000,10000 is shorter)
//   soak         the realistic mix for BENCH_SOAK_MINUTES (default 30) on the system clock,
//                then memory, connections, table sizes, retention, ledger and journal checks
import { performance } from "node:perf_hooks";
import { runCallCostBench } from "./call-cost.ts";
import { runCostGrowthBench } from "./cost-growth.ts";
import { runHotPathBench } from "./hot-path.ts";
import {
  type BenchResult,
  fixed,
  loadAverage,
  renderTable,
  waitForQuietMachine,
} from "./lib/stats.ts";
import { runLighthouseBench } from "./lighthouse.ts";
import { runPlaceTradeBench } from "./place-trade.ts";
import { runSettlementBench } from "./settlement.ts";
import { runSoakBench } from "./soak.ts";
import { runStreamBench } from "./stream.ts";

process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
/** Before each benchmark, wait up to this long for other processes to leave the CPUs idle. */
const quietWaitS = Number(process.env.BENCH_QUIET_WAIT_S ?? 60);

const benchmarks: Record<string, () => Promise<BenchResult>> = {
  "place-trade": runPlaceTradeBench,
  settlement: runSettlementBench,
  stream: runStreamBench,
  "hot-path": runHotPathBench,
  lighthouse: runLighthouseBench,
  "call-cost": runCallCostBench,
  "cost-growth": runCostGrowthBench,
  soak: runSoakBench,
};

const requested = process.argv.slice(2).filter((argument) => argument !== "--");
const unknown = requested.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(", ")}; known: ${Object.keys(benchmarks).join(", ")}`,
  );
  process.exit(2);
}
// Lighthouse needs a build and a browser, cost-growth ~17 minutes, the soak half an hour:
// they run when named.
const named_only = ["lighthouse", "cost-growth", "soak"];
const names =
  requested.length > 0
    ? requested
    : Object.keys(benchmarks).filter((name) => !named_only.includes(name));

console.info(
  `bench: ${names.join(", ")} | node ${process.version} | load average ${loadAverage()} | ${new Date().toISOString()}`,
);
const results: Array<BenchResult | { name: string; error: string }> = [];
let failed = false;
for (const name of names) {
  console.info(`\n== ${name} ==`);
  const quiet = await waitForQuietMachine(quietWaitS * 1000);
  console.info(
    `machine before start: ${fixed(quiet.busy * 100)} % of all cores busy (other processes ${fixed(quiet.otherCores, 2)} cores) after waiting ${fixed(quiet.waitedS, 0)} s`,
  );
  const started = performance.now();
  try {
    const result = await benchmarks[name]!();
    const seconds = (performance.now() - started) / 1000;
    console.info(renderTable(result));
    for (const note of result.notes) console.info(`- ${note}`);
    console.info(`(${name}: ${seconds.toFixed(0)} s)`);
    results.push({
      ...result,
      figures: { ...result.figures, seconds, machineBusyBeforeStart: quiet.busy },
    });
  } catch (error) {
    failed = true;
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`${name} failed: ${message}`);
    results.push({ name, error: message.split("\n")[0]! });
  }
}
console.info("");
for (const result of results) {
  console.info(
    JSON.stringify(
      "error" in result
        ? { bench: result.name, error: result.error }
        : { bench: result.name, ...result.figures },
    ),
  );
}
process.exit(failed ? 1 : 0);

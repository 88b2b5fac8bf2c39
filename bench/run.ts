// `npm run bench [-- name ...]`: the engine's benchmarks in sequence (default: all), each
// printed as a table, then one JSON line per benchmark. Needs PostgreSQL at DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres) and pgbench; not part of npm test.
//   place-trade  POST /api/v1/place-trade, 1,000 traders, 64 keep-alive connections, vs pgbench
//   settlement   50,000 trades expiring in the same second
//   stream       WebSocket fan-out ramp 1k → 10k sockets × 10 symbols × 4 ticks/s
//   hot-path     GET /api/v1/user and POST /api/v1/login on PGlite (the original benchmark)
//   lighthouse   Lighthouse mobile on the public pages (needs `npm run build` and Chromium)
import { performance } from "node:perf_hooks";
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
};

const requested = process.argv.slice(2).filter((argument) => argument !== "--");
const unknown = requested.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(", ")}; known: ${Object.keys(benchmarks).join(", ")}`,
  );
  process.exit(2);
}
// Lighthouse needs a build and a browser: it runs when named, not by default.
const names =
  requested.length > 0
    ? requested
    : Object.keys(benchmarks).filter((name) => name !== "lighthouse");

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

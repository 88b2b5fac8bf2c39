// (b) Settlement of 50,000 trades expiring in the same second. The trades are opened
// directly (place_trades, the one trade writer: stake entry and journal chain each),
// the clock is advanced past the last expiry, a tick after it is pushed, and settleDue is
// timed in wall time, per batch, and per trade. A light place-trade probe runs meanwhile.
// Then as many trades again expire across one second with the clock in real time, settled
// as they come due, as in production: item 1's lag target is read on that scenario.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { bench_symbols as symbols } from "./lib/bench-symbols.ts";
import { adminDatabaseUrl, type PlatformChild, startPlatformChild } from "./lib/child.ts";
import { ledgerCheckRows } from "./lib/ledger-rows.ts";
import {
  formatStatementTimes,
  pgbenchUpdatePlusInsert,
  sampleActivity,
  statementTimes,
  type TableUpdates,
  tableUpdates,
  updatesSince,
} from "./lib/postgres.ts";
import {
  type BenchResult,
  coresBetween,
  cpuByGroup,
  fixed,
  formatCores,
  loadAverage,
  processMemoryMiB,
  type ResultRow,
  summarise,
} from "./lib/stats.ts";

const trades_count = 50_000;
const traders_count = 1_000;
/** Bounds: opening the trades (it runs at the hot row's pace too) and settling them. */
const seed_deadline_ms = 150_000;
const settle_deadline_ms = 120_000;
const probe_interval_ms = 100;
const pgbench_seconds = 10;
/** Item 1's targets: p99 lag under 1 s, and at least 5× pgbench's update+insert tps. */
const lag_p99_target_ms = 1_000;
const pgbench_multiple_target = 5;
const probe_in_flight_max = 4;

/** One place-trade every 100 ms (at most 4 waiting) until stopped: latency during settlement. */
function startProbe(baseUrl: string, tokens: string[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: probe_in_flight_max });
  const base = new URL(baseUrl);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let inFlight = 0;
  let sent = 0;
  let skipped = 0;
  const body = Buffer.from(
    JSON.stringify({ asset: symbols[0], type: "call", amount: 1, duration: 60, is_practice: true }),
  );
  const timer = setInterval(() => {
    if (inFlight >= probe_in_flight_max) {
      skipped += 1;
      return;
    }
    inFlight += 1;
    const token = tokens[sent % tokens.length]!;
    sent += 1;
    const begin = performance.now();
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: "/api/v1/place-trade",
        headers: {
          "content-type": "application/json",
          "content-length": body.length,
          authorization: `Bearer ${token}`,
        },
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => {
          inFlight -= 1;
          if (response.statusCode === 201) latencies.push(performance.now() - begin);
          else
            failures[String(response.statusCode)] =
              (failures[String(response.statusCode)] ?? 0) + 1;
        });
      },
    );
    request.setTimeout(60_000, () => request.destroy(new Error("timeout")));
    request.on("error", () => {
      inFlight -= 1;
      failures.network = (failures.network ?? 0) + 1;
    });
    request.end(body);
  }, probe_interval_ms);
  return {
    async stop() {
      clearInterval(timer);
      const deadline = performance.now() + 60_000;
      while (inFlight > 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      agent.destroy();
      return { sent, skipped, failures, latencyMs: summarise(latencies) };
    },
  };
}

/** "heap-only / updated (share %)". */
function formatUpdates(updates: TableUpdates): string {
  const share = (100 * updates.heapOnly) / Math.max(1, updates.updated);
  return `${updates.heapOnly} / ${updates.updated} (${fixed(share, 1)} %)`;
}

export async function runSettlementBench(): Promise<BenchResult> {
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const loadBefore = loadAverage();
  let child: PlatformChild | null = null;
  try {
    child = await startPlatformChild("settlement");
    const server = child;
    const setup = await server.call("createTraders", { count: traders_count }, 120_000);
    const seeded = await server.call(
      "seedSettlement",
      { trades: trades_count, symbols, deadlineMs: seed_deadline_ms },
      seed_deadline_ms + 60_000,
    );
    if (seeded.trades < trades_count) {
      notes.push(
        `Seeding stopped at its ${seed_deadline_ms / 1000} s bound: ${seeded.trades} of ${trades_count} trades opened; the figures below are for those.`,
      );
    }
    notes.push(
      `Setup: ${traders_count} traders in ${fixed(setup.seconds)} s; ${seeded.trades} open trades with their stake entries (place_trades, 500 per call, 4 calls at a time each on its own house shards) in ${fixed(seeded.seconds)} s (${fixed(seeded.trades / seeded.seconds, 0)} trades/s).`,
    );
    // The reference, in the same run on the same database, before settlement starts.
    const pgbench = await pgbenchUpdatePlusInsert(server.databaseUrl, pgbench_seconds);
    const statements = await statementTimes(adminDatabaseUrl(), server.databaseName);
    const tradeUpdatesBefore = await tableUpdates(server.databaseUrl, "trades");
    const accountUpdatesBefore = await tableUpdates(server.databaseUrl, "ledger_accounts");
    const cpuBefore = cpuByGroup(server.pid);
    const wallBefore = performance.now();
    const probe = startProbe(server.baseUrl, setup.tokens);
    const result = await server.call(
      "runSettlement",
      { symbols, deadlineMs: settle_deadline_ms },
      settle_deadline_ms + 60_000,
    );
    const probeResult = await probe.stop();
    const wallS = (performance.now() - wallBefore) / 1000;
    const cores = coresBetween(cpuBefore, cpuByGroup(server.pid), wallS);
    const memory = processMemoryMiB(server.pid);
    const statementTop = await statements.top(16);
    // Then the second as it passes: as many trades again, expiring across one second, with
    // the clock in real time (the lag target is read on this one).
    const seededRealTime = await server.call(
      "seedSettlement",
      { trades: trades_count, symbols, deadlineMs: seed_deadline_ms },
      seed_deadline_ms + 60_000,
    );
    // What the platform's connections wait on meanwhile (every 20 ms).
    const activity = sampleActivity(server.databaseUrl, server.databaseName, 20);
    const realTime = await server.call(
      "runSettlementRealTime",
      { symbols, deadlineMs: settle_deadline_ms },
      settle_deadline_ms + 60_000,
    );
    const realTimeWaits = await activity.stop();
    const realTimeMet =
      realTime.lagMs.p99 < lag_p99_target_ms && realTime.settled >= seededRealTime.trades;
    const ledger = await server.call("ledgerCheck", undefined, 180_000);
    const tradeUpdates = updatesSince(
      tradeUpdatesBefore,
      await tableUpdates(server.databaseUrl, "trades"),
    );
    const accountUpdates = updatesSince(
      accountUpdatesBefore,
      await tableUpdates(server.databaseUrl, "ledger_accounts"),
    );
    const warnings = server.warnings();

    const settled = result.settledEvents;
    const throughput = settled / (result.drainMs / 1000);
    rows.push(
      {
        metric: "trades settled / due",
        value: `${settled} / ${seeded.trades}${result.openDueLeft > 0 ? ` (${result.openDueLeft} still open at the deadline)` : ""}`,
        target: "all",
        met: settled >= seeded.trades && result.openDueLeft === 0,
      },
      {
        metric: "settle passes that failed (batch rolled back, retried)",
        value: `${result.passErrors}${result.passErrors ? ` (${result.passErrorSample[0]})` : ""}`,
        target: "0",
        met: result.passErrors === 0,
      },
      {
        metric: "wall time from due (clock past last expiry + tick) to all settled",
        value: `${fixed(result.drainMs / 1000, 2)} s`,
      },
      { metric: "settlement throughput", value: `${fixed(throughput, 0)} trades/s` },
      {
        metric: `pgbench update+insert, same database (-c 64 -j 2 -T ${pgbench_seconds}): tps`,
        value: fixed(pgbench.tps, 0),
      },
      {
        metric: "settlement throughput ÷ pgbench tps",
        value: `${fixed(throughput / pgbench.tps, 2)}×`,
        target: `≥ ${pgbench_multiple_target}×`,
        met: throughput >= pgbench_multiple_target * pgbench.tps,
      },
      {
        metric: "lag from the instant all were due p50 / p99 / max (s)",
        value: `${fixed(result.dueLagMs.p50 / 1000, 2)} / ${fixed(result.dueLagMs.p99 / 1000, 2)} / ${fixed(result.dueLagMs.max / 1000, 2)}${result.openDueLeft > 0 ? ` (settled ones only; ${result.openDueLeft} never settled in ${fixed(result.drainMs / 1000, 0)} s)` : ""}`,
      },
      {
        // The figure earlier runs reported as "real lag": it counts the second the jump
        // skipped, when the platform could not yet see a trade as due (up to 1 s a trade).
        metric: "lag from each expiry, the clock jumped past the second, p50 / p99 / max (s)",
        value: `${fixed(result.realLagMs.p50 / 1000, 2)} / ${fixed(result.realLagMs.p99 / 1000, 2)} / ${fixed(result.realLagMs.max / 1000, 2)}`,
      },
      {
        metric: `the second as it passes (clock in real time, ${realTime.due} trades expiring across ${fixed(realTime.spanMs / 1000, 2)} s): settled / due`,
        value: `${realTime.settled} / ${realTime.due}`,
        target: "all",
        met: realTime.settled >= realTime.due && realTime.passErrors === 0,
      },
      {
        metric: "the second as it passes: lag from each expiry p50 / p99 / max (s)",
        value: `${fixed(realTime.lagMs.p50 / 1000, 2)} / ${fixed(realTime.lagMs.p99 / 1000, 2)} / ${fixed(realTime.lagMs.max / 1000, 2)}`,
        target: `p99 < ${lag_p99_target_ms / 1000} s`,
        met: realTimeMet,
      },
      {
        metric:
          "the second as it passes: settled within 1 s of expiry / last settled after the last expiry",
        value: `${fixed((100 * realTime.withinOneSecond) / Math.max(1, realTime.settled), 1)} % / ${fixed(realTime.afterLastExpiryMs / 1000, 2)} s`,
      },
      {
        metric: "the second as it passes: CPU cores / event-loop delay p99 (ms)",
        value: `${formatCores(realTime.cores)} / ${fixed(realTime.eventLoopDelayMs.p99)}`,
      },
      {
        metric: "recorded trades.settlement_lag_ms p50 / p99 / max (manual clock)",
        value: `${result.recordedLagMs.p50} / ${result.recordedLagMs.p99} / ${result.recordedLagMs.max} ms`,
      },
      {
        metric: "first batch committed after (ms)",
        value: fixed(result.firstBatchDoneMs, 0),
      },
      {
        metric: "batches / trades per batch p50",
        value: `${result.batches} / ${result.batchTrades.p50}`,
      },
      {
        metric: "batch transaction p50 / p99 / max (ms)",
        value: `${fixed(result.batchMs.p50, 0)} / ${fixed(result.batchMs.p99, 0)} / ${fixed(result.batchMs.max, 0)}`,
      },
      {
        metric: "house rows locked per batch p50 (ms)",
        value: fixed(result.batchHouseLockHoldMs.p50, 0),
      },
      {
        // Both runs' settled trades: an update that is not heap-only writes a new entry into
        // every index of trades (migration 036).
        metric: "trade rows updated heap-only (HOT) / updated, both runs",
        value: formatUpdates(tradeUpdates),
      },
      {
        metric: "ledger account rows (balances) updated heap-only / updated, both runs",
        value: formatUpdates(accountUpdates),
      },
      {
        metric: "SQL statements per batch transaction p50",
        value: fixed(result.batchQueries.p50, 0),
      },
      {
        metric: "time between batch commits p50 / p99 (ms)",
        value: `${fixed(result.commitIntervalMs.p50, 0)} / ${fixed(result.commitIntervalMs.p99, 0)}`,
      },
      {
        metric:
          "batches started before the previous committed / their wait for the house rows p50 (ms)",
        value: `${result.overlappingBatches} / ${fixed(result.batchHouseLockWaitMs.p50, 0)}`,
      },
      {
        metric: "place-trade probe during settlement: p50 / p99 / max (ms)",
        value: `${fixed(probeResult.latencyMs.p50)} / ${fixed(probeResult.latencyMs.p99)} / ${fixed(probeResult.latencyMs.max)} (${probeResult.latencyMs.count} placed, ${probeResult.skipped} skipped: 4 in flight)`,
      },
      {
        metric: "CPU cores during settlement",
        value: formatCores(cores),
      },
      {
        metric: "server RSS / peak RSS after settlement (MiB)",
        value: `${fixed(memory.rss, 0)} / ${fixed(memory.peak, 0)}`,
      },
      ...ledgerCheckRows(ledger),
    );
    notes.push(
      `Outcomes: ${result.outcomes.map((row) => `${row.status} ${row.n}`).join(", ")} (calls win, puts lose).`,
      `settleDue calls: ${result.calls}; settled by those calls: ${result.settledByCalls} (the rest by the worker's own timer or a probe's wake).`,
      `Statements during settlement (top): ${result.statements
        .slice(0, 10)
        .map(([sql, count]) => `${count}× ${sql}`)
        .join(" | ")}`,
      `Server event-loop delay during settlement p99 ${fixed(result.eventLoopDelayMs.p99)} ms, max ${fixed(result.eventLoopDelayMs.max)} ms.`,
      `Probe failures: ${JSON.stringify(probeResult.failures)}. Server warn+ log lines: ${warnings.count}${warnings.count ? ` e.g. ${warnings.sample[0]}` : ""}.`,
      `The second as it passes: pg_stat_activity (average backends of the platform's database per state, ${realTimeWaits.samples} samples): ${JSON.stringify(realTimeWaits.averageBackends)}`,
      `Load average before: ${loadBefore}; after: ${loadAverage()}.`,
      statements.available
        ? `PostgreSQL time by statement during settlement (pg_stat_statements, track = all; a nested statement's time is also its caller's):\n  ${formatStatementTimes(statementTop)}`
        : "PostgreSQL time by statement: not measured (pg_stat_statements is not in shared_preload_libraries).",
    );
    return {
      name: "settlement",
      rows,
      notes,
      figures: {
        trades: seeded.trades,
        seedSeconds: seeded.seconds,
        drainMs: result.drainMs,
        passErrors: result.passErrors,
        passErrorSample: result.passErrorSample,
        throughputPerSecond: throughput,
        realLagMs: result.realLagMs,
        recordedLagMs: result.recordedLagMs,
        batches: result.batches,
        batchMs: result.batchMs,
        batchTrades: result.batchTrades,
        batchQueries: result.batchQueries,
        batchHouseLockHoldMs: result.batchHouseLockHoldMs,
        commitIntervalMs: result.commitIntervalMs,
        overlappingBatches: result.overlappingBatches,
        batchHouseLockWaitMs: result.batchHouseLockWaitMs,
        firstBatchDoneMs: result.firstBatchDoneMs,
        outcomes: result.outcomes,
        probe: probeResult,
        cores,
        serverRssMiB: memory,
        ledgerViolations: ledger.violationCount,
        tradeUpdates,
        accountUpdates,
        pgbenchTps: pgbench.tps,
        dueLagMs: result.dueLagMs,
        realTime: { ...realTime, pgStatActivity: realTimeWaits.averageBackends },
        met: {
          p99Lag: realTimeMet,
          pgbenchMultiple: throughput >= pgbench_multiple_target * pgbench.tps,
        },
      },
    };
  } finally {
    await child?.close();
  }
}

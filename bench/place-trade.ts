// (a) POST /api/v1/place-trade over HTTP keep-alive: 1,000 traders, 64 connections (or
// BENCH_PLACE_CONNECTIONS), every request with its own Idempotency-Key. Maximum rate
// (autocannon, closed loop), then latency at half and at a quarter of that rate (open loop,
// each after an unjudged lead-in at its rate; bench/lib/lean-open-loop.ts: raw keep-alive
// sockets as autocannon drives them, since autocannon's own rate limit is per-second
// budgets, not a schedule), beside pgbench's rate for a one-row-update-plus-insert
// transaction on the same database in the same run, and beside a minimal Fastify route
// (bench/minimal-fastify.ts) taking the same requests from the same client.
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type AutocannonOutcome, autocannonMax } from "./lib/autocannon-load.ts";
import { adminDatabaseUrl, type PlatformChild, startPlatformChild } from "./lib/child.ts";
import {
  type DiskFlushReport,
  slow_flush_ms,
  startDiskFlushProbe,
  type WriteBackReport,
  writeBackDirtyPages,
} from "./lib/disk-flush-probe.ts";
import { closedLoop, keepAliveAgent, type LoadOutcome } from "./lib/http-load.ts";
import { leanOpenLoop } from "./lib/lean-open-loop.ts";
import { ledgerCheckRows } from "./lib/ledger-rows.ts";
import {
  createPgbenchTables,
  formatStatementTimes,
  pgbench_accounts,
  pgbenchUpdatePlusInsert,
  runPgbench,
  sampleActivity,
  statementTimes,
  withClient,
} from "./lib/postgres.ts";
import {
  type BenchResult,
  type CpuGroup,
  coresBetween,
  cpuByGroup,
  fixed,
  formatCores,
  type gcPauseSummary,
  loadAverage,
  processMemoryMiB,
  type ResultRow,
  recordGcPauses,
  slowReplyStalls,
  summarise,
} from "./lib/stats.ts";

/** As many traders as pgbench's reference tables have accounts. */
const traders_count = pgbench_accounts;
/** The client's keep-alive connections, each one request at a time (BENCH_PLACE_CONNECTIONS). */
const connections = Number(process.env.BENCH_PLACE_CONNECTIONS ?? 64);
/**
 * pgbench's clients: as many as the client's connections, up to 64 (each is a PostgreSQL
 * connection, and the default max_connections is 100).
 */
const pgbench_clients = Math.min(connections, 64);
const warmup_ms = 3_000;
const pass_ms = 15_000;
const pass_requests_max = 200_000;
const pgbench_seconds = 10;
const minimal_pass_ms = 10_000;
/**
 * A pause between the max pass and the half pass: autocannon returns with its last requests
 * still in the server, and without the pause the half pass's first quarter second queued
 * behind them (512 of its 556 requests over 50 ms: more than the pass's slowest 1 % alone).
 */
const between_passes_ms = 2_000;
/**
 * Each latency pass starts after this long at its own rate, not judged, so that it measures
 * the steady state at that rate, as the max pass has its warm-up: before the half pass the
 * platform has sat idle through the minimal route's pass, longer than a session lookup is
 * reused (auth's sessionReuseWindowMs), and the pass's first half second brought every
 * trader's session lookup back to the database at once, beside the trades (107–1,725 replies
 * over 50 ms at its start: bench/RESULTS.md, issue 16's twenty-third session). The lead-in's
 * own latency is reported beside the pass's.
 */
const lead_in_ms = 2_000;
/** Issue 16's target for the half pass's p99 latency. */
const half_p99_target_ms = 50;
/**
 * BENCH_PLACE_HALF_RATE (requests a second) fixes the half pass's rate instead of taking half
 * the max pass's: on a shared machine the max of one engine moves by half from one run to the
 * next (3,628–6,560 trades/s within an hour: bench/RESULTS.md, issue 16's twentieth session),
 * and so does the load of the half pass, so two engines' latencies are compared at one rate.
 * A fixed rate is not half the maximum: the target is then not judged.
 */
const half_rate_fixed = parseHalfRateFixed(process.env.BENCH_PLACE_HALF_RATE);

/** When in the pass (s after it began) each major GC ended its marking, or "none". */
function majorGcsInPass(majorAtEpochMs: number[], passStartedAt: string): string {
  const startedMs = Date.parse(passStartedAt);
  if (majorAtEpochMs.length === 0) return "none";
  return majorAtEpochMs.map((atMs) => `${fixed((atMs - startedMs) / 1000, 1)} s`).join(", ");
}

function parseHalfRateFixed(text: string | undefined): number | null {
  if (text === undefined || text === "") return null;
  const rate = Number(text);
  if (!Number.isInteger(rate) || rate < 1) {
    throw new Error(
      `BENCH_PLACE_HALF_RATE must be a whole number of requests a second, not "${text}"`,
    );
  }
  return rate;
}
const asset = "EURUSD";

/**
 * The statement shape of place-trade's transaction before a1e5710 (trade row, journal entry,
 * then the postings in account-id order: the house row, id 0, first), every transaction
 * updating the same house row, as postEntry did with house:practice.
 */
const placeTradeShapeHotRow = `\\set id random(1, ${traders_count})
BEGIN;
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
UPDATE bench_accounts SET balance = balance + 1 WHERE id = 0;
INSERT INTO bench_history (account_id, delta) VALUES (0, 1);
UPDATE bench_accounts SET balance = balance - 1 WHERE id = :id;
INSERT INTO bench_history (account_id, delta) VALUES (:id, -1);
END;
`;

/** Comparison: the same statements with the house row updated last, just before COMMIT. */
const placeTradeShapeHotRowLast = `\\set id random(1, ${traders_count})
BEGIN;
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
UPDATE bench_accounts SET balance = balance - 1 WHERE id = :id;
INSERT INTO bench_history (account_id, delta) VALUES (:id, -1);
UPDATE bench_accounts SET balance = balance + 1 WHERE id = 0;
INSERT INTO bench_history (account_id, delta) VALUES (0, 1);
END;
`;

/** Comparison: house-first order as before a1e5710, the house account split over 16 rows. */
const placeTradeShapeHouseSplit16 = `\\set id random(1, ${traders_count})
\\set shard random(${traders_count + 1}, ${traders_count + 16})
BEGIN;
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
UPDATE bench_accounts SET balance = balance + 1 WHERE id = :shard;
INSERT INTO bench_history (account_id, delta) VALUES (:shard, 1);
UPDATE bench_accounts SET balance = balance - 1 WHERE id = :id;
INSERT INTO bench_history (account_id, delta) VALUES (:id, -1);
END;
`;

/**
 * The shape since a1e5710: the two rows locked by one SELECT … FOR UPDATE (trader first,
 * then the trader's house shard, one of 16, fixed per trader), then the postings in that
 * order, the shard last.
 */
const placeTradeShapeShardLast = `\\set id random(1, ${traders_count})
\\set shard ${traders_count + 1} + (:id % 16)
BEGIN;
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
INSERT INTO bench_history (account_id, delta) VALUES (:id, 0);
SELECT id FROM bench_accounts WHERE id IN (:id, :shard) ORDER BY id FOR UPDATE;
UPDATE bench_accounts SET balance = balance - 1 WHERE id = :id;
INSERT INTO bench_history (account_id, delta) VALUES (:id, -1);
UPDATE bench_accounts SET balance = balance + 1 WHERE id = :shard;
INSERT INTO bench_history (account_id, delta) VALUES (:shard, 1);
END;
`;

function latencyRows(label: string, outcome: LoadOutcome): ResultRow[] {
  const latency = summarise(outcome.latenciesMs);
  const failures = Object.entries(outcome.failures)
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");
  return [
    {
      metric: `${label}: trades/s (201 replies / elapsed)`,
      value: fixed(latency.count / outcome.elapsedS, 0),
    },
    {
      metric: `${label}: latency p50 / p99 / max (ms)`,
      value: `${fixed(latency.p50)} / ${fixed(latency.p99)} / ${fixed(latency.max)}`,
    },
    {
      metric: `${label}: requests / non-201`,
      value: `${outcome.completed} / ${failures || "0"}`,
    },
  ];
}

/**
 * Where a latency pass's tail comes from: how its replies over the target are spread (a few
 * stalls or many), the slowest place_trades call, and the load generator's own GC pauses,
 * which delay its sends and so count in the latency it measures.
 */
function tailRows(
  label: string,
  stalls: ReturnType<typeof slowReplyStalls>,
  generatorGc: ReturnType<typeof gcPauseSummary>,
  slowestCallMs: number,
  diskFlushes: DiskFlushReport | undefined,
  leadIn: LoadOutcome,
  writeBack: WriteBackReport,
): ResultRow[] {
  const leadInLatency = summarise(leadIn.latenciesMs);
  const leadInFailures = Object.entries(leadIn.failures)
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");
  const largest = stalls.largestStalls.map(
    (replies, index) => `${replies} at ${fixed(stalls.largestStallsAtMs[index]! / 1000, 1)} s`,
  );
  return [
    {
      metric: `${label}: the page cache written back before its lead-in (\`sync\`): dirty before (MiB) / took (ms)`,
      value: `${writeBack.dirtyMiB === null ? "not known" : fixed(writeBack.dirtyMiB, 1)} / ${fixed(writeBack.tookMs, 0)}`,
    },
    {
      metric: `${label}: the lead-in before it (${lead_in_ms / 1000} s at its rate, not judged): latency p50 / p99 / max (ms) / non-201`,
      value: `${fixed(leadInLatency.p50)} / ${fixed(leadInLatency.p99)} / ${fixed(leadInLatency.max)} / ${leadInFailures || "0"}`,
    },
    {
      metric: `${label}: replies over ${half_p99_target_ms} ms / the stalls they make (due within 200 ms of each other) / the largest three (replies, and when in the pass they began) / slowest place_trades call (ms)`,
      value: `${stalls.slow} / ${stalls.stalls} / ${largest.join(", ") || "none"} / ${fixed(slowestCallMs)}`,
    },
    {
      metric: `${label}: the disk's 8 kB fdatasync, probed every 50 ms${diskFlushes?.sameDevice === true ? " on PostgreSQL's device" : diskFlushes?.sameDevice === false ? " (not PostgreSQL's device)" : ""}: probes / over 20 ms / slowest (ms) / over ${slow_flush_ms} ms (when in the pass they began)`,
      value: diskFlushes
        ? `${diskFlushes.flushes} / ${diskFlushes.over20} / ${fixed(diskFlushes.maxMs)} / ${diskFlushes.slowAtS.map((at) => `${fixed(at, 1)} s`).join(", ") || "none"}`
        : "not measured",
    },
    {
      metric: `${label}: the load generator's GC pauses: count / total / max (ms)`,
      value: `${generatorGc.count} / ${fixed(generatorGc.totalMs, 0)} / ${fixed(generatorGc.max)}`,
    },
  ];
}

export async function runPlaceTradeBench(): Promise<BenchResult> {
  const notes: string[] = [];
  const rows: ResultRow[] = [];
  const loadBefore = loadAverage();
  let child: PlatformChild | null = null;
  try {
    child = await startPlatformChild("place-trade");
    const server = child;
    const setup = await server.call("createTraders", { count: traders_count }, 120_000);
    await server.call("offerTick", { symbol: asset, price: 1.08 });
    notes.push(
      `Setup: ${traders_count} traders (createTrader + createSession in 100-trader transactions) in ${fixed(setup.seconds)} s.`,
    );

    // --- pgbench on the same database ---------------------------------------------------
    // The old place-trade shapes first; the reference (update+insert) runs right before the
    // HTTP passes and again right after them, because this machine's own rate drifts by tens
    // of percent within minutes. The ratio is to the mean of the two.
    await createPgbenchTables(server.databaseUrl);
    const pgHot64 = await runPgbench({
      databaseUrl: server.databaseUrl,
      name: "place-trade-shape-hot-row",
      script: placeTradeShapeHotRow,
      clients: 64,
      threads: 2,
      seconds: pgbench_seconds,
    });
    const pgHot10 = await runPgbench({
      databaseUrl: server.databaseUrl,
      name: "place-trade-shape-hot-row",
      script: placeTradeShapeHotRow,
      clients: 10,
      threads: 2,
      seconds: pgbench_seconds,
    });
    const pgHotLast10 = await runPgbench({
      databaseUrl: server.databaseUrl,
      name: "place-trade-shape-hot-row-last",
      script: placeTradeShapeHotRowLast,
      clients: 10,
      threads: 2,
      seconds: pgbench_seconds,
    });
    const pgSplit10 = await runPgbench({
      databaseUrl: server.databaseUrl,
      name: "place-trade-shape-house-split-16",
      script: placeTradeShapeHouseSplit16,
      clients: 10,
      threads: 2,
      seconds: pgbench_seconds,
    });
    const pgShardLast10 = await runPgbench({
      databaseUrl: server.databaseUrl,
      name: "place-trade-shape-shard-last",
      script: placeTradeShapeShardLast,
      clients: 10,
      threads: 2,
      seconds: pgbench_seconds,
    });
    const pgBefore = await pgbenchUpdatePlusInsert(
      server.databaseUrl,
      pgbench_seconds,
      pgbench_clients,
    );

    // --- HTTP load ------------------------------------------------------------------------
    // Five-minute trades: none expires before the last pass and the minimal route's have
    // run (about 90 s after the first), so no settlement shares the machine with them.
    const bodies = (["call", "put"] as const).map((type) =>
      Buffer.from(JSON.stringify({ asset, type, amount: 1, duration: 300, is_practice: true })),
    );
    // Every request carries its own Idempotency-Key, as the web app's do: the key is claimed
    // (and its reply stored) in the trade's transaction.
    const keyPrefix = randomUUID().slice(0, 8);
    let keysIssued = 0;
    const next = (sequence: number) => ({
      path: "/api/v1/place-trade",
      body: bodies[sequence % 2]!,
      token: setup.tokens[sequence % setup.tokens.length]!,
      idempotencyKey: `${keyPrefix}-${keysIssued++}`,
    });
    const nextForAutocannon = (sequence: number) => {
      const spec = next(sequence);
      return {
        body: spec.body,
        headers: {
          authorization: `Bearer ${spec.token}`,
          "idempotency-key": spec.idempotencyKey,
        },
      };
    };
    const agent = keepAliveAgent(connections);
    await closedLoop({
      baseUrl: server.baseUrl,
      agent,
      workers: connections,
      durationMs: warmup_ms,
      maxRequests: pass_requests_max,
      next,
    });

    await server.call("probeReset");
    const statements = await statementTimes(adminDatabaseUrl(), server.databaseName);
    const activity = sampleActivity(server.databaseUrl, server.databaseName);
    const cpuBefore = cpuByGroup(server.pid);
    const wallBefore = performance.now();
    const maxPass = await autocannonMax({
      url: server.baseUrl,
      path: "/api/v1/place-trade",
      connections,
      durationS: pass_ms / 1000,
      next: nextForAutocannon,
    });
    const cores = coresBetween(
      cpuBefore,
      cpuByGroup(server.pid),
      (performance.now() - wallBefore) / 1000,
    );
    const waits = await activity.stop();
    const statementTop = await statements.top(16);
    const probe = await server.call("probeReport", { kindPrefix: "SELECT * FROM place_trades(" });
    const memoryAfterMax = processMemoryMiB(server.pid);

    const maxRate = maxPass.requestsPerSecond;
    const halfRate = half_rate_fixed ?? Math.max(1, Math.floor(maxRate / 2));
    // PostgreSQL's data directory (superuser only; undefined otherwise): the flush probe says
    // whether it flushed on the same device.
    const dataDirectory = await withClient(server.databaseUrl, async (client) => {
      const result = await client.query<{ data_directory: string }>("SHOW data_directory");
      return result.rows[0]?.data_directory;
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, between_passes_ms));
    // The half pass gets its own probe: where its latency goes (the calls, their batches, the
    // event loop) is what its target is about. Then the same at a quarter of the maximum:
    // on 2 cores the half pass keeps the machine ~85 % busy (a trade costs PostgreSQL and the
    // server more CPU at half the rate than at the maximum: bench/RESULTS.md, issue 16's
    // seventeenth session), so its latency is mostly queueing for a core; the quarter pass
    // shows the latency of a machine with more room to spare.
    const latencyPass = async (ratePerSecond: number) => {
      const writeBack = writeBackDirtyPages();
      const leadIn = await leanOpenLoop({
        baseUrl: server.baseUrl,
        connections,
        ratePerSecond,
        durationMs: lead_in_ms,
        maxOutstanding: 5_000,
        next,
      });
      await server.call("probeReset", { houseRows: false });
      const passActivity = sampleActivity(server.databaseUrl, server.databaseName);
      const passCpuBefore = cpuByGroup(server.pid);
      const passWallBefore = performance.now();
      const replies = { dueMs: [] as number[], latenciesMs: [] as number[] };
      const generatorGc = recordGcPauses();
      // The disk's flushes over the same seconds as the schedule (it starts once the
      // connections are open), so a stall and a slow flush line up by their times in the pass.
      let flushProbe: ReturnType<typeof startDiskFlushProbe> | null = null;
      // When the schedule began by the wall clock, so the pass's stalls (ms into it) line up
      // with anything else's log: PostgreSQL's, the kernel's, a sampler's.
      let startedAt = "";
      const pass = await leanOpenLoop({
        baseUrl: server.baseUrl,
        connections,
        ratePerSecond,
        durationMs: pass_ms,
        maxOutstanding: 5_000,
        next,
        onReply(dueMs, latencyMs) {
          replies.dueMs.push(dueMs);
          replies.latenciesMs.push(latencyMs);
        },
        onStart() {
          startedAt = new Date().toISOString();
          flushProbe = startDiskFlushProbe({ sameDeviceAs: dataDirectory });
        },
      });
      const diskFlushes = await (
        flushProbe as ReturnType<typeof startDiskFlushProbe> | null
      )?.stop();
      const generatorGcPauseMs = generatorGc.stop();
      const passCores = coresBetween(
        passCpuBefore,
        cpuByGroup(server.pid),
        (performance.now() - passWallBefore) / 1000,
      );
      const passWaits = await passActivity.stop();
      const passProbe = await server.call("probeReport", {
        kindPrefix: "SELECT * FROM place_trades(",
      });
      return {
        pass,
        cores: passCores,
        waits: passWaits,
        probe: passProbe,
        stalls: slowReplyStalls(replies, half_p99_target_ms),
        generatorGcPauseMs,
        diskFlushes,
        leadIn,
        writeBack,
        startedAt,
      };
    };
    const {
      pass: halfPass,
      cores: halfCores,
      waits: halfWaits,
      probe: halfProbe,
      stalls: halfStalls,
      generatorGcPauseMs: halfGeneratorGc,
      diskFlushes: halfDiskFlushes,
      leadIn: halfLeadIn,
      writeBack: halfWriteBack,
      startedAt: halfStartedAt,
    } = await latencyPass(halfRate);
    const quarterRate = Math.max(1, Math.floor(maxRate / 4));
    await new Promise((resolve) => setTimeout(resolve, between_passes_ms));
    const quarter = await latencyPass(quarterRate);
    agent.destroy();
    const pgAfter = await pgbenchUpdatePlusInsert(
      server.databaseUrl,
      pgbench_seconds,
      pgbench_clients,
    );
    const pgbenchTps = (pgBefore.tps + pgAfter.tps) / 2;
    const ledger = await server.call("ledgerCheck", undefined, 120_000);

    // --- the reference: a minimal Fastify route, same client, body and headers -----------------
    const minimal = await startMinimalFastify();
    let minimalPass: AutocannonOutcome;
    let minimalCores: Record<CpuGroup, number>;
    try {
      const minimalCpuBefore = cpuByGroup(minimal.pid);
      const minimalWallBefore = performance.now();
      minimalPass = await autocannonMax({
        url: minimal.baseUrl,
        path: "/api/v1/place-trade",
        connections,
        durationS: minimal_pass_ms / 1000,
        next: nextForAutocannon,
      });
      minimalCores = coresBetween(
        minimalCpuBefore,
        cpuByGroup(minimal.pid),
        (performance.now() - minimalWallBefore) / 1000,
      );
    } finally {
      await minimal.close();
    }
    const warnings = server.warnings();

    // --- figures ----------------------------------------------------------------------------
    const maxLatency = maxPass.latencyMs;
    const halfLatency = summarise(halfPass.latenciesMs);
    // Not judged (null) at a rate BENCH_PLACE_HALF_RATE fixed.
    const halfP99Met =
      half_rate_fixed === null
        ? halfLatency.p99 < half_p99_target_ms && halfPass.skipped === 0
        : null;
    const ratio = maxRate / pgbenchTps;
    // Trades placed in the max pass; each place_trades call (a "transaction" to the probe)
    // carries a batch of them.
    const placed = maxPass.completed;
    const statementsPerTrade = probe.statements
      .map(([sql, count]) => `${(count / Math.max(1, placed)).toFixed(2)}× ${sql}`)
      .slice(0, 14);

    rows.push(
      {
        metric: `pgbench update+insert, 1,000 rows (-c ${pgbench_clients} -j 2 -T 10): tps just before the HTTP passes / just after / mean`,
        value: `${fixed(pgBefore.tps, 0)} / ${fixed(pgAfter.tps, 0)} / ${fixed(pgbenchTps, 0)}`,
      },
      {
        metric: "pgbench old place-trade shape, 1 hot row first (-c 64 -j 2 -T 10): tps",
        value: fixed(pgHot64.tps, 0),
      },
      {
        metric: "pgbench old place-trade shape, 1 hot row first (-c 10 -j 2 -T 10): tps",
        value: fixed(pgHot10.tps, 0),
      },
      {
        metric: "pgbench same, 1 hot row updated last (-c 10 -j 2 -T 10): tps",
        value: fixed(pgHotLast10.tps, 0),
      },
      {
        metric: "pgbench same, house first but split over 16 rows (-c 10 -j 2 -T 10): tps",
        value: fixed(pgSplit10.tps, 0),
      },
      {
        metric: "pgbench current shape: lock trader then shard of 16, shard last (-c 10): tps",
        value: fixed(pgShardLast10.tps, 0),
      },
      {
        metric: `max (autocannon, ${connections} conns, 15 s): trades/s (201 replies / elapsed)`,
        value: fixed(maxRate, 0),
      },
      {
        metric: "max: latency p50 / p99 / max (ms)",
        value: `${fixed(maxLatency.p50)} / ${fixed(maxLatency.p99)} / ${fixed(maxLatency.max)}`,
      },
      {
        metric: "max: 201 replies / non-2xx / errors / timeouts",
        value: `${maxPass.completed} / ${maxPass.non2xx} / ${maxPass.errors} / ${maxPass.timeouts}`,
      },
      {
        metric: "max trades/s ÷ pgbench update+insert tps (the mean of before and after)",
        value: `${fixed(ratio * 100)} %`,
        target: "≥ 75 %",
        met: ratio >= 0.75,
      },
      {
        metric: "max: CPU per placed trade, PostgreSQL / server (µs)",
        value: `${fixed((cores.postgres * 1e6) / maxRate, 0)} / ${fixed((cores.server * 1e6) / maxRate, 0)}`,
      },
      {
        metric: "minimal Fastify route (same client, body, headers; no database): req/s",
        value: `${fixed(minimalPass.requestsPerSecond, 0)} (p99 ${fixed(minimalPass.latencyMs.p99)} ms, its server ${fixed(minimalCores.server, 2)} cores = ${fixed((minimalCores.server * 1e6) / minimalPass.requestsPerSecond, 0)} µs per request, client ${fixed(minimalCores.bench, 2)} cores, rest ${fixed(minimalCores.rest, 2)})`,
      },
      ...latencyRows(
        `half max (open loop at ${halfRate}/s${half_rate_fixed === null ? "" : ", fixed by BENCH_PLACE_HALF_RATE"}, 15 s)`,
        halfPass,
      ),
      {
        metric: `half max: p99 latency from scheduled send (ms)`,
        value: fixed(halfLatency.p99),
        ...(halfP99Met === null
          ? { target: `< ${half_p99_target_ms} ms at half max: not judged at a fixed rate` }
          : { target: `< ${half_p99_target_ms} ms`, met: halfP99Met }),
      },
      {
        metric: "half max: CPU cores (2 in all)",
        value: formatCores(halfCores),
      },
      {
        metric:
          "half max: trades per place_trades call (mean) / call duration p50 / p99 (ms) / event-loop delay p99 / max (ms)",
        value: `${fixed(halfPass.completed / Math.max(1, halfProbe.transactions), 1)} / ${fixed(halfProbe.transactionMs.p50, 2)} / ${fixed(halfProbe.transactionMs.p99, 2)} / ${fixed(halfProbe.eventLoopDelayMs.p99)} / ${fixed(halfProbe.eventLoopDelayMs.max)}`,
      },
      {
        metric:
          "half max: the server's GC pauses: count / total / mean / max (ms); its major GCs (when in the pass their marking ended)",
        value: `${halfProbe.gcPauseMs.count} / ${fixed(halfProbe.gcPauseMs.totalMs, 0)} / ${fixed(halfProbe.gcPauseMs.mean)} / ${fixed(halfProbe.gcPauseMs.max)}; ${majorGcsInPass(halfProbe.gcPauseMs.majorAtEpochMs, halfStartedAt)}`,
      },
      ...tailRows(
        "half max",
        halfStalls,
        halfGeneratorGc,
        halfProbe.transactionMs.max,
        halfDiskFlushes,
        halfLeadIn,
        halfWriteBack,
      ),
      ...latencyRows(`quarter max (open loop at ${quarterRate}/s, 15 s)`, quarter.pass),
      {
        metric: "quarter max: CPU cores (2 in all)",
        value: formatCores(quarter.cores),
      },
      {
        metric:
          "quarter max: trades per place_trades call (mean) / call duration p50 / p99 (ms) / event-loop delay p99 / max (ms)",
        value: `${fixed(quarter.pass.completed / Math.max(1, quarter.probe.transactions), 1)} / ${fixed(quarter.probe.transactionMs.p50, 2)} / ${fixed(quarter.probe.transactionMs.p99, 2)} / ${fixed(quarter.probe.eventLoopDelayMs.p99)} / ${fixed(quarter.probe.eventLoopDelayMs.max)}`,
      },
      {
        metric:
          "quarter max: the server's GC pauses: count / total / mean / max (ms); its major GCs (when in the pass their marking ended)",
        value: `${quarter.probe.gcPauseMs.count} / ${fixed(quarter.probe.gcPauseMs.totalMs, 0)} / ${fixed(quarter.probe.gcPauseMs.mean)} / ${fixed(quarter.probe.gcPauseMs.max)}; ${majorGcsInPass(quarter.probe.gcPauseMs.majorAtEpochMs, quarter.startedAt)}`,
      },
      ...tailRows(
        "quarter max",
        quarter.stalls,
        quarter.generatorGcPauseMs,
        quarter.probe.transactionMs.max,
        quarter.diskFlushes,
        quarter.leadIn,
        quarter.writeBack,
      ),
      {
        metric: "max pass: trades per place_trades call (mean)",
        value: fixed(placed / Math.max(1, probe.transactions), 1),
      },
      {
        metric: "max pass: house rows held per place_trades call p50 / p99 (ms)",
        value: `${fixed(probe.houseLockHoldMs.p50, 2)} / ${fixed(probe.houseLockHoldMs.p99, 2)}`,
      },
      {
        metric:
          "max pass: house rows locked (fraction of wall time): busiest row / mean of rows used",
        value: `${fixed(probe.houseRowBusyFraction * 100)} % / ${fixed(probe.houseRowBusyFractionMean * 100)} % (${probe.houseRowsUsed} rows)`,
      },
      {
        metric: "max pass: statement taking the house row lock, duration p50 / p99 (ms)",
        value: `${fixed(probe.houseLockWaitMs.p50, 2)} / ${fixed(probe.houseLockWaitMs.p99, 2)}`,
      },
      {
        metric: "max pass: place_trades call duration p50 / p99 (ms)",
        value: `${fixed(probe.transactionMs.p50, 2)} / ${fixed(probe.transactionMs.p99, 2)}`,
      },
      {
        metric: "max pass: SQL statements per placed trade (all kinds)",
        value: fixed(
          probe.statements.reduce((sum, [, count]) => sum + count, 0) / Math.max(1, placed),
          1,
        ),
      },
      {
        metric: "max pass: CPU cores (2 in all)",
        value: formatCores(cores),
      },
      {
        metric: "max pass: server event-loop delay p99 (ms)",
        value: fixed(probe.eventLoopDelayMs.p99),
      },
      {
        metric: "server RSS after max pass / peak (MiB)",
        value: `${fixed(memoryAfterMax.rss, 0)} / ${fixed(memoryAfterMax.peak, 0)}`,
      },
      ...ledgerCheckRows(ledger),
    );
    notes.push(
      `pg_stat_activity during the half pass (average backends per state, ${halfWaits.samples} samples): ${JSON.stringify(halfWaits.averageBackends)}`,
      `pg_stat_activity during the quarter pass (average backends per state, ${quarter.waits.samples} samples): ${JSON.stringify(quarter.waits.averageBackends)}`,
      `pg_stat_activity during the max pass (average backends of the platform's database per state, ${waits.samples} samples): ${JSON.stringify(waits.averageBackends)}`,
      `Transactions seen during the max pass (by first statement): ${JSON.stringify(probe.transactionKinds)}`,
      `Statements per placed trade: ${statementsPerTrade.join(" | ")}`,
      `Server warn+ log lines: ${warnings.count}${warnings.count ? ` e.g. ${warnings.sample[0]}` : ""}`,
      `Load average before: ${loadBefore}; after: ${loadAverage()}.`,
      statements.available
        ? `PostgreSQL time by statement during the max pass (pg_stat_statements, track = all; a nested statement's time is also its caller's):\n  ${formatStatementTimes(statementTop)}`
        : "PostgreSQL time by statement: not measured (pg_stat_statements is not in shared_preload_libraries).",
    );
    return {
      name: "place-trade",
      rows,
      notes,
      figures: {
        traders: traders_count,
        connections,
        pgbench: {
          updatePlusInsert: {
            tps: pgbenchTps,
            before: { tps: pgBefore.tps, latencyMs: pgBefore.latencyAverageMs },
            after: { tps: pgAfter.tps, latencyMs: pgAfter.latencyAverageMs },
          },
          hotRowPlaceTradeShape64: { tps: pgHot64.tps, latencyMs: pgHot64.latencyAverageMs },
          hotRowPlaceTradeShape10: { tps: pgHot10.tps, latencyMs: pgHot10.latencyAverageMs },
          hotRowLast10: { tps: pgHotLast10.tps, latencyMs: pgHotLast10.latencyAverageMs },
          houseSplit16x10: { tps: pgSplit10.tps, latencyMs: pgSplit10.latencyAverageMs },
          shardLast10: { tps: pgShardLast10.tps, latencyMs: pgShardLast10.latencyAverageMs },
        },
        max: {
          tradesPerSecond: maxRate,
          client: "autocannon",
          latencyMs: maxLatency,
          non2xx: maxPass.non2xx,
          errors: maxPass.errors,
          timeouts: maxPass.timeouts,
          requests: maxPass.completed,
          postgresCpuUsPerTrade: (cores.postgres * 1e6) / maxRate,
          serverCpuUsPerTrade: (cores.server * 1e6) / maxRate,
        },
        minimalFastify: {
          requestsPerSecond: minimalPass.requestsPerSecond,
          latencyMs: minimalPass.latencyMs,
          non2xx: minimalPass.non2xx,
          cpu: minimalCores,
        },
        ratioToPgbench: ratio,
        half: {
          targetRate: halfRate,
          rateFixed: half_rate_fixed !== null,
          startedAt: halfStartedAt,
          achievedRate: halfPass.latenciesMs.length / halfPass.elapsedS,
          latencyMs: halfLatency,
          failures: halfPass.failures,
          skipped: halfPass.skipped,
          stalls: halfStalls,
          diskFlushes: halfDiskFlushes,
          leadIn: { latencyMs: summarise(halfLeadIn.latenciesMs), failures: halfLeadIn.failures },
          writeBack: halfWriteBack,
        },
        quarter: {
          targetRate: quarterRate,
          startedAt: quarter.startedAt,
          achievedRate: quarter.pass.latenciesMs.length / quarter.pass.elapsedS,
          latencyMs: summarise(quarter.pass.latenciesMs),
          failures: quarter.pass.failures,
          skipped: quarter.pass.skipped,
          cpu: quarter.cores,
          stalls: quarter.stalls,
          diskFlushes: quarter.diskFlushes,
          leadIn: {
            latencyMs: summarise(quarter.leadIn.latenciesMs),
            failures: quarter.leadIn.failures,
          },
          writeBack: quarter.writeBack,
        },
        houseLock: {
          holdMs: probe.houseLockHoldMs,
          waitMs: probe.houseLockWaitMs,
          busiestRowBusyFraction: probe.houseRowBusyFraction,
          meanRowBusyFraction: probe.houseRowBusyFractionMean,
          rowsUsed: probe.houseRowsUsed,
        },
        transactionMs: probe.transactionMs,
        cpu: cores,
        cpuHalfPass: halfCores,
        serverEventLoopDelayMs: probe.eventLoopDelayMs,
        serverRssMiB: memoryAfterMax,
        pgStatActivity: waits.averageBackends,
        ledgerViolations: ledger.violationCount,
        met: {
          ratio: ratio >= 0.75,
          halfP99: halfP99Met,
        },
      },
    };
  } finally {
    await child?.close();
  }
}

/** bench/minimal-fastify.ts in its own process (as the platform runs in its own). */
async function startMinimalFastify() {
  const entry = fileURLToPath(new URL("./minimal-fastify.ts", import.meta.url));
  const child = fork(entry, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("minimal Fastify did not start")), 30_000);
    child.once("message", (message) => {
      clearTimeout(timer);
      resolve((message as { ready: string }).ready);
    });
    child.once("exit", (code) => reject(new Error(`minimal Fastify exited (${code})`)));
  });
  return {
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      await exited;
    },
  };
}

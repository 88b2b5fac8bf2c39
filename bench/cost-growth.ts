// (e) Cost as work grows (issue 16 item 5): does a placed trade and a settled trade cost the
// same with 1k, 10k, 100k and 1M settled trades already in the database? At each size:
//   - history: the trades table is grown to the size through place_trades (the one trade
//     writer) and settled through the worker's settleDue, so every trade has its stake and
//     settlement entries and its journal chain links, as a real database's history would;
//   - sizes of the trades, postings, journal_entries and trade_audit_windows tables and of
//     their indexes, and the time of the ledger check (checkLedger) and of journal:verify;
//   - place-trade over HTTP at a fixed rate (open loop, 1,000 traders): p50 / p99 latency and
//     CPU per placed trade of PostgreSQL and of the server;
//   - settlement of 10,000 trades due in one second: drain time and CPU per settled trade;
//   - per statement, PostgreSQL execution time per trade (pg_stat_statements, this database
//     only), so a statement whose cost grows with history is named.
// The full run (up to 1M) took 17 min here (16:35, other sessions busy), so it is not in
// `npm run bench`'s default list.
// BENCH_GROWTH_SIZES=1000,10000 (comma-separated trade counts) runs a reduced one.
import { performance } from "node:perf_hooks";
import { bench_symbols as symbols } from "./lib/bench-symbols.ts";
import { type PlatformChild, startPlatformChild } from "./lib/child.ts";
import { keepAliveAgent, openLoop } from "./lib/http-load.ts";
import { withClient } from "./lib/postgres.ts";
import {
  type BenchResult,
  type CpuGroup,
  coresBetween,
  cpuByGroup,
  fixed,
  formatCores,
  loadAverage,
  processMemoryMiB,
  type ResultRow,
  summarise,
} from "./lib/stats.ts";

const history_sizes = (process.env.BENCH_GROWTH_SIZES ?? "1000,10000,100000,1000000")
  .split(",")
  .map(Number);
const traders_count = 1_000;
const place_rate_per_second = 1_000;
const place_warmup_ms = 2_000;
const place_duration_ms = 10_000;
const place_connections = 64;
const place_outstanding_max = 5_000;
const settle_due_trades = 10_000;
const asset = "EURUSD";
/** Bounds: growing to the largest size (seed and settle), one ledger + journal check. */
const history_deadline_ms = 20 * 60_000;
const check_deadline_ms = 15 * 60_000;
const settle_deadline_ms = 120_000;
/** The child guards against being orphaned; this run needs longer than the default 9 min. */
const child_lifetime_ms = 60 * 60_000;
const tables = ["trades", "postings", "journal_entries", "trade_audit_windows"] as const;
const statements_reported = 6;

interface TableSize {
  table: string;
  rows: number;
  /** Heap (with TOAST) and all indexes, bytes. */
  tableBytes: number;
  indexBytes: number;
}

async function tableSizes(databaseUrl: string): Promise<TableSize[]> {
  return withClient(databaseUrl, async (client) => {
    const sizes: TableSize[] = [];
    for (const table of tables) {
      const result = await client.query<{ rows: string; table_bytes: string; index_bytes: string }>(
        `SELECT (SELECT COUNT(*) FROM ${table})::bigint AS rows,
                pg_table_size($1::regclass) AS table_bytes,
                pg_indexes_size($1::regclass) AS index_bytes`,
        [table],
      );
      const row = result.rows[0]!;
      sizes.push({
        table,
        rows: Number(row.rows),
        tableBytes: Number(row.table_bytes),
        indexBytes: Number(row.index_bytes),
      });
    }
    return sizes;
  });
}

interface StatementTotals {
  query: string;
  calls: number;
  execMs: number;
}

/**
 * pg_stat_statements of one database (read from the admin database, where the extension
 * lives; never reset, since other sessions use it: the caller takes differences).
 */
async function statementTotals(
  adminUrl: string,
  databaseName: string,
): Promise<Map<string, StatementTotals>> {
  return withClient(adminUrl, async (client) => {
    const result = await client.query<{
      queryid: string;
      query: string;
      calls: string;
      exec_ms: number;
    }>(
      `SELECT s.queryid::text AS queryid, s.query, s.calls::text AS calls,
              s.total_exec_time AS exec_ms
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1`,
      [databaseName],
    );
    return new Map(
      result.rows.map((row) => [
        row.queryid,
        { query: row.query, calls: Number(row.calls), execMs: row.exec_ms },
      ]),
    );
  });
}

/** The statements with the most execution time between two readings, per trade. */
function statementsPerTrade(
  before: Map<string, StatementTotals>,
  after: Map<string, StatementTotals>,
  trades: number,
) {
  const rows: Array<{ query: string; callsPerTrade: number; execUsPerTrade: number }> = [];
  for (const [id, total] of after) {
    const previous = before.get(id);
    const calls = total.calls - (previous?.calls ?? 0);
    const execMs = total.execMs - (previous?.execMs ?? 0);
    if (calls <= 0) continue;
    rows.push({
      query: total.query.replace(/\s+/g, " ").trim().slice(0, 90),
      callsPerTrade: calls / Math.max(1, trades),
      execUsPerTrade: (execMs * 1000) / Math.max(1, trades),
    });
  }
  return rows.sort((a, b) => b.execUsPerTrade - a.execUsPerTrade).slice(0, statements_reported);
}

function statementsNote(rows: ReturnType<typeof statementsPerTrade>): string {
  return rows
    .map(
      (row) =>
        `${fixed(row.execUsPerTrade, 1)} µs (${fixed(row.callsPerTrade, 3)} calls) ${row.query}`,
    )
    .join(" | ");
}

const mebibyte = 1024 * 1024;
function mib(bytes: number): string {
  return fixed(bytes / mebibyte, 1);
}

/** CPU µs per item of one group over a window of `wallS` seconds. */
function microsecondsPer(
  cores: Record<CpuGroup, number>,
  group: CpuGroup,
  wallS: number,
  items: number,
) {
  return (cores[group] * wallS * 1e6) / Math.max(1, items);
}

interface Step {
  historyTrades: number;
  growSeconds: number;
  /** Of growSeconds: opening the trades (place_trades) and settling them (settleDue). */
  seedSeconds: number;
  settleSeconds: number;
  sizes: TableSize[];
  plans: Awaited<ReturnType<typeof explainQueries>>;
  ledgerCheckSeconds: number;
  ledgerViolations: number;
  journalVerifySeconds: number;
  journalProblem: string | null;
  journalRecords: number;
  place: {
    tradesAtStart: number;
    placed: number;
    ratePerSecond: number;
    latencyMs: ReturnType<typeof summarise>;
    failures: Record<string, number>;
    skipped: number;
    cores: Record<CpuGroup, number>;
    postgresUsPerTrade: number;
    serverUsPerTrade: number;
    statements: ReturnType<typeof statementsPerTrade>;
  };
  settle: {
    tradesAtStart: number;
    due: number;
    settled: number;
    drainMs: number;
    passErrors: number;
    open: number;
    cores: Record<CpuGroup, number>;
    postgresUsPerTrade: number;
    serverUsPerTrade: number;
    statements: ReturnType<typeof statementsPerTrade>;
  };
}

async function tradeCount(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ n: string }>("SELECT COUNT(*)::bigint AS n FROM trades");
    return Number(result.rows[0]!.n);
  });
}

/**
 * The settlement worker's queries whose cost could follow history rather than the due
 * trades, and a trader's history page, planned and run on this size's history (inside a
 * transaction rolled back, since the claim locks): execution time and the plan's first
 * lines, as evidence either way.
 */
const explained_queries = {
  // settlement_claim's read (030_trading.sql), after its partition lock.
  claim: `SELECT json_agg(json_build_array(
            t.id, t.user_id, t.is_practice, t.asset, t.direction, t.stake_cents,
            t.duration_seconds, t.payout_percent, t.entry_price, t.entry_at, t.feed,
            t.start_time, t.expires_at, t.received_at, t.rule_version)
          ORDER BY o.user_id % 2, o.expires_at, o.trade_id)
          FROM (SELECT o.trade_id, o.user_id, o.expires_at FROM open_trades o
                WHERE o.expires_at <= now() AND o.user_id % 2 = 0
                ORDER BY o.user_id % 2, o.expires_at, o.trade_id LIMIT 2000) AS o
          JOIN trades t ON t.id = o.trade_id`,
  nextExpiry: "SELECT MIN(expires_at) AS next FROM open_trades",
  // A trader's trade history, first page, as tradeHistoryPage (trading/trades.ts) asks it:
  // the count grows with that trader's own trades (1,000 each at 1M here), not with all.
  historyCount: `SELECT COUNT(*)::bigint AS total FROM trades
          WHERE user_id = (SELECT MIN(user_id) FROM trades) AND is_practice`,
  historyPage: `SELECT * FROM trades WHERE user_id = (SELECT MIN(user_id) FROM trades) AND is_practice
          ORDER BY start_time DESC, id DESC LIMIT 50`,
} as const;

async function explainQueries(databaseUrl: string) {
  return withClient(databaseUrl, async (client) => {
    const plans: Record<string, { executionMs: number; plan: string }> = {};
    for (const [name, sql] of Object.entries(explained_queries)) {
      await client.query("BEGIN");
      try {
        const result = await client.query<{ "QUERY PLAN": string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
        );
        const lines = result.rows.map((row) => row["QUERY PLAN"]);
        const execution = lines.find((line) => line.startsWith("Execution Time"));
        plans[name] = {
          executionMs: Number(/([\d.]+) ms/.exec(execution ?? "")?.[1] ?? Number.NaN),
          plan: lines
            .filter((line, index) => index < 2 || !/^\s*(Planning|Execution|Buffers)/.test(line))
            .slice(0, 6)
            .map((line) => line.trim())
            .join(" / "),
        };
      } finally {
        await client.query("ROLLBACK");
      }
    }
    return plans;
  });
}

async function measureStep(
  server: PlatformChild,
  adminUrl: string,
  tokens: string[],
  historyTrades: number,
): Promise<Step> {
  const grown = await server.call(
    "growHistory",
    { trades: historyTrades, symbols, deadlineMs: history_deadline_ms },
    history_deadline_ms + 60_000,
  );
  const sizes = await tableSizes(server.databaseUrl);
  const plans = await explainQueries(server.databaseUrl);
  const check = await server.call("ledgerCheck", undefined, check_deadline_ms);

  // --- place-trade at a fixed rate over HTTP -----------------------------------------------
  await server.call("offerTick", { symbol: asset, price: 100 });
  const bodies = (["call", "put"] as const).map((type) =>
    Buffer.from(JSON.stringify({ asset, type, amount: 1, duration: 60, is_practice: true })),
  );
  const next = (sequence: number) => ({
    path: "/api/v1/place-trade",
    body: bodies[sequence % 2]!,
    token: tokens[sequence % tokens.length]!,
  });
  const agent = keepAliveAgent(place_connections);
  const placeTradesAtStart = await tradeCount(server.databaseUrl);
  await openLoop({
    baseUrl: server.baseUrl,
    agent,
    ratePerSecond: place_rate_per_second,
    durationMs: place_warmup_ms,
    maxOutstanding: place_outstanding_max,
    next,
  });
  const placeStatementsBefore = await statementTotals(adminUrl, server.databaseName);
  const placeCpuBefore = cpuByGroup(server.pid);
  const placeWallBefore = performance.now();
  const pass = await openLoop({
    baseUrl: server.baseUrl,
    agent,
    ratePerSecond: place_rate_per_second,
    durationMs: place_duration_ms,
    maxOutstanding: place_outstanding_max,
    next,
  });
  const placeWallS = (performance.now() - placeWallBefore) / 1000;
  const placeCores = coresBetween(placeCpuBefore, cpuByGroup(server.pid), placeWallS);
  const placeStatementsAfter = await statementTotals(adminUrl, server.databaseName);
  agent.destroy();
  const placed = pass.latenciesMs.length;

  // The trades just placed join the history: settled, unmeasured, before the burst below.
  const cleared = await server.call(
    "settleOpenTrades",
    { symbols, deadlineMs: settle_deadline_ms },
    settle_deadline_ms + 60_000,
  );
  if (cleared.open !== 0) throw new Error(`${cleared.open} placed trades left open`);

  // --- 10,000 trades due in one second ------------------------------------------------------
  await server.call(
    "seedSettlement",
    { trades: settle_due_trades, symbols, deadlineMs: settle_deadline_ms },
    settle_deadline_ms + 60_000,
  );
  const settleTradesAtStart = await tradeCount(server.databaseUrl);
  const settleStatementsBefore = await statementTotals(adminUrl, server.databaseName);
  const burst = await server.call(
    "settleOpenTrades",
    { symbols, deadlineMs: settle_deadline_ms },
    settle_deadline_ms + 60_000,
  );
  const settleStatementsAfter = await statementTotals(adminUrl, server.databaseName);
  const burstCores = burst.cores ?? { server: 0, bench: 0, postgres: 0, rest: 0 };
  const burstWallS = burst.drainMs / 1000;

  return {
    historyTrades,
    growSeconds: grown.seconds,
    seedSeconds: grown.seedSeconds,
    settleSeconds: grown.settleSeconds,
    sizes,
    plans,
    ledgerCheckSeconds: check.seconds,
    ledgerViolations: check.violationCount,
    journalVerifySeconds: check.journalSeconds,
    journalProblem: check.journalProblem,
    journalRecords: check.journalRecords,
    place: {
      tradesAtStart: placeTradesAtStart,
      placed,
      ratePerSecond: placed / pass.elapsedS,
      latencyMs: summarise(pass.latenciesMs),
      failures: pass.failures,
      skipped: pass.skipped,
      cores: placeCores,
      postgresUsPerTrade: microsecondsPer(placeCores, "postgres", placeWallS, placed),
      serverUsPerTrade: microsecondsPer(placeCores, "server", placeWallS, placed),
      statements: statementsPerTrade(placeStatementsBefore, placeStatementsAfter, placed),
    },
    settle: {
      tradesAtStart: settleTradesAtStart,
      due: burst.due,
      settled: burst.settled,
      drainMs: burst.drainMs,
      passErrors: burst.passErrors,
      open: burst.open,
      cores: burstCores,
      postgresUsPerTrade: microsecondsPer(burstCores, "postgres", burstWallS, burst.settled),
      serverUsPerTrade: microsecondsPer(burstCores, "server", burstWallS, burst.settled),
      statements: statementsPerTrade(settleStatementsBefore, settleStatementsAfter, burst.settled),
    },
  };
}

/** The growth table: one row per history size. */
function growthTable(steps: Step[]): string {
  const header = [
    "history (trades)",
    "place p50 / p99 (ms)",
    "place PG / Node CPU per trade (µs)",
    "10k due: drain (s)",
    "settle PG / Node CPU per trade (µs)",
    "trades / postings / journal_entries, table + index (MiB)",
    "ledger check (s)",
    "journal:verify (s)",
    "rest of machine, place / settle (cores)",
  ];
  const size = (step: Step, table: string) => {
    const found = step.sizes.find((entry) => entry.table === table)!;
    return `${mib(found.tableBytes)} + ${mib(found.indexBytes)}`;
  };
  const lines = steps.map((step) => [
    step.historyTrades.toLocaleString("en-US"),
    `${fixed(step.place.latencyMs.p50)} / ${fixed(step.place.latencyMs.p99)}`,
    `${fixed(step.place.postgresUsPerTrade, 0)} / ${fixed(step.place.serverUsPerTrade, 0)}`,
    fixed(step.settle.drainMs / 1000, 2),
    `${fixed(step.settle.postgresUsPerTrade, 0)} / ${fixed(step.settle.serverUsPerTrade, 0)}`,
    ["trades", "postings", "journal_entries"].map((table) => size(step, table)).join(" / "),
    fixed(step.ledgerCheckSeconds, 2),
    fixed(step.journalVerifySeconds, 2),
    `${fixed(step.place.cores.rest, 2)} / ${fixed(step.settle.cores.rest, 2)}`,
  ]);
  const format = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [format(header), format(header.map(() => "---")), ...lines.map(format)].join("\n");
}

export async function runCostGrowthBench(): Promise<BenchResult> {
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const loadBefore = loadAverage();
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const sizes = [...history_sizes].sort((a, b) => a - b);
  if (sizes.some((value) => !Number.isSafeInteger(value) || value < 0)) {
    throw new Error(`BENCH_GROWTH_SIZES must be trade counts: ${history_sizes.join(",")}`);
  }
  // Inherited by the child: its orphan guard must outlive the largest size's history.
  process.env.BENCH_CHILD_LIFETIME_MS ??= String(child_lifetime_ms);
  const steps: Step[] = [];
  const memories: string[] = [];
  let warningCount = 0;
  let warningSample = "";
  // A fresh database per size, so each step's history is exactly its size: the trades the
  // previous step's measurements placed would otherwise count 20,000 into the next one.
  for (const historyTrades of sizes) {
    const started = performance.now();
    let child: PlatformChild | null = null;
    try {
      child = await startPlatformChild("cost-growth");
      const server = child;
      const setup = await server.call("createTraders", { count: traders_count }, 120_000);
      const step = await measureStep(server, adminUrl, setup.tokens, historyTrades);
      steps.push(step);
      const memory = processMemoryMiB(server.pid);
      memories.push(`${historyTrades}: ${fixed(memory.rss, 0)} / ${fixed(memory.peak, 0)}`);
      // Every start logs the first admin's one-time password at warn: the sample skips it.
      const warnings = server.warnings();
      warningCount += warnings.count;
      warningSample ||= warnings.sample.find((line) => !line.includes("FIRST ADMIN CREATED")) ?? "";
      console.info(
        `cost-growth: ${historyTrades} trades: history grown in ${fixed(step.growSeconds, 1)} s (${fixed(step.historyTrades / Math.max(0.001, step.growSeconds), 0)} trades/s: opened in ${fixed(step.seedSeconds, 1)} s, settled in ${fixed(step.settleSeconds, 1)} s), step done in ${fixed((performance.now() - started) / 1000, 0)} s`,
      );
    } finally {
      await child?.close();
    }
  }
  for (const step of steps) {
    const label = `${step.historyTrades.toLocaleString("en-US")} trades`;
    const placeFailures = Object.entries(step.place.failures)
      .map(([status, count]) => `${status}×${count}`)
      .join(", ");
    rows.push(
      {
        metric: `${label}: place-trade at ${place_rate_per_second}/s, p50 / p99 (ms)`,
        value: `${fixed(step.place.latencyMs.p50)} / ${fixed(step.place.latencyMs.p99)} (${step.place.placed} placed, ${fixed(step.place.ratePerSecond, 0)}/s, non-201 ${placeFailures || "0"}, skipped ${step.place.skipped})`,
        target: "all placed",
        met: placeFailures === "" && step.place.skipped === 0,
      },
      {
        metric: `${label}: place-trade CPU per trade, PostgreSQL / server (µs)`,
        value: `${fixed(step.place.postgresUsPerTrade, 0)} / ${fixed(step.place.serverUsPerTrade, 0)} (${formatCores(step.place.cores)})`,
      },
      {
        metric: `${label}: ${settle_due_trades} due in one second, drain (s) / CPU per settled trade PostgreSQL / server (µs)`,
        value: `${fixed(step.settle.drainMs / 1000, 2)} / ${fixed(step.settle.postgresUsPerTrade, 0)} / ${fixed(step.settle.serverUsPerTrade, 0)} (${formatCores(step.settle.cores)})`,
        target: "all settled",
        met:
          step.settle.settled === step.settle.due &&
          step.settle.open === 0 &&
          step.settle.passErrors === 0,
      },
      {
        metric: `${label}: ledger check / journal:verify (s)`,
        value: `${fixed(step.ledgerCheckSeconds, 2)} / ${fixed(step.journalVerifySeconds, 2)} (${step.ledgerViolations} violations; journal ${step.journalProblem ?? "all hold"}, ${step.journalRecords} records)`,
        target: "clean",
        met: step.ledgerViolations === 0 && step.journalProblem === null,
      },
      {
        metric: `${label}: table + index sizes (MiB)`,
        value: step.sizes
          .map(
            (entry) =>
              `${entry.table} ${entry.rows} rows ${mib(entry.tableBytes)} + ${mib(entry.indexBytes)}`,
          )
          .join("; "),
      },
    );
    notes.push(
      `${label}: place-trade measured with ${step.place.tradesAtStart} trades in the database, settlement with ${step.settle.tradesAtStart} (its 10,000 due included). PostgreSQL time per placed trade by statement: ${statementsNote(step.place.statements)}`,
      `${label}: PostgreSQL time per settled trade by statement: ${statementsNote(step.settle.statements)}`,
      `${label}: EXPLAIN ANALYZE on the history: ${Object.entries(step.plans)
        .map(([name, plan]) => `${name} ${fixed(plan.executionMs, 3)} ms [${plan.plan}]`)
        .join(" | ")}`,
    );
  }
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (first && last && first !== last) {
    rows.push(
      {
        metric: `growth ${first.historyTrades} → ${last.historyTrades}: place PostgreSQL µs per trade`,
        value: `× ${fixed(last.place.postgresUsPerTrade / first.place.postgresUsPerTrade, 2)}`,
      },
      {
        metric: `growth ${first.historyTrades} → ${last.historyTrades}: settle PostgreSQL µs per trade`,
        value: `× ${fixed(last.settle.postgresUsPerTrade / first.settle.postgresUsPerTrade, 2)}`,
      },
      {
        metric: `growth ${first.historyTrades} → ${last.historyTrades}: journal:verify time`,
        value: `× ${fixed(last.journalVerifySeconds / first.journalVerifySeconds, 1)}`,
      },
    );
  }
  // The growth table itself, rows = history sizes (run.ts prints the metric table after).
  console.info(`\n${growthTable(steps)}\n`);
  notes.push(
    "CPU is per process from /proc; PostgreSQL's figure is every postgres process on the machine (other databases included), so a busy 'rest of machine' also means other sessions' PostgreSQL work may be counted in it.",
    `Server RSS / peak after each size (MiB): ${memories.join("; ")}. Server warn+ log lines: ${warningCount} (one per start is the first admin's one-time password)${warningSample ? ` e.g. ${warningSample}` : ""}.`,
    `Load average before: ${loadBefore}; after: ${loadAverage()}.`,
  );
  return {
    name: "cost-growth",
    rows,
    notes,
    figures: {
      traders: traders_count,
      placeRatePerSecond: place_rate_per_second,
      placeDurationMs: place_duration_ms,
      settleDueTrades: settle_due_trades,
      steps: steps.map((step) => ({
        historyTrades: step.historyTrades,
        growSeconds: step.growSeconds,
        seedSeconds: step.seedSeconds,
        settleSeconds: step.settleSeconds,
        sizes: step.sizes,
        plans: step.plans,
        ledgerCheckSeconds: step.ledgerCheckSeconds,
        journalVerifySeconds: step.journalVerifySeconds,
        journalRecords: step.journalRecords,
        ledgerViolations: step.ledgerViolations,
        journalProblem: step.journalProblem,
        place: { ...step.place, statements: undefined },
        settle: { ...step.settle, statements: undefined },
      })),
    },
  };
}

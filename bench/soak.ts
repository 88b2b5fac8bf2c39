// (e) Soak (issue 16 item 4): the realistic mix of bench/lib/soak-run.ts for
// BENCH_SOAK_MINUTES (default 30) on PostgreSQL, then the checks: no unexpected reply, no
// socket failure, RSS and heap flat after warm-up (< 10 % growth), connections flat, old
// price rows pruned, ledger check and journal verify clean. Not in the default list:
// `npm run bench -- soak`.
import {
  calibration_connections,
  type Growth,
  mix_http_connections,
  runSoak,
  type SoakReport,
  type SoakSample,
} from "./lib/soak-run.ts";
import { type BenchResult, fixed, loadAverage, type ResultRow } from "./lib/stats.ts";

/**
 * Half of place-trade's maximum, measured on the soak's own platform first ("half-max"), as
 * item 4 asks; BENCH_SOAK_TRADES_PER_S sets a rate instead.
 */
const trades_per_s: number | "half-max" = process.env.BENCH_SOAK_TRADES_PER_S
  ? Number(process.env.BENCH_SOAK_TRADES_PER_S)
  : "half-max";
const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const sockets = Number(process.env.BENCH_SOAK_SOCKETS ?? 1_000);
/**
 * Warm-up: the longest expiry (5 min) plus a minute, so the number of open trades (and
 * whatever the server keeps per open trade) has reached its steady level; shorter runs use
 * their first fifth.
 */
const warmup_ms = Math.min(6 * 60_000, (minutes * 60_000) / 5);
const growth_percent_max = 10;
const tables_shown = [
  "trades",
  "postings",
  "journal_entries",
  "price_ticks",
  "candles_1s",
  "candles_1m",
  "idempotency_keys",
  "sessions",
  "trade_audit_windows",
  "outbox_emails",
  "notifications",
  "sign_in_attempts",
];

function growthText(value: Growth, unit: string) {
  return `${fixed(value.warmup)} → ${fixed(value.end)} ${unit} (${value.growthPercent >= 0 ? "+" : ""}${fixed(value.growthPercent)} %)`;
}

function series(samples: SoakSample[], warmupIndex: number, pick: (s: SoakSample) => number) {
  const first = samples[0]!;
  const warm = samples[warmupIndex]!;
  const last = samples[samples.length - 1]!;
  return `${fixed(pick(first))} @${fixed(first.atS, 0)} s / ${fixed(pick(warm))} @${fixed(warm.atS, 0)} s / ${fixed(pick(last))} @${fixed(last.atS, 0)} s`;
}

export function soakRows(report: SoakReport): ResultRow[] {
  const { samples, warmupSampleIndex: w } = report;
  const mib = (bytes: number) => bytes / 2 ** 20;
  const rows: ResultRow[] = [
    {
      metric: "trade rate asked",
      value: report.calibration
        ? `${report.options.tradesPerS}/s: half of the ${fixed(report.calibration.requestsPerSecond, 0)}/s maximum measured first (autocannon, ${calibration_connections} connections, ${fixed(report.calibration.elapsedS, 0)} s, ${report.calibration.non2xx} non-2xx)`
        : `${report.options.tradesPerS}/s (BENCH_SOAK_TRADES_PER_S)`,
    },
    {
      metric: "trades sent over (keep-alive connections, one request at a time each)",
      value: String(mix_http_connections),
    },
    {
      metric: "trades placed / sent (rate)",
      value: `${report.tradesPlaced} / ${report.tradesSent} (${fixed(report.tradesPlaced / report.elapsedS, 0)}/s)`,
    },
    {
      metric: "trade latency p50 / p99 / max (ms, from schedule)",
      value: `${fixed(report.tradeLatencyMs.p50)} / ${fixed(report.tradeLatencyMs.p99)} / ${fixed(report.tradeLatencyMs.max)}`,
    },
    {
      metric: "trades settled / open at end",
      value: `${report.settledTrades} / ${report.openTradesAtEnd}`,
    },
    {
      metric: "deposits / withdrawals decided by staff, sign-ins",
      value: `${report.deposits} / ${report.withdrawals}, ${report.signIns}`,
    },
    {
      metric: "unexpected replies",
      value: `${report.errors}${report.errors > 0 ? ` ${JSON.stringify(report.errorsByKind)}` : ""}`,
      target: "0",
      met: report.errors === 0,
    },
    {
      metric: "socket failures / silent socket-intervals",
      value: `${report.socketFailures} / ${report.silentSocketIntervals}${report.socketFailures > 0 ? ` ${JSON.stringify(report.socketFailuresByKind)}` : ""}`,
      target: "0 / 0",
      met: report.socketFailures === 0 && report.silentSocketIntervals === 0,
    },
    {
      metric: "server RSS after GC, warm-up → end",
      value: growthText(report.rss, "MiB"),
      target: `< ${growth_percent_max} %`,
      met: report.rss.growthPercent < growth_percent_max,
    },
    {
      metric: "server heap used after GC, warm-up → end",
      value: growthText(report.heap, "MiB"),
      target: `< ${growth_percent_max} %`,
      met: report.heap.growthPercent < growth_percent_max,
    },
    {
      metric: "PostgreSQL connections: warm-up / max after / end",
      value: `${report.connections.warmup} / ${report.connections.maxAfterWarmup} / ${report.connections.end}`,
      target: "max after ≤ warm-up",
      met: report.connections.maxAfterWarmup <= report.connections.warmup,
    },
    {
      metric: "stale price rows seeded → at end (ticks, 1 s candles)",
      value: `${report.retention.staleTicksSeeded} → ${report.retention.staleTicksAtEnd}, ${report.retention.staleCandles1sSeeded} → ${report.retention.staleCandles1sAtEnd} (none left from ${report.retention.prunedByS ?? "never"} s)`,
      target: "0 left",
      met:
        report.retention.staleTicksSeeded > 0 &&
        report.retention.staleTicksAtEnd === 0 &&
        report.retention.staleCandles1sAtEnd === 0,
    },
    {
      metric: "ledger check / journal verify",
      value: `${report.ledger.violationCount} violations (${fixed(report.ledger.seconds)} s) / ${report.ledger.journalProblem ?? "clean"} (${report.ledger.journalRecords} records, ${fixed(report.ledger.journalSeconds)} s)`,
      target: "clean",
      met: report.ledger.violationCount === 0 && report.ledger.journalProblem === null,
    },
    {
      metric: "cores after warm-up",
      value: `server ${fixed(report.cores.server, 2)}, load generator ${fixed(report.cores.bench, 2)}, postgres ${fixed(report.cores.postgres, 2)}, rest of machine ${fixed(report.cores.rest, 2)}`,
    },
    {
      metric: "samples first / warm-up / last: RSS MiB",
      value: series(samples, w, (s) => s.rssMiB),
    },
    {
      metric: "samples first / warm-up / last: heap MiB",
      value: series(samples, w, (s) => s.heapUsedMiB),
    },
    {
      metric: "samples first / warm-up / last: connections",
      value: series(samples, w, (s) => s.connections),
    },
    {
      metric: "samples first / warm-up / last: open trades",
      value: series(samples, w, (s) => s.openTrades),
    },
  ];
  for (const name of tables_shown) {
    const table = report.tables[name];
    if (!table) continue;
    const perRow = (reading: { bytes: number; liveRows: number }) =>
      reading.liveRows > 0 ? `${fixed(reading.bytes / reading.liveRows, 0)} B/row` : "-";
    rows.push({
      metric: `table ${name}: MiB (live rows) warm-up → end`,
      value: `${fixed(mib(table.warmup.bytes))} (${table.warmup.liveRows}, ${perRow(table.warmup)}) → ${fixed(mib(table.end.bytes))} (${table.end.liveRows}, ${perRow(table.end)})`,
    });
  }
  return rows;
}

export async function runSoakBench(): Promise<BenchResult> {
  const loadBefore = loadAverage();
  const report = await runSoak({
    durationMs: minutes * 60_000,
    warmupMs: warmup_ms,
    tradesPerS: trades_per_s,
    traders: 1_000,
    sockets,
    // The product's expiries between 30 s and 5 min (domain/src/catalogue.ts).
    expirySeconds: [30, 60, 300],
    fundingPerS: 2,
    signInsPerS: 1,
    sampleEveryMs: 10_000,
    log: (line) => console.info(line),
  });
  const rows = soakRows(report);
  const { samples, ...summary } = report;
  return {
    name: "soak",
    rows,
    figures: {
      ...summary,
      tables: Object.fromEntries(
        Object.entries(summary.tables).filter(([name]) => tables_shown.includes(name)),
      ),
      samples: samples.length,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAverage(),
    },
    notes: [
      `Mix: ${trades_per_s} trades/s over 1,000 traders (expiries 30 s / 1 min / 5 min), ${sockets} sockets (each signed in, 2 symbols), 2 staff decisions/s (deposits, withdrawals), 1 sign-in/s; system clock; warm-up ${fixed(warmup_ms / 60_000)} min.`,
      "Heap and RSS are read after a forced GC in the server process. Connections: backends of the platform's database. 'postgres' cores count every PostgreSQL process of the machine (other sessions' too).",
    ],
  };
}

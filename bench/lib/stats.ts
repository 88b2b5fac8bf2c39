// Small measurement helpers shared by the benchmarks: percentiles, a millisecond histogram,
// CPU and memory readings from /proc, and the result table.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import {
  constants,
  type IntervalHistogram,
  PerformanceObserver,
  performance,
} from "node:perf_hooks";

/** Nearest-rank percentile of an ascending array (NaN when empty). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarise(values: number[]) {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/**
 * This process's garbage-collection pauses (ms each, all kinds) from now until `stop`. The
 * load generator watches its own: a pause of its event loop delays the sends it schedules,
 * and that delay counts in the latency it measures as if the server had taken it.
 */
export function recordGcPauses() {
  const pausesMs: number[] = [];
  const majorAtEpochMs: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pausesMs.push(entry.duration);
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        majorAtEpochMs.push(performance.timeOrigin + entry.startTime);
      }
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    pausesMs,
    majorAtEpochMs,
    stop() {
      observer.disconnect();
      return gcPauseSummary(pausesMs, majorAtEpochMs);
    },
  };
}

/**
 * The pauses, and when each major GC (mark-compact) ended its marking, by the wall clock: its
 * marking ran on V8's helper threads for a while before, beside the main thread, taking a
 * core from PostgreSQL on a 2-core machine, so a stall can line up with one.
 */
export function gcPauseSummary(pausesMs: number[], majorAtEpochMs: number[] = []) {
  return {
    ...summarise(pausesMs),
    totalMs: pausesMs.reduce((sum, pause) => sum + pause, 0),
    majorAtEpochMs: [...majorAtEpochMs],
  };
}

/**
 * How a latency pass's slow replies are spread: those over `thresholdMs`, and the stalls
 * they make, a stall being slow replies whose due times lie within `gapMs` of each other.
 * A few stalls holding them all is an episode (a slow fsync, a long pause somewhere); many
 * small ones are queueing spread over the pass.
 */
export function slowReplyStalls(
  replies: { dueMs: number[]; latenciesMs: number[] },
  thresholdMs: number,
  gapMs = 200,
) {
  const slowDueMs = replies.dueMs
    .filter((_, index) => replies.latenciesMs[index]! > thresholdMs)
    .sort((a, b) => a - b);
  const stalls: Array<{ replies: number; atMs: number }> = [];
  let lastDueMs = Number.NEGATIVE_INFINITY;
  for (const dueMs of slowDueMs) {
    if (dueMs - lastDueMs > gapMs) stalls.push({ replies: 0, atMs: dueMs });
    stalls[stalls.length - 1]!.replies += 1;
    lastDueMs = dueMs;
  }
  const largest = stalls.sort((a, b) => b.replies - a.replies).slice(0, 3);
  return {
    slow: slowDueMs.length,
    stalls: stalls.length,
    largestStalls: largest.map((stall) => stall.replies),
    /** When each of the largest stalls began: its first slow reply's due time (ms). */
    largestStallsAtMs: largest.map((stall) => stall.atMs),
  };
}

/** Whole-millisecond histogram (0 .. limit ms, plus one overflow bucket): cheap per sample. */
export class MsHistogram {
  readonly counts: Uint32Array;
  count = 0;
  sum = 0;
  max = 0;
  min = Number.POSITIVE_INFINITY;
  constructor(readonly limitMs = 60_000) {
    this.counts = new Uint32Array(limitMs + 2);
  }
  add(ms: number) {
    const bucket = ms < 0 ? 0 : Math.min(this.limitMs + 1, Math.round(ms));
    this.counts[bucket]! += 1;
    this.count += 1;
    this.sum += ms;
    if (ms > this.max) this.max = ms;
    if (ms < this.min) this.min = ms;
  }
  /** Upper edge (ms) of the bucket holding the nearest-rank percentile. */
  percentile(fraction: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(fraction * this.count));
    let seen = 0;
    for (let bucket = 0; bucket < this.counts.length; bucket++) {
      seen += this.counts[bucket]!;
      if (seen >= rank) return bucket;
    }
    return this.limitMs + 1;
  }
  /** Samples strictly above `ms`. */
  above(ms: number): number {
    let total = 0;
    for (let bucket = Math.floor(ms) + 1; bucket < this.counts.length; bucket++) {
      total += this.counts[bucket]!;
    }
    return total;
  }
  reset() {
    this.counts.fill(0);
    this.count = 0;
    this.sum = 0;
    this.max = 0;
    this.min = Number.POSITIVE_INFINITY;
  }
}

const clock_ticks_per_second = 100;

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / clock_ticks_per_second;
}

/** Resident memory (VmRSS) and its peak (VmHWM) of a process in MiB, from /proc/<pid>/status. */
export function processMemoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** Whole-machine CPU split (fractions of all cores) between two /proc/stat readings. */
export function machineCpuDetail(): number[] {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  return line.trim().split(/\s+/).slice(1).map(Number);
}

export function machineShares(before: number[], after = machineCpuDetail()) {
  const delta = after.map((value, index) => value - (before[index] ?? 0));
  const total = delta.reduce((sum, value) => sum + value, 0) || 1;
  const share = (index: number) => (delta[index] ?? 0) / total;
  return {
    user: share(0) + share(1),
    system: share(2),
    softirq: share(5) + share(6),
    steal: share(7),
    idle: share(3) + share(4),
  };
}

export function formatShares(shares: ReturnType<typeof machineShares>): string {
  const percent = (value: number) => `${fixed(value * 100, 0)} %`;
  return `user ${percent(shares.user)}, system ${percent(shares.system)}, irq/softirq ${percent(shares.softirq)}, steal ${percent(shares.steal)}, idle ${percent(shares.idle)}`;
}

/** Whole-machine CPU counters; `machineBusy(a, b)` is the busy fraction of all cores between. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

export function machineBusy(before: ReturnType<typeof machineCpu>, after = machineCpu()): number {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : Number.NaN;
}

/**
 * CPU seconds used so far, per group: the server child(ren), this process, PostgreSQL (and
 * pgbench), and the whole machine (all cores, from /proc/stat, kernel time included).
 */
export function cpuByGroup(serverPids: number | number[] | null): CpuReading {
  const servers = new Set(serverPids === null ? [] : [serverPids].flat());
  const totals: CpuReading = { server: 0, bench: 0, postgres: 0, machine: 0 };
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11]) + Number(fields[12])) / clock_ticks_per_second;
    const pid = Number(entry);
    if (servers.has(pid)) totals.server += seconds;
    else if (pid === process.pid) totals.bench += seconds;
    else if (name === "postgres" || name === "pgbench") {
      // With the CPU of its children that have exited (cutime + cstime): the postmaster's
      // holds every backend it has reaped. Without it, a backend that ended inside a window
      // (the server's pool closes a connection idle for 30 s) took all the CPU it had used
      // since it started out of PostgreSQL's sum, and "rest of machine" showed it instead.
      totals.postgres +=
        seconds + (Number(fields[13]) + Number(fields[14])) / clock_ticks_per_second;
    }
  }
  totals.machine = machineCpu().busy / clock_ticks_per_second;
  return totals;
}
export interface CpuReading {
  server: number;
  bench: number;
  postgres: number;
  machine: number;
}
export type CpuGroup = "server" | "bench" | "postgres" | "rest";

/**
 * Cores used per group between two cpuByGroup readings `wallS` seconds apart; `rest` is the
 * machine's busy time not in the other groups: other processes (also short-lived ones) and
 * kernel time not charged to a process (softirq: loopback TCP, for instance).
 */
export function coresBetween(
  before: CpuReading,
  after: CpuReading,
  wallS: number,
): Record<CpuGroup, number> {
  const cores = (group: keyof CpuReading) => Math.max(0, (after[group] - before[group]) / wallS);
  const known = cores("server") + cores("bench") + cores("postgres");
  return {
    server: cores("server"),
    bench: cores("bench"),
    postgres: cores("postgres"),
    rest: Math.max(0, cores("machine") - known),
  };
}

export function formatCores(cores: Record<CpuGroup, number>): string {
  return `server ${fixed(cores.server, 2)}, load generator ${fixed(cores.bench, 2)}, postgres ${fixed(cores.postgres, 2)}, rest of machine ${fixed(cores.rest, 2)}`;
}

/**
 * Waits (at most `maxWaitMs`) until the machine is quiet: under `busyMax` of all cores busy
 * over a 3-second sample. Returns the last sample, so a noisy run says so.
 */
export async function waitForQuietMachine(maxWaitMs = 180_000, busyMax = 0.1) {
  const started = Date.now();
  let busy = Number.NaN;
  let others = Number.NaN;
  while (Date.now() - started <= maxWaitMs) {
    const before = machineCpu();
    const groupsBefore = cpuByGroup(null);
    await sleep(3_000);
    busy = machineBusy(before);
    others = coresBetween(groupsBefore, cpuByGroup(null), 3).rest;
    if (busy < busyMax) break;
  }
  return { busy, otherCores: others, waitedS: (Date.now() - started) / 1000 };
}

export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

export interface ResultRow {
  metric: string;
  value: string;
  target?: string;
  /** true: met, false: missed, undefined: informational. */
  met?: boolean;
}

export interface BenchResult {
  name: string;
  rows: ResultRow[];
  /** Machine-readable figures: printed as one JSON line. */
  figures: Record<string, unknown>;
  notes: string[];
}

export function renderTable(result: BenchResult): string {
  const header = ["metric", "value", "target", "status"];
  const lines = result.rows.map((row) => [
    row.metric,
    row.value,
    row.target ?? "",
    row.met === undefined ? "" : row.met ? "met" : "MISSED",
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [
    format(header),
    `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`,
    ...lines.map(format),
  ].join("\n");
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An event-loop delay histogram's p50 / p99 / max in ms (it records nanoseconds). */
export function eventLoopDelayMs(histogram: IntervalHistogram) {
  return {
    p50: histogram.percentile(50) / 1e6,
    p99: histogram.percentile(99) / 1e6,
    max: histogram.max / 1e6,
  };
}

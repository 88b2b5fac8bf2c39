// The soak (issue 16 item 4): a realistic mix for a while against the real platform on
// PostgreSQL, sampled every few seconds, then checked. One module for both callers: the
// benchmark (bench/soak.ts, 30 min at half the place-trade maximum) and the CI test
// (server/test/soak.test.ts, 2 min at a lower rate), so both run the same mix and checks.
//
// The mix, all through the real HTTP and WebSocket API of a platform child
// (platform-child.ts on the system clock, its feed ingested through the real path):
// - trades on a fixed schedule (open loop) over `traders` traders, practice account,
//   $1 stakes, expiries drawn from `expirySeconds`, each with an Idempotency-Key as the web
//   app sends one;
// - `sockets` WebSocket clients, each signed in as one trader (so it also gets that trader's
//   trade events) and subscribed to two symbols;
// - staff deciding deposits (created, receipt uploaded, approved) and withdrawals
//   (requested, confirmed through the e-mailed link, paid with a payout reference);
// - trader sign-ins (POST /login with a password: argon2) followed by GET /user.
// Sampled: the server's RSS and heap (after a forced GC), PostgreSQL connections of the
// platform's database, every table's size and live rows, stale price rows (older than
// their retention), replies the mix did not expect and socket failures, CPU per group.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { performance } from "node:perf_hooks";
import pg from "pg";
import WebSocket from "ws";
import {
  candle_1s_retention_ms,
  tick_retention_ms,
} from "../../server/src/prices/price-history.ts";
import { type AutocannonOutcome, autocannonMax } from "./autocannon-load.ts";
import { bench_symbols } from "./bench-symbols.ts";
import { type PlatformChild, startPlatformChild } from "./child.ts";
import { type CpuGroup, coresBetween, cpuByGroup, MsHistogram, sleep } from "./stats.ts";

export interface SoakOptions {
  durationMs: number;
  /** Readings from here on are compared with the one taken here (growth after warm-up). */
  warmupMs: number;
  /**
   * Trades per second; "half-max": half the place-trade maximum measured on this platform
   * first (autocannon, 64 connections, 15 s, the soak's own requests), as item 4 asks.
   */
  tradesPerS: number | "half-max";
  traders: number;
  sockets: number;
  /** Expiries the trades use (seconds, each one the product offers). */
  expirySeconds: number[];
  /** Staff decisions per second, deposits and withdrawals alternately. */
  fundingPerS: number;
  signInsPerS: number;
  sampleEveryMs: number;
  /** Progress lines (one per sample); none when absent. */
  log?: (line: string) => void;
}

const symbols_per_socket = 2;
/** The calibration's connections: the place-trade bench's, so "max" means the same there. */
export const calibration_connections = 64;
/**
 * The mix's connections: a thousand traders' browsers, not one client's pool. Each carries
 * one request at a time, so 64 capped the mix at 64 per reply time (about 2,100/s at 30 ms)
 * and requests queued in the client instead of reaching the server's batches.
 */
export const mix_http_connections = 256;
/** The "half-max" calibration's length. */
const calibration_s = 15;
/** The calibration's trades must all settle within this before the mix starts. */
const calibration_settle_timeout_ms = 120_000;
/** Trades waiting for a reply past this are not sent (counted): the client must not pile up. */
const trades_outstanding_max = 4_000;
const request_timeout_ms = 30_000;
const socket_connect_parallel = 100;
const socket_connect_timeout_ms = 15_000;
const funding_traders = 20;
const deposit_dollars = 20;
const withdrawal_dollars = 10;
const sign_in_traders = 5;
const sign_in_password = "SoakSignIn1843";
const staff = { email: "soak.staff@example.test", password: "SoakStaffSecret1" };
const second_staff = { email: "soak.staff.2@example.test", password: "SoakStaffSecret2" };
/** Stale rows written before the mix, older than their retention: pruning must remove them. */
const stale_seconds = 600;
/** A real 4×4 PNG: receipts are decoded and encoded again, so it must be a real image. */
const receipt_png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWM4IScHRwzEcQCxYxBB16puEAAAAABJRU5ErkJggg==",
  "base64",
);

export interface TableReading {
  bytes: number;
  liveRows: number;
  deadRows: number;
}

export interface SoakSample {
  atS: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** Backends of the platform's database (the sampler's own excluded). */
  connections: number;
  tables: Record<string, TableReading>;
  openTrades: number;
  /** Rows older than their retention (price_ticks: 2 h, candles_1s: 48 h). */
  staleTicks: number;
  staleCandles1s: number;
  tradesPlaced: number;
  errors: number;
  socketFailures: number;
  /** Sockets that received nothing during the interval before this sample. */
  silentSockets: number;
  fundingDecisions: number;
  signIns: number;
  /** Cores per group over the interval before this sample. */
  cores: Record<CpuGroup, number>;
}

export interface Growth {
  warmup: number;
  end: number;
  growthPercent: number;
}

export interface SoakReport {
  /** tradesPerS: the rate used (after any calibration). */
  options: Omit<SoakOptions, "log" | "tradesPerS"> & { tradesPerS: number };
  /** The maximum measured first when the rate was "half-max"; null when it was given. */
  calibration: AutocannonOutcome | null;
  commitNote: string;
  elapsedS: number;
  samples: SoakSample[];
  warmupSampleIndex: number;
  tradesSent: number;
  tradesPlaced: number;
  tradesNotSent: number;
  tradeLatencyMs: { p50: number; p99: number; max: number };
  /** Unexpected replies by "METHOD route status code". */
  errorsByKind: Record<string, number>;
  errors: number;
  socketFailures: number;
  socketFailuresByKind: Record<string, number>;
  silentSocketIntervals: number;
  socketMessages: number;
  deposits: number;
  withdrawals: number;
  signIns: number;
  settledTrades: number;
  openTradesAtEnd: number;
  rss: Growth;
  heap: Growth;
  connections: { warmup: number; maxAfterWarmup: number; end: number };
  tables: Record<string, { warmup: TableReading; end: TableReading; bytesGrowthPercent: number }>;
  retention: {
    staleTicksSeeded: number;
    staleCandles1sSeeded: number;
    staleTicksAtEnd: number;
    staleCandles1sAtEnd: number;
    /** First sample with no stale row left (s from start), null: never. */
    prunedByS: number | null;
  };
  ledger: {
    violationCount: number;
    violations: string[];
    journalProblem: string | null;
    journalRecords: number;
    seconds: number;
    journalSeconds: number;
  };
  /** Mean cores per group from the end of warm-up to the end. */
  cores: Record<CpuGroup, number>;
  serverWarnings: { count: number; sample: string[] };
}

function growth(warmup: number, end: number): Growth {
  return { warmup, end, growthPercent: ((end - warmup) / warmup) * 100 };
}

interface Counters {
  errors: number;
  errorsByKind: Record<string, number>;
  socketFailures: number;
  socketFailuresByKind: Record<string, number>;
  tradesSent: number;
  tradesPlaced: number;
  tradesNotSent: number;
  deposits: number;
  withdrawals: number;
  signIns: number;
  socketMessages: number;
}

function unexpected(counters: Counters, kind: string) {
  counters.errors += 1;
  counters.errorsByKind[kind] = (counters.errorsByKind[kind] ?? 0) + 1;
}

function socketFailed(counters: Counters, kind: string) {
  counters.socketFailures += 1;
  counters.socketFailuresByKind[kind] = (counters.socketFailuresByKind[kind] ?? 0) + 1;
}

/** A small JSON client over fetch: status and parsed body, for the low-rate parts. */
async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: { json?: unknown; token?: string; form?: FormData } = {},
): Promise<{ status: number; body: { data?: Record<string, unknown>; code?: string } | null }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(request_timeout_ms),
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed };
}

/**
 * Calls `step` at `ratePerS` (one at a time: a slow step delays the next, it never piles
 * up), until `stopped()`.
 */
async function paced(ratePerS: number, stopped: () => boolean, step: (n: number) => Promise<void>) {
  const intervalMs = 1000 / ratePerS;
  const started = performance.now();
  for (let n = 0; !stopped(); n++) {
    const dueMs = started + n * intervalMs;
    const waitMs = dueMs - performance.now();
    if (waitMs > 0) await sleep(Math.min(waitMs, 1_000));
    if (stopped()) return;
    if (performance.now() < dueMs) {
      n -= 1;
      continue;
    }
    await step(n);
  }
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const counters: Counters = {
    errors: 0,
    errorsByKind: {},
    socketFailures: 0,
    socketFailuresByKind: {},
    tradesSent: 0,
    tradesPlaced: 0,
    tradesNotSent: 0,
    deposits: 0,
    withdrawals: 0,
    signIns: 0,
    socketMessages: 0,
  };
  let child: PlatformChild | null = null;
  let sampler: pg.Client | null = null;
  const sockets: Array<{ socket: WebSocket; received: number; closing: boolean }> = [];
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: mix_http_connections,
    maxFreeSockets: mix_http_connections,
  });
  try {
    child = await startPlatformChild("soak", {
      env: {
        BENCH_CHILD_CLOCK: "system",
        BENCH_CHILD_FEED_SYMBOLS: bench_symbols.join(","),
        // The run, the setup and the final checks, with room: an orphan guard only.
        BENCH_CHILD_LIFETIME_MS: String(options.durationMs + 60 * 60_000),
        BENCH_CHILD_PLATFORM_ENV: JSON.stringify({
          ADMIN_EMAIL: staff.email,
          ADMIN_PASSWORD: staff.password,
          // One-time gates of a trader's first withdrawal (e-mail verified, identity
          // approved): not steady-state load, so the soak's funding traders skip them.
          REQUIRE_VERIFIED_EMAIL_FOR_WITHDRAWAL: "false",
          REQUIRE_KYC_FOR_WITHDRAWAL: "false",
        }),
      },
    });
    const server = child;
    const { baseUrl } = server;

    // --- setup ------------------------------------------------------------------------
    const { tokens } = await server.call("createTraders", { count: options.traders }, 300_000);
    const staffToken = (await server.call("signInStaff", staff, 120_000)).token;
    await configureBitcoin(baseUrl, server, staffToken);
    // The funding traders sign in with a password like the web app's users: a withdrawal
    // needs a sign-in (or a step-up) within the last 5 minutes, so each signs in again
    // before a withdrawal once its session is 4 minutes old.
    const fundingSessions: FundingSession[] = [];
    for (let index = 0; index < funding_traders; index++) {
      const email = `soak.funding.${index}@example.test`;
      await server.call("createPasswordTrader", { email, password: sign_in_password });
      fundingSessions.push(await fundingSignIn(baseUrl, email));
    }
    const signInEmails: string[] = [];
    for (let index = 0; index < sign_in_traders; index++) {
      const email = `soak.sign-in.${index}@example.test`;
      await server.call("createPasswordTrader", { email, password: sign_in_password });
      signInEmails.push(email);
    }
    // Half the maximum, measured here before anything else runs (no sockets yet, like the
    // place-trade bench). Its trades (30 s, the shortest expiry) settle during the warm-up.
    let calibration: AutocannonOutcome | null = null;
    if (options.tradesPerS === "half-max") {
      calibration = await autocannonMax({
        url: baseUrl,
        path: "/api/v1/place-trade",
        connections: calibration_connections,
        durationS: calibration_s,
        next: (sequence) => ({
          body: tradeBody(sequence, [Math.min(...options.expirySeconds)]),
          headers: {
            authorization: `Bearer ${tokens[sequence % tokens.length]!}`,
            "idempotency-key": randomUUID(),
          },
        }),
      });
      options.log?.(
        `calibration: max ${calibration.requestsPerSecond.toFixed(0)} trades/s (${calibration.non2xx} non-2xx); the soak places half`,
      );
    }
    const tradesPerS =
      options.tradesPerS === "half-max"
        ? Math.max(1, Math.floor((calibration?.requestsPerSecond ?? 2) / 2))
        : options.tradesPerS;

    sampler = new pg.Client({ connectionString: server.databaseUrl });
    await sampler.connect();
    const database = sampler;
    if (calibration) {
      // The calibration's trades (tens of thousands, all 30 s) must not come due inside the
      // mix: settling them at once would hold the traders' accounts for seconds, and the
      // soak would measure the calibration's burst instead of its own steady mix.
      const open = await waitForOpenTradesSettled(database, calibration_settle_timeout_ms);
      options.log?.(`calibration: its trades settled (${open} open)`);
    }
    const seeded = await seedStalePriceRows(database);

    // Sockets: each signs in as a trader and subscribes to two symbols.
    const wsUrl = `${baseUrl.replace(/^http/, "ws")}/api/v1/stream`;
    for (let offset = 0; offset < options.sockets; offset += socket_connect_parallel) {
      const batch = Array.from(
        { length: Math.min(socket_connect_parallel, options.sockets - offset) },
        (_, index) => offset + index,
      );
      const opened = await Promise.all(
        batch.map((index) =>
          openSocket(
            wsUrl,
            tokens[index % tokens.length]!,
            Array.from(
              { length: symbols_per_socket },
              (_, k) => bench_symbols[(index + k * 3) % bench_symbols.length]!,
            ),
            counters,
          ),
        ),
      );
      for (const entry of opened) if (entry) sockets.push(entry);
    }
    if (sockets.length < options.sockets) {
      throw new Error(`only ${sockets.length} of ${options.sockets} sockets opened`);
    }

    // --- the mix ------------------------------------------------------------------------
    let stopping = false;
    const stopped = () => stopping;
    const started = performance.now();
    const latency = new MsHistogram(60_000);
    const trades = runTrades(
      baseUrl,
      agent,
      tokens,
      { ...options, tradesPerS },
      counters,
      latency,
      stopped,
    );
    const funding = paced(options.fundingPerS, stopped, (n) =>
      fundingStep(baseUrl, server, fundingSessions, staffToken, n, counters),
    );
    const signIns = paced(options.signInsPerS, stopped, (n) =>
      signInStep(baseUrl, signInEmails[n % signInEmails.length]!, counters),
    );

    const samples: SoakSample[] = [];
    let cpuBefore = cpuByGroup(server.pid);
    let cpuAtWarmup: ReturnType<typeof cpuByGroup> | null = null;
    let warmupAtMs = Number.NaN;
    let lastSampleMs = performance.now();
    while (performance.now() - started < options.durationMs) {
      const nextMs = lastSampleMs + options.sampleEveryMs;
      await sleep(Math.max(0, nextMs - performance.now()));
      const nowMs = performance.now();
      const cpuNow = cpuByGroup(server.pid);
      const cores = coresBetween(cpuBefore, cpuNow, (nowMs - lastSampleMs) / 1000);
      cpuBefore = cpuNow;
      lastSampleMs = nowMs;
      const sample = await takeSample(server, database, (nowMs - started) / 1000, counters, cores);
      let silent = 0;
      for (const entry of sockets) {
        if (entry.received === 0) silent += 1;
        entry.received = 0;
      }
      sample.silentSockets = silent;
      samples.push(sample);
      if (!cpuAtWarmup && nowMs - started >= options.warmupMs) {
        cpuAtWarmup = cpuNow;
        warmupAtMs = nowMs;
      }
      log(
        `soak ${sample.atS.toFixed(0)} s: rss ${sample.rssMiB.toFixed(0)} MiB, heap ${sample.heapUsedMiB.toFixed(0)} MiB, connections ${sample.connections}, trades ${sample.tradesPlaced} (open ${sample.openTrades}), errors ${sample.errors}, socket failures ${sample.socketFailures}, silent ${silent}, funding ${sample.fundingDecisions}, sign-ins ${sample.signIns}, cores server ${cores.server.toFixed(2)} pg ${cores.postgres.toFixed(2)} load ${cores.bench.toFixed(2)} rest ${cores.rest.toFixed(2)}`,
      );
    }
    stopping = true;
    await Promise.all([trades, funding, signIns]);
    const elapsedS = (performance.now() - started) / 1000;
    const coresAfterWarmup = cpuAtWarmup
      ? coresBetween(cpuAtWarmup, cpuByGroup(server.pid), (performance.now() - warmupAtMs) / 1000)
      : { server: Number.NaN, bench: Number.NaN, postgres: Number.NaN, rest: Number.NaN };
    for (const entry of sockets) {
      entry.closing = true;
      entry.socket.terminate();
    }

    // --- checks -------------------------------------------------------------------------
    const ledger = await server.call("ledgerCheck", undefined, 30 * 60_000);
    const outcomes = await database.query<{ settled: string; open: string }>(
      `SELECT COUNT(*) FILTER (WHERE status <> 'open') AS settled,
              COUNT(*) FILTER (WHERE status = 'open') AS open FROM trades`,
    );
    const warmupIndex = Math.max(
      0,
      samples.findIndex((sample) => sample.atS * 1000 >= options.warmupMs),
    );
    const warm = samples[warmupIndex]!;
    const last = samples[samples.length - 1]!;
    const afterWarmup = samples.slice(warmupIndex);
    const tables: SoakReport["tables"] = {};
    for (const [name, end] of Object.entries(last.tables)) {
      const before = warm.tables[name];
      if (!before) continue;
      tables[name] = {
        warmup: before,
        end,
        bytesGrowthPercent: ((end.bytes - before.bytes) / before.bytes) * 100,
      };
    }
    const cleanIndex = samples.findIndex(
      (sample) => sample.staleTicks === 0 && sample.staleCandles1s === 0,
    );
    const { tradesSent, tradesPlaced, tradesNotSent, errors, errorsByKind } = counters;
    const { socketFailures, socketFailuresByKind, deposits, withdrawals } = counters;
    return {
      options: {
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
        tradesPerS,
        traders: options.traders,
        sockets: options.sockets,
        expirySeconds: options.expirySeconds,
        fundingPerS: options.fundingPerS,
        signInsPerS: options.signInsPerS,
        sampleEveryMs: options.sampleEveryMs,
      },
      calibration,
      commitNote: "the caller's working tree",
      elapsedS,
      samples,
      warmupSampleIndex: warmupIndex,
      tradesSent,
      tradesPlaced,
      tradesNotSent,
      tradeLatencyMs: {
        p50: latency.percentile(0.5),
        p99: latency.percentile(0.99),
        max: latency.max,
      },
      errorsByKind,
      errors,
      socketFailures,
      socketFailuresByKind,
      silentSocketIntervals: samples.reduce((sum, sample) => sum + sample.silentSockets, 0),
      socketMessages: counters.socketMessages,
      deposits,
      withdrawals,
      signIns: counters.signIns,
      settledTrades: Number(outcomes.rows[0]!.settled),
      openTradesAtEnd: Number(outcomes.rows[0]!.open),
      rss: growth(warm.rssMiB, last.rssMiB),
      heap: growth(warm.heapUsedMiB, last.heapUsedMiB),
      connections: {
        warmup: warm.connections,
        maxAfterWarmup: Math.max(...afterWarmup.map((sample) => sample.connections)),
        end: last.connections,
      },
      tables,
      retention: {
        staleTicksSeeded: seeded.ticks,
        staleCandles1sSeeded: seeded.candles,
        staleTicksAtEnd: last.staleTicks,
        staleCandles1sAtEnd: last.staleCandles1s,
        prunedByS: cleanIndex >= 0 ? samples[cleanIndex]!.atS : null,
      },
      ledger: {
        violationCount: ledger.violationCount,
        violations: ledger.violations,
        journalProblem: ledger.journalProblem,
        journalRecords: ledger.journalRecords,
        seconds: ledger.seconds,
        journalSeconds: ledger.journalSeconds,
      },
      cores: coresAfterWarmup,
      serverWarnings: server.warnings(),
    };
  } finally {
    for (const entry of sockets) {
      entry.closing = true;
      entry.socket.terminate();
    }
    agent.destroy();
    await sampler?.end().catch(() => {});
    await child?.close();
  }
}

/**
 * Deposits need the bitcoin method's wallet address: a payment-method change, proposed by
 * one admin and confirmed by a second (four eyes), through the back office's API.
 */
async function configureBitcoin(baseUrl: string, server: PlatformChild, staffToken: string) {
  await server.call("createAdmin", second_staff);
  const secondToken = (await server.call("signInStaff", second_staff, 120_000)).token;
  const proposed = await request(baseUrl, "PUT", "/admin/payment-methods/bitcoin", {
    json: {
      wallet_address: "bc1qsoakwalletaddress000000000000000000000",
      instructions: ["Send only BTC to this address"],
      is_recommended: true,
    },
    token: staffToken,
  });
  if (proposed.status !== 202) throw new Error(`bitcoin change: ${JSON.stringify(proposed)}`);
  const change = proposed.body!.data!.change as { id: number };
  const confirmed = await request(
    baseUrl,
    "POST",
    `/admin/payment-method-changes/${change.id}/confirm`,
    { token: secondToken },
  );
  if (confirmed.status !== 200) throw new Error(`bitcoin confirm: ${JSON.stringify(confirmed)}`);
}

/**
 * Rows older than their retention in price_ticks and candles_1s, as a platform that ran
 * before would have left: the ingesting process's pruning (every minute) must delete them.
 * Written by the harness, once, before the mix (the prices module is their only other
 * writer).
 */
async function seedStalePriceRows(database: pg.Client) {
  const nowMs = Date.now();
  const ticks = await database.query(
    `INSERT INTO price_ticks (symbol, at, price, source)
     SELECT s.symbol, to_timestamp(($2::double precision - g * 1000) / 1000), 100, 'simulated'
     FROM unnest($1::text[]) AS s(symbol), generate_series(1, $3::int) AS g`,
    [bench_symbols, nowMs - tick_retention_ms - 60_000, stale_seconds],
  );
  const candles = await database.query(
    `INSERT INTO candles_1s (symbol, bucket, open, high, low, close, close_at, ticks, source)
     SELECT s.symbol, b.at, 100, 100, 100, 100, b.at, 1, 'simulated'
     FROM unnest($1::text[]) AS s(symbol),
          LATERAL (SELECT to_timestamp(($2::double precision - g * 1000) / 1000) AS at
                   FROM generate_series(1, $3::int) AS g) AS b`,
    [bench_symbols, nowMs - candle_1s_retention_ms - 60_000, stale_seconds],
  );
  return { ticks: ticks.rowCount ?? 0, candles: candles.rowCount ?? 0 };
}

async function takeSample(
  server: PlatformChild,
  database: pg.Client,
  atS: number,
  counters: Counters,
  cores: Record<CpuGroup, number>,
): Promise<SoakSample> {
  // Mail the mix did not read (sign-in notices, receipts) is test support's memory, not
  // the server's: forget it before reading the heap.
  await server.call("trimCapturedMail", { keep: 50 });
  const stats = await server.call("serverStats", { gc: true });
  const connections = await database.query<{ n: string }>(
    `SELECT COUNT(*) AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  const tableRows = await database.query<{
    name: string;
    bytes: string;
    live: string;
    dead: string;
  }>(
    `SELECT relname AS name, pg_total_relation_size(relid) AS bytes,
            n_live_tup AS live, n_dead_tup AS dead
     FROM pg_stat_user_tables`,
  );
  const tables: Record<string, TableReading> = {};
  for (const row of tableRows.rows) {
    tables[row.name] = {
      bytes: Number(row.bytes),
      liveRows: Number(row.live),
      deadRows: Number(row.dead),
    };
  }
  const nowMs = Date.now();
  const stale = await database.query<{ ticks: string; candles: string; open: string }>(
    `SELECT (SELECT COUNT(*) FROM price_ticks WHERE at < $1) AS ticks,
            (SELECT COUNT(*) FROM candles_1s WHERE bucket < $2) AS candles,
            (SELECT COUNT(*) FROM trades WHERE status = 'open') AS open`,
    [new Date(nowMs - tick_retention_ms), new Date(nowMs - candle_1s_retention_ms)],
  );
  return {
    atS,
    rssMiB: stats.memory.rss / 2 ** 20,
    heapUsedMiB: stats.memory.heapUsed / 2 ** 20,
    connections: Number(connections.rows[0]!.n),
    tables,
    openTrades: Number(stale.rows[0]!.open),
    staleTicks: Number(stale.rows[0]!.ticks),
    staleCandles1s: Number(stale.rows[0]!.candles),
    tradesPlaced: counters.tradesPlaced,
    errors: counters.errors,
    socketFailures: counters.socketFailures,
    silentSockets: 0,
    fundingDecisions: counters.deposits + counters.withdrawals,
    signIns: counters.signIns,
    cores,
  };
}

function openSocket(
  url: string,
  token: string,
  symbols: string[],
  counters: Counters,
): Promise<{ socket: WebSocket; received: number; closing: boolean } | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const entry = { socket, received: 0, closing: false };
    let ready = false;
    const timer = setTimeout(() => {
      socketFailed(counters, "connect timeout");
      socket.terminate();
      resolve(null);
    }, socket_connect_timeout_ms);
    socket.on("open", () => {
      socket.send(JSON.stringify({ type: "auth", token }));
      socket.send(JSON.stringify({ type: "subscribe", symbols }));
    });
    socket.on("message", (data: Buffer) => {
      counters.socketMessages += 1;
      entry.received += 1;
      // Only the first bytes are looked at: every frame starts {"type":"…".
      const head = data.toString("latin1", 0, 24);
      if (head.startsWith('{"type":"error"')) {
        socketFailed(counters, `error message: ${data.toString("utf8").slice(0, 120)}`);
      } else if (!ready && head.startsWith('{"type":"subscribed"')) {
        ready = true;
        clearTimeout(timer);
        resolve(entry);
      }
    });
    socket.on("error", (error) => {
      if (!entry.closing) socketFailed(counters, `error: ${error.message}`);
    });
    socket.on("close", (code) => {
      if (!entry.closing) socketFailed(counters, `closed by the server (${code})`);
      if (!ready) {
        clearTimeout(timer);
        resolve(null);
      }
    });
  });
}

/** Waits until no trade is open; throws when some still are after `timeoutMs`. */
async function waitForOpenTradesSettled(database: pg.Client, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const result = await database.query<{ open: string }>(
      "SELECT COUNT(*) AS open FROM trades WHERE status = 'open'",
    );
    const open = Number(result.rows[0]!.open);
    if (open === 0) return open;
    if (performance.now() > deadline) {
      throw new Error(`${open} calibration trades still open after ${timeoutMs / 1000} s`);
    }
    await sleep(1_000);
  }
}

/** POST /place-trade on a fixed schedule; the reply must be 201. */
async function runTrades(
  baseUrl: string,
  agent: http.Agent,
  tokens: string[],
  options: SoakOptions & { tradesPerS: number },
  counters: Counters,
  latency: MsHistogram,
  stopped: () => boolean,
) {
  const base = new URL(baseUrl);
  const intervalMs = 1000 / options.tradesPerS;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let scheduled = 0;
  while (!stopped()) {
    const now = performance.now();
    while (started + scheduled * intervalMs <= now) {
      const dueAt = started + scheduled * intervalMs;
      const sequence = scheduled;
      scheduled += 1;
      if (inFlight.size >= trades_outstanding_max) {
        counters.tradesNotSent += 1;
        unexpected(counters, "trade not sent: too many waiting for a reply");
        continue;
      }
      const body = tradeBody(sequence, options.expirySeconds);
      counters.tradesSent += 1;
      const sent = sendTrade(agent, base, body, tokens[sequence % tokens.length]!).then(
        ({ status, text }) => {
          inFlight.delete(sent);
          if (status === 201) {
            counters.tradesPlaced += 1;
            latency.add(performance.now() - dueAt);
          } else {
            unexpected(counters, `POST /place-trade ${status} ${codeOf(text)}`);
          }
        },
      );
      inFlight.add(sent);
    }
    await sleep(2);
  }
  await Promise.all(inFlight);
}

/** The soak's place-trade request number `sequence`: symbols, sides and expiries in turn. */
function tradeBody(sequence: number, expirySeconds: number[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      asset: bench_symbols[sequence % bench_symbols.length],
      type: sequence % 2 === 0 ? "call" : "put",
      amount: 1,
      duration: expirySeconds[sequence % expirySeconds.length],
      is_practice: true,
    }),
  );
}

function codeOf(text: string): string {
  try {
    return String((JSON.parse(text) as { code?: string; message?: string }).code ?? "");
  } catch {
    return text.slice(0, 60);
  }
}

function sendTrade(
  agent: http.Agent,
  base: URL,
  body: Buffer,
  token: string,
): Promise<{ status: number | "network"; text: string }> {
  return new Promise((resolve) => {
    const outgoing = http.request(
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
          "idempotency-key": randomUUID(),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        // The body is read only to name an unexpected reply's code.
        response.on("data", (chunk: Buffer) => {
          if (status !== 201) chunks.push(chunk);
        });
        response.on("end", () => resolve({ status, text: Buffer.concat(chunks).toString() }));
        response.on("error", (error) => resolve({ status: "network", text: error.message }));
      },
    );
    outgoing.setTimeout(request_timeout_ms, () => outgoing.destroy(new Error("timeout")));
    outgoing.on("error", (error) => resolve({ status: "network", text: error.message }));
    outgoing.end(body);
  });
}

/**
 * Even steps: a deposit made, paid (receipt) and approved by staff. Odd steps: a withdrawal
 * requested, confirmed through its e-mailed link and paid by staff. Each funding trader's
 * first step is a deposit, and each deposit is larger than each withdrawal, so a withdrawal
 * always has the money.
 */
async function fundingStep(
  baseUrl: string,
  server: PlatformChild,
  sessions: FundingSession[],
  staffToken: string,
  n: number,
  counters: Counters,
) {
  const traderIndex = Math.floor(n / 2) % funding_traders;
  if (
    n % 2 === 1 &&
    Date.now() - sessions[traderIndex]!.signedInAtMs > funding_session_age_ms_max
  ) {
    try {
      sessions[traderIndex] = await fundingSignIn(baseUrl, sessions[traderIndex]!.email);
    } catch (error) {
      unexpected(counters, error instanceof Error ? error.message : String(error));
      return;
    }
  }
  const token = sessions[traderIndex]!.token;
  const expect = (
    what: string,
    reply: { status: number; body: { code?: string } | null },
    status: number,
  ) => {
    if (reply.status === status) return true;
    unexpected(counters, `${what} ${reply.status} ${reply.body?.code ?? ""}`);
    return false;
  };
  try {
    if (n % 2 === 0) {
      const created = await request(baseUrl, "POST", "/deposits", {
        json: { payment_method_id: "bitcoin", amount: deposit_dollars },
        token,
      });
      if (!expect("POST /deposits", created, 201)) return;
      const { deposit_id, transaction_hash } = created.body!.data as {
        deposit_id: number;
        transaction_hash: string;
      };
      const form = new FormData();
      form.append("transaction_hash", transaction_hash);
      form.append("receipt", new Blob([receipt_png], { type: "image/png" }), "receipt.png");
      const receipt = await request(baseUrl, "POST", `/deposits/${deposit_id}/receipt`, {
        form,
        token,
      });
      if (!expect("POST /deposits/:id/receipt", receipt, 200)) return;
      const approved = await request(baseUrl, "POST", `/admin/deposits/${deposit_id}/approve`, {
        token: staffToken,
      });
      if (!expect("POST /admin/deposits/:id/approve", approved, 200)) return;
      counters.deposits += 1;
      return;
    }
    const requested = await request(baseUrl, "POST", "/withdrawals", {
      json: {
        payment_method_id: "bank-transfer",
        amount: withdrawal_dollars,
        withdrawal_details: {
          amount: withdrawal_dollars,
          bank_name: "First Bank",
          account_name: "Soak Trader",
          account_number: "987654",
          routing_number: "021000021",
        },
      },
      token,
    });
    if (!expect("POST /withdrawals", requested, 201)) return;
    const { withdrawal_id, transaction_hash } = requested.body!.data as {
      withdrawal_id: number;
      transaction_hash: string;
    };
    const email = sessions[traderIndex]!.email;
    const link = await server.call("emailedLinkToken", {
      to: email,
      subjectPrefix: `Confirm your withdrawal ${transaction_hash} `,
    });
    const confirmed = await request(baseUrl, "POST", "/withdrawals/confirm", {
      json: { token: link.token },
    });
    if (!expect("POST /withdrawals/confirm", confirmed, 200)) return;
    const paid = await request(baseUrl, "POST", `/admin/withdrawals/${withdrawal_id}/approve`, {
      json: { payout_reference: `SOAK-${withdrawal_id}` },
      token: staffToken,
    });
    if (!expect("POST /admin/withdrawals/:id/approve", paid, 200)) return;
    counters.withdrawals += 1;
  } catch (error) {
    unexpected(counters, `funding step failed: ${error instanceof Error ? error.message : error}`);
  }
}

interface FundingSession {
  email: string;
  token: string;
  signedInAtMs: number;
}

/** A withdrawal's step-up window is 5 minutes (server/src/auth/step-up.ts): sign in before. */
const funding_session_age_ms_max = 4 * 60_000;

async function fundingSignIn(baseUrl: string, email: string): Promise<FundingSession> {
  const login = await request(baseUrl, "POST", "/login", {
    json: { email, password: sign_in_password },
  });
  const token = login.body?.data?.token;
  if (login.status !== 200 || typeof token !== "string") {
    throw new Error(
      `funding trader sign-in: POST /login ${login.status} ${login.body?.code ?? ""}`,
    );
  }
  return { email, token, signedInAtMs: Date.now() };
}

/** POST /login with a password, then GET /user with the new session. */
async function signInStep(baseUrl: string, email: string, counters: Counters) {
  try {
    const login = await request(baseUrl, "POST", "/login", {
      json: { email, password: sign_in_password },
    });
    if (login.status !== 200 || typeof login.body?.data?.token !== "string") {
      unexpected(counters, `POST /login ${login.status} ${login.body?.code ?? ""}`);
      return;
    }
    const me = await request(baseUrl, "GET", "/user", { token: login.body.data.token });
    if (me.status !== 200) {
      unexpected(counters, `GET /user ${me.status} ${me.body?.code ?? ""}`);
      return;
    }
    counters.signIns += 1;
  } catch (error) {
    unexpected(counters, `sign-in failed: ${error instanceof Error ? error.message : error}`);
  }
}

// The platform under test, in a process of its own (started by bench/lib/child.ts with
// child_process.fork): the real app from startTestPlatform("postgres") on a fresh database,
// driven over the IPC channel. The load generators run in the parent, so this process's
// CPU and RSS are the server's alone.
//
// Instrumentation (bench-only, no server code changed): the Database object's `query` and
// `transaction` are wrapped to count statements and to time each transaction, and in it the
// moment the house account's row lock is taken (the UPDATE of a house ledger row returns)
// until the transaction has committed.

import { createHash } from "node:crypto";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { findAsset, findExpiration, roundPrice } from "@tp/domain/catalogue";
import { rulebook_version_current } from "@tp/domain/rulebook";
import { createStaff } from "../server/src/admin/first-admin.ts";
import { hashPassword } from "../server/src/auth/passwords.ts";
import { createSession, sessionLifetimesOf } from "../server/src/auth/sessions.ts";
import { type Clock, type ManualClock, systemClock } from "../server/src/clock.ts";
import type { Queryable, QueryResult } from "../server/src/db/database.ts";
import type { Feed, Tick } from "../server/src/feeds/tick.ts";
import { verifyJournalConsistently } from "../server/src/journal/journal-verify.ts";
import { checkLedger, house_shards, houseAccountCode } from "../server/src/ledger/ledger.ts";
import { audit_window_ms } from "../server/src/prices/ticks-around.ts";
import { signInWithSecondFactor } from "../server/src/testing/second-factor-sign-in.ts";
import { linkIn } from "../server/src/testing/smtp-capture.ts";
import { startTestPlatform } from "../server/src/testing/test-platform.ts";
import { placeTradesStatement, type TradeRequest } from "../server/src/trading/trade-batcher.ts";
import { createTrader } from "../server/src/users/users.ts";
import { serveParentCalls } from "./lib/child-ipc.ts";
import {
  coresBetween,
  cpuByGroup,
  eventLoopDelayMs,
  gcPauseSummary,
  recordGcPauses,
  summarise,
} from "./lib/stats.ts";
import { tickLoopControl } from "./lib/tick-loop.ts";

/**
 * How long the child may live before it shuts itself down (an orphan guard): 9 min for the
 * short benchmarks, longer when the parent says so (the soak runs for 30 min and more).
 */
const lifetime_ms_max = Number(process.env.BENCH_CHILD_LIFETIME_MS ?? 9 * 60_000);

process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
// Scale-out (the stream bench's two processes): BENCH_CHILD_REDIS_URL puts the platform on the
// Redis bus; BENCH_CHILD_JOIN_DATABASE_URL makes it a second process of the platform whose
// database that is (the bus channel is named after the database, so both share it). The
// fresh database startTestPlatform makes for it stays unused and is dropped on close.
const redisUrl = process.env.BENCH_CHILD_REDIS_URL;
const joinDatabaseUrl = process.env.BENCH_CHILD_JOIN_DATABASE_URL;

/**
 * The soak (bench/lib/soak-run.ts) needs the platform as it runs in production: the system
 * clock (trades expire and settle in real time, sessions and TOTP steps age for real) and a
 * feed ingested through the real path (advisory lock, halt watch, tick recording and the
 * pruning of old ticks and candles, which only the ingesting process runs). The other
 * benchmarks keep the manual clock and offer ticks themselves.
 */
const use_system_clock = process.env.BENCH_CHILD_CLOCK === "system";
const feed_symbols = (process.env.BENCH_CHILD_FEED_SYMBOLS ?? "").split(",").filter(Boolean);
const feed_interval_ms = 250;
/** Extra platform settings from the parent (JSON object of strings), e.g. the first admin. */
const platform_env = JSON.parse(process.env.BENCH_CHILD_PLATFORM_ENV ?? "{}") as Record<
  string,
  string
>;

/**
 * A simulated feed on the platform's clock: one tick per symbol every 250 ms (the platform's
 * rate), a small random walk rounded to the asset's precision, until the platform stops it.
 */
function benchFeed(symbols: string[], clock: Clock): Feed {
  return {
    source: "simulated",
    symbols,
    async *ticks(signal: AbortSignal): AsyncIterable<Tick> {
      const prices = new Map(symbols.map((symbol, index) => [symbol, 100 + index]));
      while (!signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, feed_interval_ms));
        if (signal.aborted) return;
        const at = clock.now().getTime();
        for (const symbol of symbols) {
          const asset = findAsset(symbol);
          if (!asset) throw new Error(`unknown symbol ${symbol}`);
          const next = roundPrice(asset, prices.get(symbol)! * (1 + (Math.random() - 0.5) * 1e-4));
          prices.set(symbol, next);
          yield { symbol, price: next, at, source: "simulated" };
        }
      }
    },
  };
}

// systemClock is never advanced here: only the settlement benchmark advances the clock,
// and it runs on the manual one.
const clock = use_system_clock ? (systemClock as ManualClock) : undefined;
const platform = await startTestPlatform("postgres", {
  env: {
    RATE_LIMIT_FACTOR: "0",
    LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? "warn",
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...(joinDatabaseUrl ? { DATABASE_URL: joinDatabaseUrl } : {}),
    ...platform_env,
  },
  ...(clock ? { clock } : {}),
  ...(feed_symbols.length > 0 ? { feeds: [benchFeed(feed_symbols, clock ?? systemClock)] } : {}),
});
const { database } = platform;
const databaseUrl = platform.context.config.DATABASE_URL ?? "";

// --- instrumentation -------------------------------------------------------------------

// Every house account: the original two and, since migration 003, their shards.
const houseAccounts = (
  await database.query<{ id: number; code: string }>(
    "SELECT id, code FROM ledger_accounts WHERE user_id IS NULL AND code LIKE 'house:%'",
  )
).rows;
const houseAccountIds = new Set<number>(houseAccounts.map((row) => row.id));
const houseAccountIdByCode = new Map(houseAccounts.map((row) => [row.code, row.id]));

/** The first statement of a settlement batch (server/src/trading/settlement.ts). */
const settlement_claim_prefix = "SELECT settlement_claim(";

/**
 * The rows a transaction's first statement read: a settlement claim returns its batch as
 * one JSON array (030_trading.sql), so its trades are that array's length.
 */
function firstStatementRows(sql: string, result: QueryResult<unknown>): number {
  if (!sql.startsWith(settlement_claim_prefix)) return result.rowCount ?? 0;
  const trades = (result.rows[0] as { trades?: unknown[] | null } | undefined)?.trades;
  return trades?.length ?? 0;
}

interface TransactionRecord {
  start: number;
  end: number;
  queries: number;
  first: string;
  firstRows: number;
  /** How long the statement that took a house row lock waited for it (null: none). */
  houseWaitMs: number | null;
  /** When house row locks were held from (null: never taken), and which rows. */
  houseLockedAt: number | null;
  houseIds: number[];
  /**
   * The ledger statement whose house rows are still to be read from its parameters: read
   * once the measured window is over (resolveHouseRows), since scanning a batch's JSON while
   * it ran cost the server 2–3 ms a batch of 2,000, charged to the engine.
   */
  houseStatement: { sql: string; params: unknown[] | undefined } | null;
  failed: boolean;
}

/** Whether a statement locks house rows (houseRowsLocked reads which, later). */
function locksHouseRows(sql: string): boolean {
  return (
    sql.includes("place_trades(") ||
    sql.includes("settle_trades(") ||
    sql.includes("ledger_post_json(") ||
    sql.includes("ledger_lock(")
  );
}

/**
 * Reads the house rows of the records' ledger statements; a statement that locked none
 * (a settlement batch with no credited trade) did not hold house rows after all.
 */
function resolveHouseRows(list: TransactionRecord[]) {
  for (const record of list) {
    if (record.houseStatement === null) continue;
    record.houseIds = houseRowsLocked(record.houseStatement.sql, record.houseStatement.params);
    record.houseStatement = null;
    if (record.houseIds.length === 0) {
      record.houseLockedAt = null;
      record.houseWaitMs = null;
    }
  }
}

const transaction_records_max = 400_000;
let recording = false;
/**
 * Whether records keep the statements that lock house rows (their parameters, resolved to
 * house rows only at the report, to keep the scan off the hot path). A latency pass reports no
 * house rows and turns it off: kept, a place_trades call's items (~12 kB of JSON at half the
 * maximum) stayed in the server's heap for the whole pass, 19 MB in 8.6 s, promoted to the
 * old generation and bringing its major GCs sooner, whose marking takes a core from
 * PostgreSQL (bench/RESULTS.md, issue 16's twenty-fifth session).
 */
let keepHouseStatements = true;
let records: TransactionRecord[] = [];
const statementCounts = new Map<string, number>();

function statementLabel(sql: string): string {
  return sql.replace(/\s+/g, " ").trim().slice(0, 72);
}

function countStatement(sql: string) {
  if (!recording) return;
  const label = statementLabel(sql);
  statementCounts.set(label, (statementCounts.get(label) ?? 0) + 1);
}

/**
 * The house rows a ledger statement locks: place_trades and settle_trades name house codes
 * in their items (settle_trades only for credited trades); the TypeScript writer's
 * ledger_post_json its postings' accounts; ledger_lock its account ids.
 */
/** A place_trades item's house code (its JSON). */
const placed_house_code_pattern = /"house_code":"([^"]*)"/g;
/**
 * A settled trade's credit and house code (settle_trades' trade_settlement_in[] literal: the
 * credit, the lag, the note, quoted when there is one, then the house code).
 */
const settled_house_code_pattern = /,(-?\d+),-?\d+,(?:\\"[^"\\]*\\")?,(house:[a-z]+:\d+),/g;

function houseRowsLocked(sql: string, params: unknown[] | undefined): number[] {
  if (sql.includes("place_trades(") || sql.includes("settle_trades(")) {
    // The items' house codes, but a settled trade's only when it is credited. Scanned, not
    // parsed: JSON.parse of a 2,000-trade batch was 1.2 ms of the server's CPU, charged to
    // the engine in the figures.
    const codes = new Set<string>();
    const text = String(params?.[0] ?? "");
    if (sql.includes("place_trades(")) {
      for (const match of text.matchAll(placed_house_code_pattern)) codes.add(match[1]!);
    } else {
      for (const match of text.matchAll(settled_house_code_pattern)) {
        if (match[1] !== "0") codes.add(match[2]!);
      }
    }
    return [...codes]
      .map((code) => houseAccountIdByCode.get(code))
      .filter((id): id is number => id !== undefined);
  }
  if (sql.includes("ledger_post_json(")) {
    const entries = JSON.parse(String(params?.[0] ?? "[]")) as Array<{
      postings: Array<{ account_id: number }>;
    }>;
    const ids = entries.flatMap((entry) => entry.postings.map((posting) => posting.account_id));
    return [...new Set(ids)].filter((id) => houseAccountIds.has(id));
  }
  if (sql.includes("ledger_lock(")) {
    const ids = Array.isArray(params?.[0]) ? (params[0] as unknown[]).map(Number) : [];
    return ids.filter((id) => houseAccountIds.has(id));
  }
  return [];
}

const originalQuery = database.query.bind(database);
const originalTransaction = database.transaction.bind(database);
database.query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => {
  countStatement(sql);
  // place_trades is one statement outside any explicit transaction (atomic by itself): time
  // it as a transaction, its house row held (at most) from the call to its reply.
  if (sql.includes("place_trades(")) return timedStatement<Row>(sql, params);
  return originalQuery<Row>(sql, params);
};

async function timedStatement<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
  const start = performance.now();
  const record: TransactionRecord = {
    start,
    end: 0,
    queries: 1,
    first: statementLabel(sql),
    firstRows: 0,
    houseWaitMs: null,
    houseLockedAt: null,
    houseIds: [],
    houseStatement: keepHouseStatements && locksHouseRows(sql) ? { sql, params } : null,
    failed: false,
  };
  try {
    const result = await originalQuery<Row>(sql, params);
    record.firstRows = result.rowCount;
    return result;
  } catch (error) {
    record.failed = true;
    throw error;
  } finally {
    record.end = performance.now();
    if (record.houseStatement !== null && !record.failed) {
      // Inside the function the house row is locked after the trader's; from the call on
      // is an upper bound on how long it was held.
      record.houseLockedAt = start;
      record.houseWaitMs = 0;
    }
    if (recording && records.length < transaction_records_max) records.push(record);
  }
}
database.transaction = async <T>(work: (transaction: Queryable) => Promise<T>): Promise<T> => {
  const record: TransactionRecord = {
    start: performance.now(),
    end: 0,
    queries: 0,
    first: "",
    firstRows: 0,
    houseWaitMs: null,
    houseLockedAt: null,
    houseIds: [],
    houseStatement: null,
    failed: false,
  };
  try {
    return await originalTransaction((transaction) =>
      work({
        async query<Row = Record<string, unknown>>(
          sql: string,
          params?: unknown[],
        ): Promise<QueryResult<Row>> {
          countStatement(sql);
          record.queries += 1;
          const isFirst = record.first === "";
          if (isFirst) record.first = statementLabel(sql);
          const locksHouse =
            keepHouseStatements && record.houseLockedAt === null && locksHouseRows(sql);
          const issued = performance.now();
          const result = await transaction.query<Row>(sql, params);
          if (isFirst) record.firstRows = firstStatementRows(sql, result);
          if (locksHouse) {
            record.houseLockedAt = performance.now();
            record.houseWaitMs = record.houseLockedAt - issued;
            record.houseStatement = { sql, params };
          }
          return result;
        },
      }),
    );
  } catch (error) {
    record.failed = true;
    throw error;
  } finally {
    record.end = performance.now();
    if (recording && records.length < transaction_records_max) records.push(record);
  }
};

const eventLoopDelay = monitorEventLoopDelay({ resolution: 10 });
eventLoopDelay.enable();
let windowStart = performance.now();
/** The server's garbage-collection pauses since probeReset. */
let gcPauses = recordGcPauses();

function probeReset(options: { houseRows?: boolean } = {}) {
  keepHouseStatements = options.houseRows ?? true;
  records = [];
  gcPauses.stop();
  gcPauses = recordGcPauses();
  statementCounts.clear();
  eventLoopDelay.reset();
  windowStart = performance.now();
  recording = true;
}

/** What the instrumentation saw since probeReset. */
function probeReport(kindPrefix: string) {
  const windowMs = performance.now() - windowStart;
  resolveHouseRows(records);
  const ofKind = records.filter((record) => record.first.startsWith(kindPrefix) && !record.failed);
  const locked = ofKind.filter((record) => record.houseLockedAt !== null);
  const holdMs = locked.map((record) => record.end - record.houseLockedAt!);
  const waitMs = locked.map((record) => record.houseWaitMs!);
  // All transactions, whatever their kind, that held house row locks: each row's busy time.
  const heldMsByHouseRow = new Map<number, number>();
  for (const record of records) {
    if (record.houseLockedAt === null) continue;
    for (const id of record.houseIds) {
      heldMsByHouseRow.set(id, (heldMsByHouseRow.get(id) ?? 0) + record.end - record.houseLockedAt);
    }
  }
  const heldMs = [...heldMsByHouseRow.values()];
  const kinds = new Map<string, number>();
  for (const record of records) kinds.set(record.first, (kinds.get(record.first) ?? 0) + 1);
  return {
    windowMs,
    transactions: ofKind.length,
    transactionMs: summarise(ofKind.map((record) => record.end - record.start)),
    queriesPerTransaction: summarise(ofKind.map((record) => record.queries)),
    houseLockHoldMs: summarise(holdMs),
    houseLockWaitMs: summarise(waitMs),
    /** Busiest house row's locked time / window, the mean over the rows used, and how many. */
    houseRowBusyFraction: Math.max(0, ...heldMs) / windowMs,
    houseRowBusyFractionMean:
      heldMs.reduce((a, b) => a + b, 0) / Math.max(1, heldMs.length) / windowMs,
    houseRowsUsed: heldMs.length,
    transactionKinds: [...kinds.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8),
    statements: [...statementCounts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20),
    eventLoopDelayMs: eventLoopDelayMs(eventLoopDelay),
    gcPauseMs: gcPauseSummary(gcPauses.pausesMs, gcPauses.majorAtEpochMs),
  };
}

// --- setup through the server's own functions ------------------------------------------

interface Trader {
  userId: number;
  token: string;
  sessionId: number;
}
const traders: Trader[] = [];

async function createTraders(count: number): Promise<{ tokens: string[]; seconds: number }> {
  const started = performance.now();
  const batch = 100;
  const now = platform.clock.now();
  const practiceCents = platform.context.config.practice_balance_cents;
  for (let offset = 0; offset < count; offset += batch) {
    await database.transaction(async (transaction) => {
      for (let index = offset; index < Math.min(count, offset + batch); index++) {
        const user = await createTrader(
          transaction,
          {
            email: `bench.trader.${index}@example.test`,
            // Never used to sign in: sessions are made directly below (no argon2 per trader).
            passwordHash: "bench-no-password",
            first_name: "Bench",
            last_name: `Trader${index}`,
            phone_number: "+33 1 23 45 67 89",
            country: "France",
            referral_code: null,
          },
          practiceCents,
          now,
        );
        if (!user) throw new Error(`trader ${index} already exists`);
        const { token, sessionId } = await createSession(
          transaction,
          user.id,
          now,
          { ip: "127.0.0.1", userAgent: "bench" },
          sessionLifetimesOf(platform.context.config),
        );
        traders.push({ userId: user.id, token, sessionId });
      }
    });
  }
  return {
    tokens: traders.map((trader) => trader.token),
    seconds: (performance.now() - started) / 1000,
  };
}

function offerTick(symbol: string, price: number, atMs = platform.clock.now().getTime()) {
  platform.context.marketData.offer({ symbol, price, at: atMs, source: "simulated" });
}

async function settleMicrotasks() {
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Calls settleDue, as the settlement worker does, until no trade due by the platform's clock
 * is open, the deadline passes or maxCalls is reached. A failed pass (its batch rolled back)
 * is what the worker would retry: it is counted and the drain goes on.
 */
async function drainDue(startedMs: number, deadlineMs: number, maxCalls: number) {
  let settled = 0;
  let calls = 0;
  let open = -1;
  const errors: string[] = [];
  while (performance.now() - startedMs < deadlineMs && calls < maxCalls) {
    calls += 1;
    try {
      settled += await platform.context.settlement.settleDue();
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    const result = await database.query<{ open: number }>(
      "SELECT COUNT(*)::bigint AS open FROM open_trades WHERE expires_at <= $1",
      [platform.clock.now()],
    );
    open = result.rows[0]!.open;
    if (open === 0) break;
  }
  return { settled, calls, open, errors };
}

// --- one place_trades call's cost (call-cost) ---------------------------------------------

let callCostSerial = 0;

/**
 * `count` place_trades calls of `size` trades each, as the trade batcher would send them
 * (`placeTradesStatement`): practice trades of distinct traders, each request with its own
 * Idempotency-Key and the trader's live session, as POST /api/v1/place-trade makes them
 * (place-trade.ts), minus HTTP and the price checks. The parent runs them on a connection of
 * its own, so that it can read that backend's CPU time around each call.
 */
function placeTradesStatements(size: number, count: number) {
  if (traders.length < size) throw new Error(`createTraders first (${size} needed)`);
  const asset = findAsset("EURUSD")!;
  const expiration = findExpiration(60)!;
  const now = platform.clock.now();
  const statements: Array<{ sql: string; params: [string, string] }> = [];
  for (let call = 0; call < count; call++) {
    const requests: TradeRequest[] = [];
    for (let item = 0; item < size; item++) {
      callCostSerial += 1;
      const trader = traders[callCostSerial % traders.length]!;
      const key = `call-cost-${process.pid}-${callCostSerial}`;
      requests.push({
        user_id: trader.userId,
        is_practice: true,
        asset: asset.symbol,
        direction: callCostSerial % 2 === 0 ? "call" : "put",
        stake_cents: 100,
        duration_seconds: expiration.seconds,
        payout_percent: expiration.payoutPercent,
        entry_price: 1.1,
        entry_at: now.toISOString(),
        feed: "simulated",
        start_time: now.toISOString(),
        expires_at: new Date(now.getTime() + expiration.seconds * 1000).toISOString(),
        refusal: null,
        key,
        hash: createHash("sha256").update(key).digest("hex"),
        rule_version: rulebook_version_current,
        received_at: now.toISOString(),
        session_started_at: now.toISOString(),
        ...platform.context.sessions.writeCheck(trader.sessionId, now),
      });
    }
    // Consecutive calls on consecutive house shards, as the batcher sends them.
    statements.push(placeTradesStatement(requests, callCostSerial % house_shards));
  }
  return statements;
}

// --- settlement ------------------------------------------------------------------------

const settlement_expiry_seconds = 60;
const settlement_trade_cents = 100;
const seed_workers = 4;

/**
 * Opens `count` practice trades expiring within one second of each other, each with its
 * stake journal entry (place_trades, 500 trades a call, as place-trade would, minus HTTP
 * and the price checks). Entry ticks at clock time C, a price move at C + 30 s.
 */
async function seedSettlement(count: number, symbols: string[], deadlineMs: number) {
  if (traders.length === 0) throw new Error("createTraders first");
  const started = performance.now();
  const startMs = platform.clock.now().getTime();
  for (const [index, symbol] of symbols.entries()) {
    // A live feed's earlier ticks: memory reaches back past the entry second's audit window,
    // as it does in production. With none, the first scenario read each entry second's
    // window from the recorded history (a round trip per symbol and batch) where a server
    // that had been running reads memory (bench/RESULTS.md, issue 16's thirteenth session).
    offerTick(symbol, 100 + index, startMs - 2 * audit_window_ms);
    offerTick(symbol, 100 + index, startMs);
    offerTick(symbol, 100 + index + 0.5, startMs + 30_000);
  }
  await settleMicrotasks();
  const expiration = findExpiration(settlement_expiry_seconds)!;
  // Trades are opened by `seed_workers` transactions at a time, each worker owning the
  // traders of some house shards, so no two workers ever wait on one house row.
  const byWorker: number[][] = Array.from({ length: seed_workers }, () => []);
  for (let index = 0; index < count; index++) {
    const trader = traders[index % traders.length]!;
    byWorker[(trader.userId % house_shards) % seed_workers]!.push(index);
  }
  const batch = 500;
  let seeded = 0;
  await Promise.all(
    byWorker.map(async (indices) => {
      for (let offset = 0; offset < indices.length; offset += batch) {
        if (performance.now() - started > deadlineMs) break;
        const chunk = indices.slice(offset, offset + batch);
        // Through place_trades, the one trade writer: each trade is chained into the
        // journal (migration 028) and its stake posted, trader → the trader's house shard.
        const items = chunk.map((index) => {
          const trader = traders[index % traders.length]!;
          const symbol = symbols[index % symbols.length]!;
          return {
            user_id: trader.userId,
            is_practice: true,
            asset: symbol,
            // Calls win and puts lose (the exit tick is above every entry). Each trader gets
            // both, in turn over its trades: by the index's parity, as before, every trader of
            // one settlement partition (user id modulo 2) had only calls and every trader of
            // the other only puts, so one partition paid every winner and settled long
            // after the other had finished (bench/RESULTS.md, issue 16's thirteenth session).
            direction: Math.floor(index / traders.length) % 2 === 0 ? "call" : "put",
            stake_cents: settlement_trade_cents,
            duration_seconds: expiration.seconds,
            payout_percent: expiration.payoutPercent,
            entry_price: 100 + symbols.indexOf(symbol),
            entry_at: new Date(startMs),
            feed: "simulated",
            start_time: new Date(startMs),
            // All expiries inside one second: C + 60 s + [0, 1000) ms.
            expires_at: new Date(
              startMs + settlement_expiry_seconds * 1000 + Math.floor((index * 1000) / count),
            ),
            house_code: houseAccountCode(true, trader.userId),
            received_at: new Date(startMs),
          };
        });
        const placed = await database.query<{ outcome: string }>(
          "SELECT outcome FROM place_trades($1::jsonb, 'USD')",
          [JSON.stringify(items)],
        );
        const unplaced = placed.rows.filter((row) => row.outcome !== "placed").length;
        if (unplaced > 0) throw new Error(`${unplaced} seeded trades were not placed`);
        seeded += chunk.length;
      }
    }),
  );
  return { trades: seeded, seconds: (performance.now() - started) / 1000 };
}

/** Each trade's settled event as it is published: when (wall ms) and its expiry (epoch ms). */
function recordSettledEvents() {
  // The expiry is kept as published and parsed when read: this listener runs in the server's
  // process, on its event loop, for each of 50,000 trades, and parsing there cost the server
  // about a microsecond a trade that production does not spend.
  const published = new Map<number, { wallMs: number; expiresAt: string }>();
  const unsubscribe = platform.context.bus.subscribe((event) => {
    if (event.type !== "trade") return;
    const trade = event.trade as { id: number; status: string; expires_at: string };
    if (trade.status === "open" || published.has(trade.id)) return;
    published.set(trade.id, { wallMs: performance.now(), expiresAt: trade.expires_at });
  });
  const settledAt = {
    get size() {
      return published.size;
    },
    *values() {
      for (const { wallMs, expiresAt } of published.values()) {
        yield { wallMs, expiresAtMs: Date.parse(expiresAt) };
      }
    },
  };
  return { settledAt, unsubscribe };
}

/**
 * Advances the clock to one millisecond after the last expiry, pushes a tick per symbol
 * there (so every exit price is final), then calls settleDue until no due trade is open.
 * Real lag of a trade = (clock at that moment − its expiry) + (wall time from that moment
 * until its settled trade event is published, which settleDue does right after each batch
 * commits).
 */
async function runSettlement(symbols: string[], deadlineMs: number) {
  const { settledAt, unsubscribe } = recordSettledEvents();
  const expiries = await database.query<{ first: Date; last: Date }>(
    "SELECT MIN(expires_at) AS first, MAX(expires_at) AS last FROM open_trades",
  );
  const targetMs = expiries.rows[0]!.last.getTime() + 1;
  // A live feed across the expiries (issue 11: settlement uses a price only then): a tick
  // just before the first expiry, and the one after the last (below).
  const beforeFirstMs = expiries.rows[0]!.first.getTime() - 500;
  for (const [index, symbol] of symbols.entries()) {
    offerTick(symbol, 100 + index + 0.5, beforeFirstMs);
  }
  await settleMicrotasks();
  probeReset();
  platform.clock.advance(targetMs - platform.clock.now().getTime());
  const clockAtStartMs = platform.clock.now().getTime();
  for (const [index, symbol] of symbols.entries()) offerTick(symbol, 100 + index + 0.25);
  const started = performance.now();
  const { settled: settledByCalls, calls, open, errors } = await drainDue(started, deadlineMs, 500);
  const drainMs = performance.now() - started;
  await settleMicrotasks();
  recording = false;
  unsubscribe();

  const lags: number[] = [];
  const dueLags: number[] = [];
  for (const { wallMs, expiresAtMs } of settledAt.values()) {
    lags.push(clockAtStartMs - expiresAtMs + (wallMs - started));
    dueLags.push(wallMs - started);
  }
  resolveHouseRows(records);
  const batches = records
    .filter((record) => record.first.startsWith(settlement_claim_prefix))
    .filter((record) => record.firstRows > 0)
    .sort((a, b) => a.start - b.start);
  // Two settle passes can run at once (the worker's timer, a wake from place-trade, this
  // call): count batches that began before the previous one had committed.
  let overlapping = 0;
  for (let index = 1; index < batches.length; index++) {
    if (batches[index]!.start < batches[index - 1]!.end) overlapping += 1;
  }
  const ends = batches.map((record) => record.end).sort((a, b) => a - b);
  const commitIntervals: number[] = [];
  for (let index = 1; index < ends.length; index++) {
    commitIntervals.push(ends[index]! - ends[index - 1]!);
  }
  const report = probeReport(settlement_claim_prefix);
  const recorded = await database.query<{ p50: number; p99: number; max: number; n: number }>(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY settlement_lag_ms) AS p50,
            percentile_disc(0.99) WITHIN GROUP (ORDER BY settlement_lag_ms) AS p99,
            MAX(settlement_lag_ms) AS max, COUNT(*)::bigint AS n
     FROM trades WHERE status <> 'open' AND expires_at < $1`,
    [new Date(targetMs)],
  );
  const outcomes = await database.query<{ status: string; n: number }>(
    "SELECT status, COUNT(*)::bigint AS n FROM trades GROUP BY status ORDER BY status",
  );
  const batchMs = batches.map((record) => record.end - record.start);
  const batchTrades = batches.map((record) => record.firstRows);
  const firstBatchDone = batches[0] ? batches[0].end - started : Number.NaN;
  return {
    drainMs,
    calls,
    passErrors: errors.length,
    passErrorSample: errors.slice(0, 3),
    settledByCalls,
    settledEvents: settledAt.size,
    openDueLeft: open,
    realLagMs: summarise(lags),
    dueLagMs: summarise(dueLags),
    recordedLagMs: recorded.rows[0]!,
    outcomes: outcomes.rows,
    batches: batches.length,
    batchMs: summarise(batchMs),
    batchTrades: summarise(batchTrades),
    batchQueries: summarise(batches.map((record) => record.queries)),
    batchHouseLockHoldMs: summarise(
      batches.filter((r) => r.houseLockedAt !== null).map((r) => r.end - r.houseLockedAt!),
    ),
    overlappingBatches: overlapping,
    commitIntervalMs: summarise(commitIntervals),
    batchHouseLockWaitMs: summarise(
      batches.filter((r) => r.houseWaitMs !== null).map((r) => r.houseWaitMs!),
    ),
    firstBatchDoneMs: firstBatchDone,
    statements: report.statements,
    eventLoopDelayMs: report.eventLoopDelayMs,
  };
}

/** How often the real-time scenario's feed ticks each symbol (ms). */
const real_time_tick_interval_ms = 25;

/**
 * The open trades' second as it passes (issue 16 item 1 read as written: trades due in the
 * same second, each settled within 1 s of its own expiry). The clock runs in real time from
 * 200 ms before the first expiry; the feed offers a tick of each symbol every 25 ms, which
 * the platform publishes at its own rate, at most one per symbol every 250 ms (so a trade
 * waits up to 250 ms for the tick that makes its exit price final, as in production); and
 * settlement passes run back to back while trades are due. A trade's lag is the wall time from the instant the clock reached its
 * expiry to the publication of its settled event. The jump scenario above instead shows the
 * platform the whole second at once.
 */
async function runSettlementRealTime(symbols: string[], deadlineMs: number) {
  const expiries = await database.query<{ first: Date; last: Date; open: number }>(
    `SELECT MIN(expires_at) AS first, MAX(expires_at) AS last, COUNT(*)::bigint AS open
     FROM open_trades`,
  );
  const { first, last, open: due } = expiries.rows[0]!;
  for (const [index, symbol] of symbols.entries()) {
    offerTick(symbol, 100 + index + 0.5, first.getTime() - 500);
  }
  await settleMicrotasks();
  const { settledAt, unsubscribe } = recordSettledEvents();
  const clock = platform.clock as ManualClock & { now: () => Date };
  clock.advance(first.getTime() - 200 - clock.now().getTime());
  const clockStartMs = clock.now().getTime();
  const wallStartMs = performance.now();
  // Bench-only: this instance's clock now runs in real time (restored below).
  clock.now = () => new Date(clockStartMs + (performance.now() - wallStartMs));
  const ticker = setInterval(() => {
    for (const [index, symbol] of symbols.entries()) offerTick(symbol, 100 + index + 0.25);
  }, real_time_tick_interval_ms);
  probeReset();
  const cpuBefore = cpuByGroup(process.pid);
  let calls = 0;
  const errors: string[] = [];
  /** Each pass: wall offset of its start (ms), its duration (ms), trades it settled. */
  const passes: Array<[number, number, number]> = [];
  try {
    while (settledAt.size < due && performance.now() - wallStartMs < deadlineMs) {
      calls += 1;
      let settled = 0;
      const passStartMs = performance.now();
      try {
        settled = await platform.context.settlement.settleDue();
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
      passes.push([
        Math.round(passStartMs - wallStartMs),
        Math.round(performance.now() - passStartMs),
        settled,
      ]);
      await settleMicrotasks();
      // Nothing was due: wait a moment for the clock rather than claim in a tight loop.
      if (settled === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    clearInterval(ticker);
    const reachedMs = clock.now().getTime();
    Reflect.deleteProperty(clock, "now");
    clock.advance(reachedMs - clock.now().getTime());
    unsubscribe();
  }
  const wallMs = performance.now() - wallStartMs;
  const cores = coresBetween(cpuBefore, cpuByGroup(process.pid), wallMs / 1000);
  recording = false;
  const lags: number[] = [];
  let withinOneSecond = 0;
  for (const settled of settledAt.values()) {
    const lagMs = settled.wallMs - wallStartMs - (settled.expiresAtMs - clockStartMs);
    lags.push(lagMs);
    if (lagMs < 1_000) withinOneSecond += 1;
  }
  const lastSettledWallMs = Math.max(...[...settledAt.values()].map((value) => value.wallMs));
  // Each batch that claimed trades: its start after the clock began (ms), its duration (ms)
  // and the trades it claimed, in order of start.
  const batches = records
    .filter((record) => record.first.startsWith(settlement_claim_prefix) && record.firstRows > 0)
    .sort((a, b) => a.start - b.start)
    .map((record) => [
      Math.round(record.start - wallStartMs),
      Math.round(record.end - record.start),
      record.firstRows,
      // Of which settled: the rows of its settle_trades call (none when all waited).
      String(record.houseStatement?.params?.[0] ?? "").split('"(').length - 1,
    ]);
  return {
    due,
    /** From the first expiry to the last (the probe's few trades of the first scenario too). */
    spanMs: last.getTime() - first.getTime(),
    settled: settledAt.size,
    lagMs: summarise(lags),
    withinOneSecond,
    /** From the last expiry (by the running clock) to the last settled event. */
    afterLastExpiryMs: lastSettledWallMs - wallStartMs - (last.getTime() - clockStartMs),
    /** The three longest passes of this loop (start offset, duration, settled). */
    longestPasses: passes.sort((a, b) => b[1] - a[1]).slice(0, 3),
    batches,
    calls,
    passErrors: errors.length,
    passErrorSample: errors.slice(0, 3),
    cores,
    eventLoopDelayMs: probeReport(settlement_claim_prefix).eventLoopDelayMs,
  };
}

// --- settled history (cost-growth benchmark) --------------------------------------------

/** Trades opened per round while growing history; each round's expiries share one second. */
const history_round_trades = 50_000;

/**
 * Settles every open trade as the worker would once they are due: a tick of each symbol
 * just before the first expiry, the clock moved one millisecond past the last, a tick there,
 * then settleDue until no due trade is open. The drain's wall time and the CPU of this
 * process and of PostgreSQL are taken over the settleDue calls only (from /proc).
 */
async function settleOpenTrades(symbols: string[], deadlineMs: number) {
  const expiries = await database.query<{ first: Date | null; last: Date | null; open: number }>(
    `SELECT MIN(expires_at) AS first, MAX(expires_at) AS last, COUNT(*)::bigint AS open
     FROM open_trades`,
  );
  const { first, last, open: due } = expiries.rows[0]!;
  if (first === null || last === null) {
    return { due: 0, settled: 0, drainMs: 0, cores: null, passErrors: 0, errorSample: [], open: 0 };
  }
  for (const [index, symbol] of symbols.entries()) {
    offerTick(symbol, 100 + index + 0.5, first.getTime() - 500);
  }
  await settleMicrotasks();
  const aheadMs = last.getTime() + 1 - platform.clock.now().getTime();
  if (aheadMs > 0) platform.clock.advance(aheadMs);
  for (const [index, symbol] of symbols.entries()) offerTick(symbol, 100 + index + 0.25);
  const cpuBefore = cpuByGroup(process.pid);
  const started = performance.now();
  const { settled, open, errors } = await drainDue(started, deadlineMs, Number.POSITIVE_INFINITY);
  const drainMs = performance.now() - started;
  const cores = coresBetween(cpuBefore, cpuByGroup(process.pid), drainMs / 1000);
  return {
    due,
    settled,
    drainMs,
    cores,
    passErrors: errors.length,
    errorSample: errors.slice(0, 3),
    open,
  };
}

/**
 * Grows the trades table to `target` trades, all settled: rounds of trades opened through
 * place_trades (seedSettlement) then settled through the worker's settleDue, as a real
 * database's history would be (stake entries, settlement entries, journal chains).
 */
async function growHistory(target: number, symbols: string[], deadlineMs: number) {
  const started = performance.now();
  let seedSeconds = 0;
  let settleSeconds = 0;
  let added = 0;
  for (;;) {
    const count = await database.query<{ n: number }>("SELECT COUNT(*)::bigint AS n FROM trades");
    const missing = target - count.rows[0]!.n;
    if (missing <= 0) break;
    const remainingMs = deadlineMs - (performance.now() - started);
    if (remainingMs <= 0) throw new Error(`history: ${added} trades added, deadline reached`);
    const seeded = await seedSettlement(
      Math.min(history_round_trades, missing),
      symbols,
      remainingMs,
    );
    seedSeconds += seeded.seconds;
    const settled = await settleOpenTrades(symbols, remainingMs);
    if (settled.open !== 0 || settled.passErrors > 0) {
      throw new Error(
        `history: settling left ${settled.open} open, ${settled.passErrors} failed passes ${settled.errorSample.join("; ")}`,
      );
    }
    settleSeconds += settled.drainMs / 1000;
    added += seeded.trades;
  }
  return { added, seedSeconds, settleSeconds, seconds: (performance.now() - started) / 1000 };
}

// --- ticks for the stream --------------------------------------------------------------

const ticks = tickLoopControl((symbol, price, atMs) =>
  platform.context.marketData.offer({ symbol, price, at: atMs, source: "simulated" }),
);

// --- the IPC API -----------------------------------------------------------------------

const api = {
  async info() {
    return { baseUrl: platform.baseUrl, databaseUrl, pid: process.pid };
  },
  async createTraders(params: { count: number }) {
    return createTraders(params.count);
  },
  async placeTradesStatements(params: { size: number; count: number }) {
    return placeTradesStatements(params.size, params.count);
  },
  async offerTick(params: { symbol: string; price: number }) {
    offerTick(params.symbol, params.price);
    await settleMicrotasks();
    return { at: platform.clock.now().toISOString() };
  },
  async probeReset(params: { houseRows?: boolean } | undefined) {
    probeReset(params);
    return {};
  },
  async probeReport(params: { kindPrefix: string }) {
    const report = probeReport(params.kindPrefix);
    recording = false;
    return report;
  },
  async seedSettlement(params: { trades: number; symbols: string[]; deadlineMs: number }) {
    return seedSettlement(params.trades, params.symbols, params.deadlineMs);
  },
  async runSettlement(params: { symbols: string[]; deadlineMs: number }) {
    return runSettlement(params.symbols, params.deadlineMs);
  },
  async runSettlementRealTime(params: { symbols: string[]; deadlineMs: number }) {
    return runSettlementRealTime(params.symbols, params.deadlineMs);
  },
  async growHistory(params: { trades: number; symbols: string[]; deadlineMs: number }) {
    return growHistory(params.trades, params.symbols, params.deadlineMs);
  },
  async settleOpenTrades(params: { symbols: string[]; deadlineMs: number }) {
    return settleOpenTrades(params.symbols, params.deadlineMs);
  },
  async ledgerCheck() {
    const started = performance.now();
    const violations = await checkLedger(database);
    const totals = await database.query<{ entries: number; postings: number }>(
      `SELECT (SELECT COUNT(*) FROM journal_entries)::bigint AS entries,
              (SELECT COUNT(*) FROM postings)::bigint AS postings`,
    );
    const ledgerSeconds = (performance.now() - started) / 1000;
    // The journal's chains (issue 15 item 3), recomputed record by record, after the run.
    const journalStarted = performance.now();
    const journal = await verifyJournalConsistently(database, platform.clock.now());
    return {
      violations: violations.slice(0, 20),
      violationCount: violations.length,
      ...totals.rows[0]!,
      seconds: ledgerSeconds,
      journalProblem: journal.problem?.message ?? null,
      journalRecords:
        journal.records.postings +
        journal.records.trades_placed +
        journal.records.trades_settled +
        journal.records.audit,
      journalSeconds: (performance.now() - journalStarted) / 1000,
    };
  },
  async startTicks(params: { symbols: string[]; intervalMs: number; durationMs: number }) {
    ticks.start(params);
    return {};
  },
  async stopTicks() {
    return ticks.stop();
  },
  async serverStats(params: { gc?: boolean }) {
    // Started with --expose-gc: collect first so heap and RSS compare between readings.
    const collect = (globalThis as { gc?: () => void }).gc;
    if (params.gc && collect) collect();
    const delay = eventLoopDelayMs(eventLoopDelay);
    eventLoopDelay.reset();
    return {
      clients: platform.context.stream.clientCount(),
      stream: platform.context.stream.stats(),
      memory: process.memoryUsage(),
      eventLoopDelayMs: delay,
    };
  },
  /** A member of staff signed in through the real API, second factor included. */
  async signInStaff(params: { email: string; password: string }) {
    const signedIn = await signInWithSecondFactor(platform, params.email, params.password);
    return { token: signedIn.token };
  },
  /** A second admin, made as `npm run admin -- create` makes one (four eyes need two). */
  async createAdmin(params: { email: string; password: string }) {
    const passwordHash = await hashPassword(params.password);
    const created = await database.transaction((transaction) =>
      createStaff(
        transaction,
        params.email,
        passwordHash,
        "admin",
        { userId: null, label: "bench", ip: null },
        platform.clock.now(),
      ),
    );
    if (created.kind !== "created") throw new Error(`staff ${params.email} not created`);
    return {};
  },
  /** A trader who signs in with a password (argon2 hash, as registration stores it). */
  async createPasswordTrader(params: { email: string; password: string }) {
    const passwordHash = await hashPassword(params.password);
    const user = await database.transaction((transaction) =>
      createTrader(
        transaction,
        {
          email: params.email,
          passwordHash,
          first_name: "Soak",
          last_name: "SignIn",
          phone_number: "+33 1 23 45 67 89",
          country: "France",
          referral_code: null,
        },
        platform.context.config.practice_balance_cents,
        platform.clock.now(),
      ),
    );
    if (!user) throw new Error(`${params.email} already exists`);
    return { userId: user.id };
  },
  /**
   * The token of the link in the e-mail to `to` whose subject starts with `subjectPrefix`,
   * as the trader would open it. The message is then forgotten: the capture keeps every
   * message in this process's memory, which over a soak would read as a leak of the server.
   */
  async emailedLinkToken(params: { to: string; subjectPrefix: string }) {
    const escaped = params.subjectPrefix.replace(/[.*+?^$()|[\]{}\\]/g, "\\$&");
    const subject = new RegExp(`^${escaped}`);
    const mail = await platform.smtp.waitFor(params.to, subject);
    const messages = platform.smtp.messages;
    messages.splice(messages.indexOf(mail), 1);
    const url = new URL(linkIn(mail, "http://localhost:3000/"));
    return { token: url.searchParams.get("token") ?? "" };
  },
  /** Forgets captured mail but the newest `keep` messages (see emailedLinkToken). */
  async trimCapturedMail(params: { keep: number }) {
    const messages = platform.smtp.messages;
    const dropped = Math.max(0, messages.length - params.keep);
    messages.splice(0, dropped);
    return { dropped };
  },
  async close() {
    await platform.close();
    return {};
  },
};

export type ChildApi = typeof api;
export type ChildMethod = keyof ChildApi;

let closing = false;
async function shutdown(code: number) {
  if (closing) return;
  closing = true;
  ticks.halt();
  await platform.close().catch(() => {});
  process.exit(code);
}

const lifetime = setTimeout(() => void shutdown(3), lifetime_ms_max);
lifetime.unref();
process.on("disconnect", () => void shutdown(2));
process.on("SIGTERM", () => void shutdown(0));
serveParentCalls(api);

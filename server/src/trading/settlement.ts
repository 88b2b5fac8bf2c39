import { settlementCreditCents, tradeOutcome } from "@tp/domain/catalogue";
import { settlement_rule_parameters } from "@tp/domain/rulebook";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import { compositeArrayLiteral } from "../db/composite-literal.ts";
import type { Database, Queryable } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Tick } from "../feeds/tick.ts";
import { DEFAULT_CURRENCY, house_shards, houseShardCode } from "../ledger/ledger.ts";
import { firstTickAfterFromDatabase, tickInForceFromDatabase } from "../prices/price-history.ts";
import type { PriceStore } from "../prices/price-store.ts";
import { type AuditTick, auditSecondOf, auditWindowTicks } from "../prices/ticks-around.ts";
import { isoTime, type TradePlacement, type TradeRow, tradeView } from "./trades.ts";
import { publishBalanceRows } from "./trading-events.ts";

/**
 * Trades claimed per transaction. 3,000, not 2,000: in six interleaved pairs of runs of a
 * second of 50,000 expiries the lag's p99 was lower in all six (mean 0.92 s against 1.22 s)
 * and the jump drained faster in five; the price is a longer hold of a batch's house rows,
 * so a trade placed during such a burst waited longer (the probe's slowest of ~19 requests
 * 130–463 ms against 120–191). 4,000 made that wait longer still without a surer drain
 * (bench/RESULTS.md, issue 16's sixteenth session).
 */
export const settlement_batch_max = 3_000;
/**
 * How long after an expiry a late tick (stamped at or before it) may still arrive. Before
 * this, a trade settles only once a tick after its expiry shows the price in force is final.
 */
export const settlement_grace_ms = settlement_rule_parameters.settlement_grace_ms;
/** The worker's longest sleep; it also wakes for the next expiry it knows of. */
const idle_poll_ms = 1_000;
/**
 * How long the worker waits after a pass that failed before it tries again. The failed
 * batch's trades are still due, so the next expiry it knows of is already past: without a
 * pause it ran the failing pass again at once, back to back, logging an error each time.
 */
const failed_pass_retry_ms = 1_000;
/**
 * After this many trades settled here, the worker vacuums `open_trades` between passes. A
 * settled trade's row is deleted there, and its index entries stay until a vacuum: the next
 * expiry's index walk stepped over a million of them at a million trades settled (147 ms,
 * bench/RESULTS.md). The embedded database never vacuums by itself, and autovacuum may be
 * off; the table holds only the open trades, so its vacuum is short.
 */
const open_trades_vacuum_after_settled = 100_000;

export interface Settlement {
  /** Settles every trade due now; returns how many it settled. */
  settleDue(): Promise<number>;
  /**
   * A trade was placed that expires at `expiresAt`: the worker comes for it then, if it was
   * to wake later. Placing does not run a pass (a pass per trade was ~30 claims a second
   * under load, each finding nothing due).
   */
  wake(expiresAt: Date): void;
  stop(): Promise<void>;
}

interface SettlementDependencies {
  database: Database;
  clock: Clock;
  store: PriceStore;
  bus: EventBus;
  log: FastifyBaseLogger;
  /** The entry limit of an asset (prices/market-status.ts): how old the price in force may be. */
  staleAfterMs(symbol: string): number;
  /** Told each committed batch's lags (expiry to settlement), for the metrics. */
  onSettled?(lagsMs: readonly number[]): void;
}

/**
 * The settlement worker (PRODUCT.md D1). It claims due trades one partition at a time
 * (`settlement_claim`: processes take turns on a partition's advisory lock), so any number
 * of processes can run it, and none settles a trade twice: `settle_trades` updates only
 * trades still open and refuses the whole batch otherwise; it reads the exit price in force at each expiry from
 * memory when live, from the price history after a restart; it posts the payout or refund
 * and sets the status in one transaction per batch, and publishes events after commit.
 *
 * One batch is three round trips whatever its size: the claim, the audit ticks (memory, or
 * the recorded history after a restart), and one call of `settle_trades`
 * (server/sql/functions/030_trading.sql), which posts the credits through the ledger's
 * `ledger_post` like every other writer, so batches and place-trade cannot deadlock.
 */
export function startSettlement(dependencies: SettlementDependencies): Settlement {
  const { database, clock, log } = dependencies;
  const storedWindows = storedWindowSizes();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  /** The expiry the timer is set for (it fires at most `idle_poll_ms` later anyway). */
  let timerExpiryMs = Number.POSITIVE_INFINITY;
  /** The earliest expiry placed while a pass ran: the pass's next schedule takes it in. */
  let placedDuringPassExpiryMs = Number.POSITIVE_INFINITY;
  let stopped = false;
  let settledSinceVacuum = 0;
  /**
   * Passes of this process run one after another: a caller's pass must not return while
   * the worker's pass still holds trades due. Other processes are kept apart by the
   * partitions' advisory locks.
   */
  let queue: Promise<unknown> = Promise.resolve();
  function serialised(): Promise<number> {
    const pass = queue.then(() => settleDue());
    queue = pass.catch(() => 0);
    return pass;
  }

  async function settleDue(): Promise<number> {
    const partitions = database.kind === "postgres" ? settlement_partitions : 1;
    const pass: Pass = { settling: partitions };
    const settled = await Promise.all(
      Array.from({ length: partitions }, (_, index) =>
        settlePartition({ index, partitions }, pass),
      ),
    );
    return settled.reduce((sum, count) => sum + count, 0);
  }

  /** Turns the partitions' batches over their house shards (see `settlementShard`). */
  let batchesStarted = 0;

  async function settlePartition(partition: Partition, pass: Pass): Promise<number> {
    let settledTotal = 0;
    let settling = true;
    try {
      for (;;) {
        const shard = settlementShard(partition, batchesStarted++);
        const { settled, claimed, balances, windows } = await settleBatch(
          dependencies,
          partition,
          shard,
          storedWindows,
        );
        // Committed: these windows need no rewrite until more ticks arrive.
        for (const window of windows ?? []) storedWindows.remember(window);
        settledTotal += settled.length;
        settledSinceVacuum += settled.length;
        if (settled.length > 0) {
          dependencies.onSettled?.(settled.map((trade) => trade.settlement_lag_ms ?? 0));
        }
        for (const trade of settled) {
          dependencies.bus.publish({
            type: "trade",
            userId: trade.user_id,
            trade: tradeView(trade),
          });
        }
        publishBalanceRows(dependencies.bus, balances ?? []);
        // Claim again until a claim settles nothing: while this batch ran, more of the
        // partition's trades may have come due. Stopping at the first short batch left a
        // partition idle, its trades waiting, until the other partition's pass ended (under
        // a steady stream of expiries, up to a second; bench/RESULTS.md).
        if (stopped) return settledTotal;
        const found = claimed > 0 && settled.length > 0;
        if (found !== settling) {
          settling = found;
          pass.settling += found ? 1 : -1;
        }
        if (found) continue;
        // Nothing to settle now (none due, or all waiting for their exit price). The pass ends
        // once every partition is so. Until then this one looks again shortly: returning at
        // once left the trades coming due in it (or whose exit price became final) waiting
        // until another partition's pass ended, which under a second of expiries settled
        // half the trades a second late (bench/RESULTS.md).
        if (pass.settling === 0) return settledTotal;
        await new Promise((resolve) => setTimeout(resolve, partition_recheck_ms));
        if (stopped) return settledTotal;
        // Every partition found nothing meanwhile: the pass is over for this one too. Going on
        // alone, it settled its own trades while those of a partition that had already left
        // waited for the next pass (the partitions found nothing at the same instant whenever
        // the due trades all waited for their exit tick, 250 ms apart: bench/RESULTS.md).
        if (pass.settling === 0) return settledTotal;
      }
    } finally {
      // Leaving while counted as settling (stopped, or a batch failed): the others' loops
      // must not wait for this one to find trades again.
      if (settling) pass.settling -= 1;
    }
  }

  async function nextExpiryMs(): Promise<number | null> {
    const result = await database.query<{ next: Date | null }>(
      "SELECT MIN(expires_at) AS next FROM open_trades",
    );
    return result.rows[0]?.next?.getTime() ?? null;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, Math.min(delayMs, idle_poll_ms)));
    timer.unref();
  }

  /**
   * Sets the timer for the earliest expiry known (null: none open), or the idle poll; not
   * before `notBeforeMs` (after a failed pass).
   */
  function scheduleForExpiry(expiryMs: number | null, notBeforeMs = Number.NEGATIVE_INFINITY) {
    timerExpiryMs = Math.max(
      Math.min(expiryMs ?? Number.POSITIVE_INFINITY, placedDuringPassExpiryMs),
      notBeforeMs,
    );
    placedDuringPassExpiryMs = Number.POSITIVE_INFINITY;
    schedule(
      timerExpiryMs === Number.POSITIVE_INFINITY
        ? idle_poll_ms
        : timerExpiryMs - clock.now().getTime() + 1,
    );
  }

  function run() {
    if (stopped || running) return;
    running = serialised();
    running
      .then(
        () => true,
        (error: unknown) => {
          log.error({ err: error }, "settlement pass failed");
          return false;
        },
      )
      .then(async (succeeded) => {
        if (settledSinceVacuum >= open_trades_vacuum_after_settled && !stopped) {
          settledSinceVacuum = 0;
          await database
            .query("VACUUM open_trades")
            .catch((error: unknown) => log.warn({ err: error }, "vacuum of open_trades failed"));
        }
        // Still "running" until the timer is set: a trade placed meanwhile may be missing from
        // the query's snapshot, so its wake goes into the schedule below.
        const next = await nextExpiryMs().catch(() => null);
        running = null;
        const nowMs = clock.now().getTime();
        // A pass ends when no partition finds a trade it can settle; trades still due then
        // wait for their exit tick, so the next pass looks again as a partition would, not at
        // once (passes ran back to back, each claiming the same waiting trades).
        let notBeforeMs = Number.NEGATIVE_INFINITY;
        if (!succeeded) notBeforeMs = nowMs + failed_pass_retry_ms;
        else if (next !== null && next <= nowMs) notBeforeMs = nowMs + partition_recheck_ms;
        scheduleForExpiry(next, notBeforeMs);
      });
  }

  // On start: whatever expired while no server ran is due now.
  run();

  return {
    settleDue: serialised,
    wake(expiresAt) {
      const expiryMs = expiresAt.getTime();
      if (running) {
        placedDuringPassExpiryMs = Math.min(placedDuringPassExpiryMs, expiryMs);
      } else if (expiryMs < timerExpiryMs) {
        scheduleForExpiry(expiryMs);
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}

/** What settlement reads of an open trade (`settlement_claim`, 030_trading.sql). */
type ClaimedTrade = TradePlacement;

/** A claimed trade as `settlement_claim` writes it: its columns in order, times in ISO 8601. */
type ClaimedTradeJson = [
  id: number,
  user_id: number,
  is_practice: boolean,
  asset: string,
  direction: ClaimedTrade["direction"],
  stake_cents: number,
  duration_seconds: number,
  payout_percent: number,
  entry_price: number,
  entry_at: string,
  feed: string,
  start_time: string,
  expires_at: string,
  received_at: string | null,
  rule_version: number | null,
];

function claimedTrade(row: ClaimedTradeJson): ClaimedTrade {
  return {
    id: row[0],
    user_id: row[1],
    is_practice: row[2],
    asset: row[3],
    direction: row[4],
    stake_cents: row[5],
    duration_seconds: row[6],
    payout_percent: row[7],
    entry_price: row[8],
    entry_at: new Date(row[9]),
    feed: row[10],
    start_time: new Date(row[11]),
    expires_at: new Date(row[12]),
    received_at: row[13] === null ? null : new Date(row[13]),
    rule_version: row[14],
  };
}

interface Decided {
  trade: ClaimedTrade;
  outcome: "won" | "lost" | "tie";
  exit: Tick | null;
  creditCents: number;
  note: string | null;
  refundReason: RefundReason | null;
  /** Memory could not show the feed live across the expiry: the audit reads the history too. */
  fromDatabase: boolean;
}

/**
 * One batch: claim, decide in memory, then one call of the database's `settle_trades` that writes the outcomes, the journal entries, the balances and the audit
 * windows. Three round trips in all, whatever the batch's size.
 */
async function settleBatch(
  dependencies: SettlementDependencies,
  partition: Partition,
  shard: number,
  storedWindows: StoredWindowSizes,
) {
  const { database, clock, store, log } = dependencies;
  return database.transaction(async (transaction) => {
    const claimedAt = clock.now();
    const claim = await transaction.query<{ trades: ClaimedTradeJson[] | null }>(
      "SELECT settlement_claim($1, $2, $3, $4) AS trades",
      [claimedAt, settlement_batch_max, partition.partitions, partition.index],
    );
    const due = (claim.rows[0]?.trades ?? []).map(claimedTrade);
    if (due.length === 0) return { settled: [] as TradeRow[], claimed: 0 };

    // Many trades of a batch share an asset and an expiry instant: look each price up once
    // (asset, then expiry; no key string made per trade).
    const exitsBySymbol = new Map<string, Map<number, ExitDecision>>();
    const decided: Decided[] = [];
    for (const trade of due) {
      const expiresAtMs = trade.expires_at.getTime();
      let exits = exitsBySymbol.get(trade.asset);
      if (exits === undefined) {
        exits = new Map();
        exitsBySymbol.set(trade.asset, exits);
      }
      let exit = exits.get(expiresAtMs);
      if (exit === undefined) {
        exit = await exitDecision(
          transaction,
          store,
          trade,
          claimedAt.getTime(),
          dependencies.staleAfterMs(trade.asset),
        );
        exits.set(expiresAtMs, exit);
      }
      // Not final yet: left open for a later batch.
      if (exit.kind === "wait") continue;
      if (exit.kind === "refund") {
        // Nobody can say who won: the stake goes back, by the published rule.
        log.warn(
          { tradeId: trade.id, asset: trade.asset, reason: exit.reason },
          "trade refunded: no live price across its expiry",
        );
        decided.push({
          trade,
          outcome: "tie",
          exit: null,
          creditCents: trade.stake_cents,
          note: refundNotes[exit.reason],
          refundReason: exit.reason,
          fromDatabase: true,
        });
        continue;
      }
      const outcome = tradeOutcome(trade.direction, trade.entry_price, exit.tick.price);
      const creditCents = settlementCreditCents(outcome, trade.stake_cents, trade.payout_percent);
      decided.push({
        trade,
        outcome,
        exit: exit.tick,
        creditCents,
        note: null,
        refundReason: null,
        fromDatabase: exit.fromDatabase,
      });
    }
    if (decided.length === 0) return { settled: [] as TradeRow[], claimed: due.length };

    const windows = (await auditWindows(transaction, store, decided)).filter((window) =>
      storedWindows.needsWrite(window),
    );
    // The lag is taken as late as possible: just before the call that commits the batch.
    const settledAt = clock.now();
    const lagsMs = decided.map((item) =>
      Math.max(0, settledAt.getTime() - item.trade.expires_at.getTime()),
    );
    const balances = await transaction.query<{
      balance_user_id: number;
      real_cents: number;
      practice_cents: number;
    }>("SELECT * FROM settle_trades($1::trade_settlement_in[], $2::jsonb, $3, $4)", [
      settlementRows(decided, lagsMs, shard),
      JSON.stringify(
        windows.map((window) => ({
          symbol: window.symbol,
          second: new Date(window.secondMs).toISOString(),
          ticks: window.ticks,
        })),
      ),
      settledAt,
      DEFAULT_CURRENCY,
    ]);

    // Every field named in one literal: a spread of the claimed row followed by the settled
    // fields gave each of a batch's thousands of objects a slow (dictionary) shape, which
    // cost the server about 15 µs a trade (bench/RESULTS.md).
    const settled: TradeRow[] = decided.map((item, index) => {
      const trade = item.trade;
      return {
        id: trade.id,
        user_id: trade.user_id,
        is_practice: trade.is_practice,
        asset: trade.asset,
        direction: trade.direction,
        stake_cents: trade.stake_cents,
        duration_seconds: trade.duration_seconds,
        payout_percent: trade.payout_percent,
        entry_price: trade.entry_price,
        entry_at: trade.entry_at,
        feed: trade.feed,
        start_time: trade.start_time,
        expires_at: trade.expires_at,
        received_at: trade.received_at,
        rule_version: trade.rule_version,
        status: item.outcome,
        exit_price: item.exit?.price ?? null,
        exit_at: item.exit ? new Date(item.exit.at) : null,
        exit_feed: item.exit?.source ?? null,
        credit_cents: item.creditCents,
        settled_at: settledAt,
        settlement_lag_ms: lagsMs[index]!,
        settlement_note: item.note,
        refund_reason: item.refundReason,
        audit_ticks: null,
      };
    });
    return { settled, claimed: due.length, balances: balances.rows, windows };
  });
}

/**
 * The batch's trades as `settle_trades` takes them: a literal of `trade_settlement_in[]`,
 * each row's fields in the type's order (migrations 008 and 010): trade, trader, account
 * kind, outcome, exit price, exit time, exit feed, credit, lag, note, house shard, refund
 * reason.
 */
function settlementRows(decided: readonly Decided[], lagsMs: readonly number[], shard: number) {
  const houseCodes = [houseShardCode(false, shard), houseShardCode(true, shard)];
  // A batch's trades share a few exit ticks: each one's time is written out once.
  const exitTimes = new Map<Tick, string>();
  return compositeArrayLiteral(
    decided.map((item, index) => {
      const { trade, exit } = item;
      let exitAt: string | null = null;
      if (exit) {
        exitAt = exitTimes.get(exit) ?? isoTime(exit.at);
        exitTimes.set(exit, exitAt);
      }
      return [
        trade.id,
        trade.user_id,
        trade.is_practice,
        item.outcome,
        exit?.price ?? null,
        exitAt,
        exit?.source ?? null,
        item.creditCents,
        lagsMs[index]!,
        item.note,
        houseCodes[trade.is_practice ? 1 : 0]!,
        item.refundReason,
      ];
    }),
  );
}

/**
 * Open trades already past their expiry: settlement's backlog, for the metrics. Counted on
 * `open_trades_due_order_idx` (open trades only, by expiry), so it stays cheap however many
 * trades have settled.
 */
export async function dueUnsettledCount(database: Database, now: Date): Promise<number> {
  const result = await database.query<{ due: number }>(
    "SELECT COUNT(*)::bigint AS due FROM open_trades WHERE expires_at <= $1",
    [now],
  );
  return result.rows[0]?.due ?? 0;
}

/**
 * Settlement runs this many batches at once on PostgreSQL, each on the trades of its own
 * traders (user id modulo the count). The count divides `house_shards`, so the batches
 * touch disjoint trader and house accounts and never wait for each other's row locks.
 * Two on 2 cores: four drained a burst of 50,000 about 6 % sooner, but doubled the latency
 * of place-trade meanwhile (probe p99 110 -> 190-250 ms, bench/RESULTS.md), and the
 * lag of trades expiring across a second was the same. It is also the modulus of the
 * claim's index, `open_trades_due_partition_idx` (migration 036): a new count needs a new
 * index (settlement-race.test.ts fails until they agree).
 */
export const settlement_partitions = 2;

if (house_shards % settlement_partitions !== 0) {
  throw new Error("settlement_partitions must divide house_shards");
}

interface Partition {
  index: number;
  partitions: number;
}

/** One pass over the partitions: how many of them are still finding trades to settle. */
interface Pass {
  settling: number;
}

/**
 * How soon a partition with nothing to settle looks again while another partition of the
 * pass still settles: about a claim's round trip, a few per second's worth of expiries.
 */
const partition_recheck_ms = 25;

/**
 * The house shard (of each account kind) a batch pays from and chains its trades' settled
 * records onto: one per batch, taken in turn from its partition's own shards (those whose
 * number is the partition's modulo the partition count). A batch so locks one or two house
 * rows, not the shard of every trader it pays: place-trade batches, which take the shards
 * in turn too (trade-batcher.ts), meet a settlement batch on a house row only now and then
 * instead of waiting for one to commit whenever trades come due. Which shard pays does not
 * matter to anyone: the house is the sum of its shards.
 */
function settlementShard(partition: Partition, batch: number): number {
  const shardsPerPartition = house_shards / partition.partitions;
  return partition.index + partition.partitions * (batch % shardsPerPartition);
}

type AuditWindow = { symbol: string; secondMs: number; ticks: AuditTick[] };

/**
 * The tick counts of the audit windows this process has committed: a window is written
 * again only when it has grown, so batches of one busy second do not all rewrite (and
 * queue on) the same rows.
 */
interface StoredWindowSizes {
  needsWrite(window: AuditWindow): boolean;
  remember(window: AuditWindow): void;
}

const stored_window_sizes_max = 10_000;

function storedWindowSizes(): StoredWindowSizes {
  const sizes = new Map<string, number>();
  const keyOf = (window: AuditWindow) => `${window.symbol}@${window.secondMs}`;
  return {
    needsWrite: (window) => (sizes.get(keyOf(window)) ?? -1) < window.ticks.length,
    remember(window) {
      if (sizes.size >= stored_window_sizes_max) sizes.clear();
      sizes.set(keyOf(window), Math.max(sizes.get(keyOf(window)) ?? 0, window.ticks.length));
    },
  };
}

/** The audit windows (migration 006) of every second a batch's trades entered or expired in. */
async function auditWindows(transaction: Queryable, store: PriceStore, decided: Decided[]) {
  // Symbol, then second → whether any trade in it needs the recorded history. Keyed by the
  // second's number, not by a string made per trade (4,000 of those a batch, ~5 % of the
  // server's time in the settlement bench's V8 profile; the drain did not move measurably).
  const bySymbol = new Map<string, Map<number, boolean>>();
  const remember = (symbol: string, atMs: number, fromDatabase: boolean) => {
    let seconds = bySymbol.get(symbol);
    if (seconds === undefined) {
      seconds = new Map();
      bySymbol.set(symbol, seconds);
    }
    const secondMs = auditSecondOf(atMs);
    if (seconds.get(secondMs) !== true) seconds.set(secondMs, fromDatabase);
  };
  for (const { trade, fromDatabase } of decided) {
    remember(trade.asset, trade.entry_at.getTime(), fromDatabase);
    remember(trade.asset, trade.expires_at.getTime(), fromDatabase);
  }
  const windows: AuditWindow[] = [];
  for (const [symbol, seconds] of bySymbol) {
    for (const [secondMs, fromDatabase] of seconds) {
      const ticks = await auditWindowTicks(store, transaction, symbol, secondMs, {
        includeRecorded: fromDatabase,
      });
      windows.push({ symbol, secondMs, ticks: ticks.map(({ price, at }) => ({ price, at })) });
    }
  }
  return windows;
}

type RefundReason = "no_price" | "feed_down";

/** The published rule's sentences, stored on the trade and shown in its audit. */
export const refundNotes: Record<RefundReason, string> = {
  no_price: "No price was recorded for the expiry instant; the stake was refunded.",
  feed_down:
    "The price feed was not live across the expiry instant (no recorded price shortly before and after it); the stake was refunded.",
};

/**
 * How long after an expiry the recorded history may still be catching up (the recorder
 * writes every second): before this, a decision that needs the database waits.
 */
export const settlement_record_lag_ms = 1_500;
/**
 * When nothing at all was recorded after an expiry, settlement waits this long for the
 * feed (or the recorder) before it refunds by the rule.
 */
export const settlement_feed_wait_ms = settlement_rule_parameters.settlement_feed_wait_ms;

type ExitDecision =
  | { kind: "settle"; tick: Tick; fromDatabase: boolean }
  | { kind: "refund"; reason: RefundReason }
  | { kind: "wait" };

/**
 * The exit price of a trade (issue 11, item 5): the last tick at or before its expiry that
 * the platform recorded live, and only when the feed is shown live across the expiry:
 * that tick is no older than the asset's entry limit at the expiry, and a tick after the
 * expiry arrived within `settlement_grace_ms`. Memory decides when it shows that; when it
 * cannot (this process lost the bus and its prices froze, a restart, a feed that stalled)
 * the recorded history decides. When the history shows the feed was down across the
 * expiry, the trade is refunded; a price that may be frozen never settles a trade.
 */
async function exitDecision(
  transaction: Queryable,
  store: PriceStore,
  trade: ClaimedTrade,
  nowMs: number,
  staleAfterMs: number,
): Promise<ExitDecision> {
  const expiresAtMs = trade.expires_at.getTime();
  const liveAcross = (inForce: Tick | undefined, after: Tick | undefined) =>
    inForce !== undefined &&
    after !== undefined &&
    expiresAtMs - inForce.at <= staleAfterMs &&
    after.at - expiresAtMs <= settlement_grace_ms;

  if (store.covers(trade.asset, expiresAtMs)) {
    const inForce = store.inForceAt(trade.asset, expiresAtMs);
    const after = store.firstAfter(trade.asset, expiresAtMs);
    if (inForce && liveAcross(inForce, after)) {
      return { kind: "settle", tick: inForce, fromDatabase: false };
    }
    // Not final yet: the next tick may still arrive within the grace.
    if (after === undefined && nowMs - expiresAtMs < settlement_grace_ms) return { kind: "wait" };
  }
  // Memory cannot show the feed live across the expiry: the recorded history decides, once
  // the recorder has had time to write what arrived within the grace.
  if (nowMs - expiresAtMs < settlement_grace_ms + settlement_record_lag_ms) return { kind: "wait" };
  // What memory holds counts too (the recorder may not have written it yet): the later tick
  // in force and the earlier tick after, of the two.
  const inForce = later(
    await tickInForceFromDatabase(transaction, trade.asset, trade.expires_at),
    store.inForceAt(trade.asset, expiresAtMs),
  );
  const after = earlier(
    await firstTickAfterFromDatabase(transaction, trade.asset, trade.expires_at),
    store.firstAfter(trade.asset, expiresAtMs),
  );
  if (inForce && liveAcross(inForce, after)) {
    return { kind: "settle", tick: inForce, fromDatabase: true };
  }
  // Nothing recorded after the expiry yet: the feed (or the recorder) may still catch up.
  if (after === undefined && nowMs - expiresAtMs < settlement_feed_wait_ms) return { kind: "wait" };
  return { kind: "refund", reason: inForce || after ? "feed_down" : "no_price" };
}

function later(a: Tick | undefined, b: Tick | undefined): Tick | undefined {
  if (!a || !b) return a ?? b;
  return b.at > a.at ? b : a;
}

function earlier(a: Tick | undefined, b: Tick | undefined): Tick | undefined {
  if (!a || !b) return a ?? b;
  return b.at < a.at ? b : a;
}

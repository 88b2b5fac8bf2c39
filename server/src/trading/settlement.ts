import { settlementCreditCents, tradeOutcome } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database, Queryable } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Tick } from "../feeds/tick.ts";
import { type EntryInput, houseAccountCode, postEntries } from "../ledger/ledger.ts";
import { tickInForceFromDatabase } from "../prices/price-history.ts";
import type { PriceStore } from "../prices/price-store.ts";
import { ticksAround } from "../prices/ticks-around.ts";
import { type TradeRow, tradeView } from "./trades.ts";
import { publishBalances } from "./trading-events.ts";

/** Trades claimed per transaction. */
export const settlement_batch_max = 500;
/**
 * How long after an expiry a late tick (stamped at or before it) may still arrive. Before
 * this, a trade settles only once a tick after its expiry shows the price in force is final.
 */
export const settlement_grace_ms = 2_000;
/** The worker's longest sleep; it also wakes for the next expiry it knows of. */
const idle_poll_ms = 1_000;

export interface Settlement {
  /** Settles every trade due now; returns how many it settled. */
  settleDue(): Promise<number>;
  /** Wake the worker now (a trade was placed with an earlier expiry than it waits for). */
  wake(): void;
  stop(): Promise<void>;
}

interface SettlementDependencies {
  database: Database;
  clock: Clock;
  store: PriceStore;
  bus: EventBus;
  log: FastifyBaseLogger;
}

/**
 * The settlement worker (PRODUCT.md D1). It claims due trades with FOR UPDATE SKIP LOCKED,
 * so any number of processes can run it and none settles a trade twice (the UPDATE is also
 * guarded by `status = 'open'`); it reads the exit price in force at each expiry from
 * memory when live, from the price history after a restart; it posts the payout or refund
 * and sets the status in one transaction per batch, and publishes events after commit.
 *
 * One batch is a handful of set-based statements (postEntries, one UPDATE of the trades),
 * not a few per trade. Lock order: postEntries locks every touched account in ascending id
 * order (house accounts first), as place-trade and top-up do, so batches cannot deadlock.
 */
export function startSettlement(dependencies: SettlementDependencies): Settlement {
  const { database, clock, log } = dependencies;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let stopped = false;
  /**
   * Passes of this process run one after another: a caller's pass must not return while
   * the worker's pass holds trades it would then skip (SKIP LOCKED) as if none were due.
   * Other processes are kept apart by the row locks.
   */
  let queue: Promise<unknown> = Promise.resolve();
  function serialised(): Promise<number> {
    const pass = queue.then(() => settleDue());
    queue = pass.catch(() => 0);
    return pass;
  }

  async function settleDue(): Promise<number> {
    let settledTotal = 0;
    for (;;) {
      const { settled, claimed, skipped } = await settleBatch(dependencies);
      settledTotal += settled.length;
      if (settled.length > 0) {
        for (const trade of settled) {
          dependencies.bus.publish({
            type: "trade",
            userId: trade.user_id,
            trade: tradeView(trade),
          });
        }
        await publishBalances(
          dependencies,
          settled.map((trade) => trade.user_id),
        );
      }
      if (claimed < settlement_batch_max || skipped > 0 || stopped) return settledTotal;
    }
  }

  async function nextExpiryMs(): Promise<number | null> {
    const result = await database.query<{ next: Date | null }>(
      "SELECT MIN(expires_at) AS next FROM trades WHERE status = 'open'",
    );
    return result.rows[0]?.next?.getTime() ?? null;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, Math.min(delayMs, idle_poll_ms)));
    timer.unref();
  }

  function run() {
    if (stopped || running) return;
    running = serialised();
    running
      .catch((error: unknown) => {
        log.error({ err: error }, "settlement pass failed");
        return 0;
      })
      .then(async () => {
        running = null;
        const next = await nextExpiryMs().catch(() => null);
        schedule(next === null ? idle_poll_ms : next - clock.now().getTime() + 1);
      });
  }

  // On start: whatever expired while no server ran is due now.
  run();

  return {
    settleDue: serialised,
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}

async function settleBatch(dependencies: SettlementDependencies) {
  const { database, clock, store, log } = dependencies;
  return database.transaction(async (transaction) => {
    const now = clock.now();
    const due = await transaction.query<TradeRow>(
      `SELECT * FROM trades WHERE status = 'open' AND expires_at <= $1
       ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, settlement_batch_max],
    );
    if (due.rows.length === 0) return { settled: [] as TradeRow[], claimed: 0, skipped: 0 };

    const houseAccounts = await transaction.query<{ id: number; code: string }>(
      "SELECT id, code FROM ledger_accounts WHERE user_id IS NULL AND code LIKE 'house:%:%'",
    );
    const houseIds = new Map(houseAccounts.rows.map((row) => [row.code, row.id]));
    const traderAccounts = await transaction.query<{
      id: number;
      user_id: number;
      code: "real" | "practice";
    }>(
      `SELECT id, user_id, code FROM ledger_accounts WHERE user_id = ANY($1::bigint[]) AND currency = 'USD'`,
      [[...new Set(due.rows.map((trade) => trade.user_id))]],
    );
    const traderAccountIds = new Map(
      traderAccounts.rows.map((row) => [`${row.user_id}:${row.code}`, row.id]),
    );

    // Many trades of a batch share an asset and an expiry second: look each price up once.
    const exitCache = new Map<string, Tick | null | "wait">();
    const entries: EntryInput[] = [];
    const updates: Array<{
      trade: TradeRow;
      outcome: "won" | "lost" | "tie";
      exit: Tick | null;
      creditCents: number;
      note: string | null;
      audit: unknown;
    }> = [];
    let skipped = 0;
    for (const trade of due.rows) {
      const expiresAtMs = trade.expires_at.getTime();
      const cacheKey = `${trade.asset}@${expiresAtMs}`;
      let exit = exitCache.get(cacheKey);
      if (exit === undefined) {
        exit = await exitTick(transaction, store, trade, now.getTime());
        exitCache.set(cacheKey, exit);
      }
      if (exit === "wait") {
        skipped += 1;
        continue;
      }
      let note: string | null = null;
      let outcome: "won" | "lost" | "tie" = "tie";
      if (exit) {
        outcome = tradeOutcome(trade.direction, trade.entry_price, exit.price);
      } else {
        // No price at all for the expiry instant: nobody can say who won, so the stake goes back.
        note = "No price was recorded for the expiry instant; the stake was refunded.";
        log.warn({ tradeId: trade.id, asset: trade.asset }, "no exit price: trade refunded");
      }
      const creditCents = settlementCreditCents(outcome, trade.stake_cents, trade.payout_percent);
      if (creditCents > 0) {
        const code = trade.is_practice ? "practice" : "real";
        const traderAccountId = traderAccountIds.get(`${trade.user_id}:${code}`);
        if (traderAccountId === undefined)
          throw new Error(`user ${trade.user_id} has no ${code} account`);
        entries.push({
          kind: outcome === "won" ? "trade_payout" : "trade_refund",
          reference: `trade:${trade.id}`,
          at: now,
          postings: [
            {
              accountId: houseIds.get(houseAccountCode(trade.is_practice, trade.user_id))!,
              amountCents: -creditCents,
            },
            { accountId: traderAccountId, amountCents: creditCents },
          ],
        });
      }
      const audit = await auditTicks(transaction, store, trade, expiresAtMs);
      updates.push({ trade, outcome, exit, creditCents, note, audit });
    }

    await postEntries(transaction, entries);
    if (updates.length === 0)
      return { settled: [] as TradeRow[], claimed: due.rows.length, skipped };
    const updated = await transaction.query<TradeRow>(
      `UPDATE trades t SET status = u.status, exit_price = u.exit_price, exit_at = u.exit_at,
         exit_feed = u.exit_feed, credit_cents = u.credit_cents, settled_at = $1,
         settlement_lag_ms = u.lag_ms, settlement_note = u.note, audit_ticks = u.audit::jsonb
       FROM unnest($2::bigint[], $3::text[], $4::float8[], $5::timestamptz[], $6::text[], $7::bigint[],
                   $8::int[], $9::text[], $10::text[])
         AS u(id, status, exit_price, exit_at, exit_feed, credit_cents, lag_ms, note, audit)
       WHERE t.id = u.id AND t.status = 'open'
       RETURNING t.*`,
      [
        now,
        updates.map((update) => update.trade.id),
        updates.map((update) => update.outcome),
        updates.map((update) => update.exit?.price ?? null),
        updates.map((update) => (update.exit ? new Date(update.exit.at).toISOString() : null)),
        updates.map((update) => update.exit?.source ?? null),
        updates.map((update) => update.creditCents),
        updates.map((update) => Math.max(0, now.getTime() - update.trade.expires_at.getTime())),
        updates.map((update) => update.note),
        updates.map((update) => JSON.stringify(update.audit)),
      ],
    );
    // Claimed FOR UPDATE while open: none can be missing; if one ever were, roll it all back.
    if (updated.rowCount !== updates.length) {
      throw new Error(`settled ${updated.rowCount} of ${updates.length} claimed trades`);
    }
    return { settled: updated.rows, claimed: due.rows.length, skipped };
  });
}

/**
 * The tick in force at the trade's expiry: the last at or before it. "wait" while it may
 * not be final yet (no later tick seen and within the grace period); null when there is no
 * price at all.
 */
async function exitTick(
  transaction: Queryable,
  store: PriceStore,
  trade: TradeRow,
  nowMs: number,
): Promise<Tick | null | "wait"> {
  const expiresAtMs = trade.expires_at.getTime();
  if (store.covers(trade.asset, expiresAtMs)) {
    if (!store.hasTickAfter(trade.asset, expiresAtMs) && nowMs - expiresAtMs < settlement_grace_ms)
      return "wait";
    return store.inForceAt(trade.asset, expiresAtMs) ?? null;
  }
  // Memory does not reach back (a restart): the recorded history decides.
  if (nowMs - expiresAtMs < settlement_grace_ms && !store.hasTickAfter(trade.asset, expiresAtMs))
    return "wait";
  return (await tickInForceFromDatabase(transaction, trade.asset, trade.expires_at)) ?? null;
}

async function auditTicks(
  transaction: Queryable,
  store: PriceStore,
  trade: TradeRow,
  expiresAtMs: number,
) {
  const compact = (ticks: Tick[]) => ticks.map((tick) => ({ price: tick.price, at: tick.at }));
  return {
    entry: compact(await ticksAround(store, transaction, trade.asset, trade.entry_at.getTime())),
    exit: compact(await ticksAround(store, transaction, trade.asset, expiresAtMs)),
  };
}

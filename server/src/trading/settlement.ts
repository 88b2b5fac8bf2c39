import { settlementCreditCents, tradeOutcome } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database, Queryable } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Tick } from "../feeds/tick.ts";
import { postEntry, systemAccountId, traderAccountId } from "../ledger/ledger.ts";
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
 * Lock order: both house accounts first (ascending id), then trader accounts through
 * postEntry — the same order place-trade and top-up take, so batches cannot deadlock.
 */
export function startSettlement(dependencies: SettlementDependencies): Settlement {
  const { database, clock, log } = dependencies;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let stopped = false;

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
    running = settleDue();
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
    settleDue: async () => {
      await running?.catch(() => 0);
      return settleDue();
    },
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

    const houseIds = {
      real: await systemAccountId(transaction, "house:real"),
      practice: await systemAccountId(transaction, "house:practice"),
    };
    await transaction.query(
      "SELECT id FROM ledger_accounts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE",
      [[houseIds.real, houseIds.practice]],
    );

    const settled: TradeRow[] = [];
    let skipped = 0;
    for (const trade of due.rows) {
      const expiresAtMs = trade.expires_at.getTime();
      const exit = await exitTick(transaction, store, trade, now.getTime());
      if (exit === "wait") {
        skipped += 1;
        continue;
      }
      let outcome = exit
        ? tradeOutcome(trade.direction, trade.entry_price, exit.price)
        : ("tie" as const);
      let note: string | null = null;
      if (!exit) {
        // No price at all for the expiry instant: nobody can say who won, so the stake goes back.
        outcome = "tie";
        note = "No price was recorded for the expiry instant; the stake was refunded.";
        log.warn({ tradeId: trade.id, asset: trade.asset }, "no exit price: trade refunded");
      }
      const creditCents = settlementCreditCents(outcome, trade.stake_cents, trade.payout_percent);
      if (creditCents > 0) {
        const code = trade.is_practice ? "practice" : "real";
        await postEntry(transaction, {
          kind: outcome === "won" ? "trade_payout" : "trade_refund",
          reference: `trade:${trade.id}`,
          at: now,
          postings: [
            { accountId: houseIds[code], amountCents: -creditCents },
            {
              accountId: await traderAccountId(transaction, trade.user_id, code),
              amountCents: creditCents,
            },
          ],
        });
      }
      const audit = await auditTicks(transaction, store, trade, expiresAtMs);
      const updated = await transaction.query<TradeRow>(
        `UPDATE trades SET status = $1, exit_price = $2, exit_at = $3, exit_feed = $4, credit_cents = $5,
           settled_at = $6, settlement_lag_ms = $7, settlement_note = $8, audit_ticks = $9
         WHERE id = $10 AND status = 'open' RETURNING *`,
        [
          outcome,
          exit ? exit.price : null,
          exit ? new Date(exit.at) : null,
          exit ? exit.source : null,
          creditCents,
          now,
          Math.max(0, now.getTime() - expiresAtMs),
          note,
          JSON.stringify(audit),
          trade.id,
        ],
      );
      // Claimed FOR UPDATE while open: this cannot miss; if it ever did, roll the batch back.
      if (updated.rowCount !== 1) throw new Error(`trade ${trade.id} was not open at settlement`);
      settled.push(updated.rows[0]!);
    }
    return { settled, claimed: due.rows.length, skipped };
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

import { dollarsFromCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import { traderBalancesOf } from "../ledger/ledger.ts";

/** After a commit: tells each trader's sockets their balances as they now stand (one query). */
export async function publishBalances(
  context: { database: Queryable; bus: EventBus },
  userIds: Iterable<number>,
) {
  const all = await traderBalancesOf(context.database, [...new Set(userIds)]);
  for (const [userId, balances] of all) {
    context.bus.publish({
      type: "balance",
      userId,
      account_balance: dollarsFromCents(balances.real_cents),
      practice_balance: dollarsFromCents(balances.practice_cents),
    });
  }
}

/** Balances a database function returned after its writes (place_trade, settle_trades). */
export function publishBalanceRows(
  bus: EventBus,
  rows: Array<{ balance_user_id: number; real_cents: number; practice_cents: number }>,
) {
  for (const row of rows) {
    bus.publish({
      type: "balance",
      userId: row.balance_user_id,
      account_balance: dollarsFromCents(row.real_cents),
      practice_balance: dollarsFromCents(row.practice_cents),
    });
  }
}

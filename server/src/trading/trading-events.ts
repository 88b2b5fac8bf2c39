import { dollarsFromCents } from "@tp/domain/money";
import type { AppContext } from "../app-context.ts";
import { traderBalancesOf } from "../ledger/ledger.ts";

/** After a commit: tells each trader's sockets their balances as they now stand (one query). */
export async function publishBalances(
  context: Pick<AppContext, "database" | "bus">,
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

import { dollarsFromCents } from "@tp/domain/money";
import type { AppContext } from "../app-context.ts";
import { traderBalances } from "../ledger/ledger.ts";

/** After a commit: tells each trader's sockets their balances as they now stand. */
export async function publishBalances(
  context: Pick<AppContext, "database" | "bus">,
  userIds: Iterable<number>,
) {
  for (const userId of new Set(userIds)) {
    const balances = await traderBalances(context.database, userId);
    context.bus.publish({
      type: "balance",
      userId,
      account_balance: dollarsFromCents(balances.real_cents),
      practice_balance: dollarsFromCents(balances.practice_cents),
    });
  }
}

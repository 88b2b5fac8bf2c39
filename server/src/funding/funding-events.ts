import { dollarsFromCents } from "@tp/domain/money";
import type { AppContext } from "../app-context.ts";
import { traderBalancesOf } from "../ledger/ledger.ts";

/**
 * After a funding commit: tells the trader's sockets their balances as they now stand
 * (PRODUCT.md D10). Published after commit, never before; a failure to publish is logged,
 * never turned into a failed request (the money has moved).
 */
export async function publishFundingBalances(
  context: Pick<AppContext, "database" | "bus">,
  userIds: number[],
): Promise<void> {
  const balances = await traderBalancesOf(context.database, [...new Set(userIds)]);
  for (const [userId, balance] of balances) {
    context.bus.publish({
      type: "balance",
      userId,
      account_balance: dollarsFromCents(balance.real_cents),
      practice_balance: dollarsFromCents(balance.practice_cents),
    });
  }
}

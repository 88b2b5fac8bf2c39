import type { Queryable } from "../db/database.ts";
import { lockInOrder, postEntry, systemAccountId, traderAccountId } from "./ledger.ts";

export type TopUpResult =
  | { status: "topped_up"; practice_balance_cents: number; added_cents: number }
  | { status: "not_needed"; practice_balance_cents: number };

/**
 * Puts a trader's practice balance back to `targetCents` with one ledger entry from the
 * practice house account. Both rows are locked up front in the ledger's global order
 * (`lockInOrder`), so two concurrent top-ups cannot both add the difference and a top-up
 * cannot deadlock with any other entry on these accounts.
 */
export async function topUpPracticeBalance(
  transaction: Queryable,
  userId: number,
  targetCents: number,
  at: Date,
): Promise<TopUpResult> {
  const accountId = await traderAccountId(transaction, userId, "practice");
  const houseId = await systemAccountId(transaction, "house:practice");
  await lockInOrder(transaction, [accountId, houseId]);
  const locked = await transaction.query<{ balance_cents: number }>(
    "SELECT balance_cents FROM ledger_accounts WHERE id = $1",
    [accountId],
  );
  const balanceCents = locked.rows[0]!.balance_cents;
  if (balanceCents >= targetCents) {
    return { status: "not_needed", practice_balance_cents: balanceCents };
  }
  const addedCents = targetCents - balanceCents;
  await postEntry(transaction, {
    kind: "practice_topup",
    reference: `user:${userId}:practice-top-up`,
    at,
    postings: [
      { accountId: houseId, amountCents: -addedCents },
      { accountId, amountCents: addedCents },
    ],
  });
  return { status: "topped_up", practice_balance_cents: targetCents, added_cents: addedCents };
}

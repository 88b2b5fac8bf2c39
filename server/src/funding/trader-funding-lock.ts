import type { Queryable } from "../db/database.ts";

/**
 * The caps on a trader's open funding rows (10 deposits awaiting payment, 10 pending
 * withdrawals) are a count and an insert: two requests at once would both count 9 and both
 * insert (issue 12 found 19 and 29). Each create therefore takes this transaction-scoped
 * advisory lock, keyed by the trader, before it counts, so creates of one trader run one
 * after another and the count each sees includes every committed insert before it.
 *
 * Why an advisory lock and not the users row: the users module owns that table, and this
 * lock guards only funding's own invariant. Order: it is the first lock a create takes after
 * its idempotency key (then the payment method read, then the ledger accounts in the
 * ledger's order); nothing that holds a ledger or funding row lock asks for it, so it cannot
 * deadlock. It is released at commit or rollback. The key is a hash of the trader's id: two
 * traders sharing a key only wait for each other, they never see each other's rows.
 */
export async function lockTraderFunding(transaction: Queryable, userId: number): Promise<void> {
  await transaction.query(
    "SELECT pg_advisory_xact_lock(hashtextextended('funding-caps', $1::bigint))",
    [userId],
  );
}

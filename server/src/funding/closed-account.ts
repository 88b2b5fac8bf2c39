import type { Queryable } from "../db/database.ts";

/**
 * At a closure request (issue 14 item 7) deposits stop at once: those still awaiting
 * payment are cancelled (nothing was paid for them yet; the trader is told in the dialog).
 * Returns how many.
 */
export async function cancelAwaitingDepositsOf(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<number> {
  const result = await transaction.query(
    `UPDATE deposits SET status = 'cancelled', updated_at = $2
     WHERE user_id = $1 AND status = 'awaiting_payment'`,
    [userId, at],
  );
  return result.rowCount;
}

/**
 * The end of a closed account's retention time: the payout details the trader gave (wallet
 * addresses, bank accounts) are erased. Amounts, dates, statuses and references stay: the
 * ledger points at them and they name no one once the account is erased.
 */
export async function eraseWithdrawalDetailsOf(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<void> {
  await transaction.query(
    `UPDATE withdrawals SET withdrawal_details = '{}'::jsonb, updated_at = $2
     WHERE user_id = $1 AND withdrawal_details <> '{}'::jsonb`,
    [userId, at],
  );
}

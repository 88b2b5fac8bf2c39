import type { DepositStatus, TransactionRow, WithdrawalStatus } from "@tp/domain/funding";
import { dollarsFromCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";

/**
 * GET /transaction-history (SPEC §3 "Transaction row"): the trader's deposits and
 * withdrawals in one list, newest first, paginated. Deposits still awaiting payment that
 * the trader never paid are shown too (status awaiting_payment), as are cancelled ones: the
 * history hides nothing.
 */
interface HistoryRow {
  id: number;
  type: "deposit" | "withdrawal";
  created_at: Date;
  method: string;
  payment_method_id: string;
  amount_cents: number;
  fee_cents: number;
  status: DepositStatus | WithdrawalStatus;
  transaction_hash: string;
  note: string | null;
}

export async function transactionHistoryPage(
  queryable: Queryable,
  userId: number,
  page: number,
  limit: number,
): Promise<{ rows: TransactionRow[]; total: number }> {
  const count = await queryable.query<{ total: number }>(
    `SELECT (SELECT COUNT(*) FROM deposits WHERE user_id = $1)
          + (SELECT COUNT(*) FROM withdrawals WHERE user_id = $1) AS total`,
    [userId],
  );
  const rows = await queryable.query<HistoryRow>(
    `SELECT * FROM (
       SELECT d.id, 'deposit' AS type, d.created_at, pm.name AS method, d.payment_method_id,
              d.amount_cents, d.fee_cents, d.status, d.transaction_hash, d.rejection_reason AS note
       FROM deposits d JOIN payment_methods pm ON pm.id = d.payment_method_id
       WHERE d.user_id = $1
       UNION ALL
       SELECT w.id, 'withdrawal' AS type, w.created_at, pm.name AS method, w.payment_method_id,
              w.amount_cents, w.fee_cents, w.status, w.transaction_hash,
              COALESCE(w.rejection_reason, w.payout_reference) AS note
       FROM withdrawals w JOIN payment_methods pm ON pm.id = w.payment_method_id
       WHERE w.user_id = $1
     ) history
     ORDER BY created_at DESC, type, id DESC
     LIMIT $2 OFFSET $3`,
    [userId, limit, (page - 1) * limit],
  );
  return {
    total: Number(count.rows[0]!.total),
    rows: rows.rows.map((row) => ({
      id: row.id,
      timestamp: row.created_at.toISOString(),
      type: row.type,
      method: row.method,
      payment_method_id: row.payment_method_id,
      amount: dollarsFromCents(row.amount_cents),
      fee: dollarsFromCents(row.fee_cents),
      net_amount: dollarsFromCents(row.amount_cents - row.fee_cents),
      status: row.status,
      transactionId: row.transaction_hash,
      note: row.note,
    })),
  };
}

import type { StaffExportKind, StatementPeriod } from "@tp/domain/statements";
import type { Queryable } from "../db/database.ts";
import { tradesStartedDuring } from "../trading/trades.ts";
import { csvOf, decimalFromCents } from "./statement-files.ts";

/**
 * Staff exports for auditors (issue 14 item 6): one CSV per kind for a period (rows created
 * in it; trades by start time; the ledger as one row per posting with its entry). Amounts
 * are dollars with two decimals, as in statements. Each export is bounded: past
 * `staff_export_rows_max` rows it is refused, asking for a shorter period, rather than
 * building a file no one can open.
 */
export const staff_export_rows_max = 200_000;

export class ExportTooLargeError extends Error {
  constructor() {
    super("export too large");
    this.name = "ExportTooLargeError";
  }
}

type Cell = string | null;

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const cents = (value: number | string | null) =>
  value === null ? null : decimalFromCents(Number(value));

function bounded<T>(rows: T[]): T[] {
  if (rows.length > staff_export_rows_max) throw new ExportTooLargeError();
  return rows;
}

/** A built export: the file and its number of data rows (the audit log records it). */
export interface StaffExport {
  csv: string;
  rowCount: number;
}

function exportOf(columns: readonly string[], rows: Cell[][]): StaffExport {
  return { csv: csvOf(columns, rows), rowCount: rows.length };
}

export async function staffExportCsv(
  queryable: Queryable,
  kind: StaffExportKind,
  period: StatementPeriod,
): Promise<StaffExport> {
  const range = [period.from, period.until, staff_export_rows_max + 1];
  switch (kind) {
    case "deposits": {
      const result = await queryable.query<{
        id: number;
        user_id: number;
        payment_method_id: string;
        amount_cents: number;
        fee_cents: number;
        currency: string;
        status: string;
        transaction_hash: string;
        created_at: Date;
        reviewed_at: Date | null;
        reviewed_by_user_id: number | null;
        first_approved_by_user_id: number | null;
        rejection_reason: string | null;
        journal_entry_id: number | null;
      }>(
        `SELECT id, user_id, payment_method_id, amount_cents, fee_cents, currency, status,
                transaction_hash, created_at, reviewed_at, reviewed_by_user_id,
                first_approved_by_user_id, rejection_reason, journal_entry_id
         FROM deposits WHERE created_at >= $1 AND created_at < $2
         ORDER BY created_at, id LIMIT $3`,
        range,
      );
      return exportOf(
        [
          "id",
          "user_id",
          "payment_method",
          "amount",
          "fee",
          "currency",
          "status",
          "transaction_hash",
          "created_at",
          "reviewed_at",
          "first_approved_by_user_id",
          "reviewed_by_user_id",
          "rejection_reason",
          "journal_entry_id",
        ],
        bounded(result.rows).map((row): Cell[] => [
          String(row.id),
          String(row.user_id),
          row.payment_method_id,
          cents(row.amount_cents),
          cents(row.fee_cents),
          row.currency,
          row.status,
          row.transaction_hash,
          iso(row.created_at),
          iso(row.reviewed_at),
          row.first_approved_by_user_id === null ? null : String(row.first_approved_by_user_id),
          row.reviewed_by_user_id === null ? null : String(row.reviewed_by_user_id),
          row.rejection_reason,
          row.journal_entry_id === null ? null : String(row.journal_entry_id),
        ]),
      );
    }
    case "withdrawals": {
      const result = await queryable.query<{
        id: number;
        user_id: number;
        payment_method_id: string;
        amount_cents: number;
        fee_cents: number;
        currency: string;
        status: string;
        transaction_hash: string;
        created_at: Date;
        email_confirmed_at: Date | null;
        reviewed_at: Date | null;
        reviewed_by_user_id: number | null;
        first_approved_by_user_id: number | null;
        rejection_reason: string | null;
        payout_reference: string | null;
        hold_entry_id: number;
        resolution_entry_id: number | null;
      }>(
        `SELECT id, user_id, payment_method_id, amount_cents, fee_cents, currency, status,
                transaction_hash, created_at, email_confirmed_at, reviewed_at,
                reviewed_by_user_id, first_approved_by_user_id, rejection_reason,
                payout_reference, hold_entry_id, resolution_entry_id
         FROM withdrawals WHERE created_at >= $1 AND created_at < $2
         ORDER BY created_at, id LIMIT $3`,
        range,
      );
      return exportOf(
        [
          "id",
          "user_id",
          "payment_method",
          "amount",
          "fee",
          "currency",
          "status",
          "transaction_hash",
          "created_at",
          "email_confirmed_at",
          "reviewed_at",
          "first_approved_by_user_id",
          "reviewed_by_user_id",
          "rejection_reason",
          "payout_reference",
          "hold_entry_id",
          "resolution_entry_id",
        ],
        bounded(result.rows).map((row): Cell[] => [
          String(row.id),
          String(row.user_id),
          row.payment_method_id,
          cents(row.amount_cents),
          cents(row.fee_cents),
          row.currency,
          row.status,
          row.transaction_hash,
          iso(row.created_at),
          iso(row.email_confirmed_at),
          iso(row.reviewed_at),
          row.first_approved_by_user_id === null ? null : String(row.first_approved_by_user_id),
          row.reviewed_by_user_id === null ? null : String(row.reviewed_by_user_id),
          row.rejection_reason,
          row.payout_reference,
          String(row.hold_entry_id),
          row.resolution_entry_id === null ? null : String(row.resolution_entry_id),
        ]),
      );
    }
    case "ledger": {
      const result = await queryable.query<{
        entry_id: number;
        created_at: Date;
        kind: string;
        reference: string;
        posting_id: number;
        account_id: number;
        account_code: string;
        user_id: number | null;
        currency: string;
        amount_cents: number;
      }>(
        `SELECT e.id AS entry_id, e.created_at, e.kind, e.reference, p.id AS posting_id,
                a.id AS account_id, a.code AS account_code, a.user_id, a.currency, p.amount_cents
         FROM journal_entries e
         JOIN postings p ON p.entry_id = e.id
         JOIN ledger_accounts a ON a.id = p.account_id
         WHERE e.created_at >= $1 AND e.created_at < $2
         ORDER BY e.created_at, e.id, p.id LIMIT $3`,
        range,
      );
      return exportOf(
        [
          "entry_id",
          "created_at",
          "kind",
          "reference",
          "posting_id",
          "account_id",
          "account_code",
          "user_id",
          "currency",
          "amount",
        ],
        bounded(result.rows).map((row): Cell[] => [
          String(row.entry_id),
          iso(row.created_at),
          row.kind,
          row.reference,
          String(row.posting_id),
          String(row.account_id),
          row.account_code,
          row.user_id === null ? null : String(row.user_id),
          row.currency,
          cents(row.amount_cents),
        ]),
      );
    }
    case "trades": {
      const trades = bounded(
        await tradesStartedDuring(queryable, period.from, period.until, staff_export_rows_max + 1),
      );
      return exportOf(
        [
          "id",
          "user_id",
          "account",
          "asset",
          "direction",
          "stake",
          "duration_seconds",
          "payout_percent",
          "entry_price",
          "entry_at",
          "feed",
          "expires_at",
          "status",
          "exit_price",
          "exit_at",
          "credit",
          "settled_at",
          "refund_reason",
          // The ledger export's entries that moved its money: one per batch of trades.
          "stake_entry_id",
          "credit_entry_id",
        ],
        trades.map((trade): Cell[] => [
          String(trade.id),
          String(trade.user_id),
          trade.is_practice ? "practice" : "real",
          trade.asset,
          trade.direction,
          cents(trade.stake_cents),
          String(trade.duration_seconds),
          String(trade.payout_percent),
          String(trade.entry_price),
          iso(trade.entry_at),
          trade.feed,
          iso(trade.expires_at),
          trade.status,
          trade.exit_price === null ? null : String(trade.exit_price),
          iso(trade.exit_at),
          cents(trade.credit_cents),
          iso(trade.settled_at),
          trade.refund_reason,
          trade.placed_entry_id === null ? null : String(trade.placed_entry_id),
          trade.settled_entry_id === null ? null : String(trade.settled_entry_id),
        ]),
      );
    }
  }
}

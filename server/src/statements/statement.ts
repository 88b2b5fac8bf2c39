import type { StatementAccount, StatementPeriod } from "@tp/domain/statements";
import type { Queryable } from "../db/database.ts";
import { type EntryKind, traderAccountId } from "../ledger/ledger.ts";

/**
 * A trader's statement for a period (issue 14 item 6), computed from the ledger alone: the
 * opening balance is the sum of the account's postings before the period, each movement is
 * one journal entry's posting on the account inside it, in time order, and the closing
 * balance is checked three ways before anything is sent (opening + movements; the sum of
 * postings before the period's end; and, when nothing was posted after the period, the
 * account's stored balance). A difference is a broken ledger, not bad input: it throws.
 *
 * A withdrawal's payment moves nothing on the trader's account (the hold already took the
 * money), but the trader must see it and its fee: it is a line with a zero change.
 */

/**
 * The most lines one statement holds (a PDF of this many is about 2,500 pages). Past it the
 * statement is refused, asking for a shorter period, rather than built in memory.
 */
export const statement_lines_max = 100_000;

export class StatementTooLongError extends Error {
  constructor() {
    super("statement too long");
    this.name = "StatementTooLongError";
  }
}

export interface StatementLine {
  at: Date;
  entry_id: number;
  kind: EntryKind;
  /** The ledger reference, e.g. `deposit:12`, `trade:981`, `withdrawal:7`. */
  reference: string;
  /** The deposit's or withdrawal's transaction id, or the payout reference; null for trades. */
  transaction_id: string | null;
  description: string;
  /** The gross amount (a deposit before its fee, a withdrawal's payout before its fee). */
  amount_cents: number;
  fee_cents: number;
  /** What the line did to the balance (negative lowers it). */
  change_cents: number;
  balance_cents: number;
}

export interface Statement {
  account: StatementAccount;
  period: StatementPeriod;
  opening_balance_cents: number;
  closing_balance_cents: number;
  lines: StatementLine[];
  totals: { credits_cents: number; debits_cents: number; fees_cents: number };
}

interface MovementRow {
  entry_id: number;
  kind: EntryKind;
  reference: string;
  created_at: Date;
  change_cents: number;
  deposit_amount_cents: number | null;
  deposit_fee_cents: number | null;
  deposit_hash: string | null;
  deposit_method: string | null;
  withdrawal_amount_cents: number | null;
  withdrawal_fee_cents: number | null;
  withdrawal_hash: string | null;
  withdrawal_method: string | null;
  payout_reference: string | null;
  trade_asset: string | null;
  trade_direction: string | null;
  trade_status: string | null;
  trade_refund_reason: string | null;
  /** How many of the account's trades the entry staked or credited (0 for other entries). */
  trade_count: number;
  /** Those trades, as "EURUSD call, BTCUSD put", when there are several. */
  trades_named: string | null;
}

const kindLabels: Record<EntryKind, string> = {
  deposit: "Deposit",
  trade_stake: "Trade stake",
  trade_payout: "Trade payout",
  trade_refund: "Trade refund",
  withdrawal_hold: "Withdrawal requested",
  withdrawal_release: "Withdrawal returned",
  withdrawal_paid: "Withdrawal paid",
  practice_topup: "Practice top-up",
  adjustment: "Adjustment",
};

/** The label of an entry kind as statements show it. */
export function statementKindLabel(kind: EntryKind): string {
  return kindLabels[kind];
}

/**
 * Reads the statement in one REPEATABLE READ transaction, so the opening balance, the
 * movements and the stored balance are one snapshot even while trades settle.
 */
export async function traderStatement(
  database: { transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T> },
  userId: number,
  account: StatementAccount,
  period: StatementPeriod,
  linesMax = statement_lines_max,
): Promise<Statement> {
  return database.transaction(async (transaction) => {
    await transaction.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    const accountId = await traderAccountId(transaction, userId, account);
    const sums = await transaction.query<{
      before_from: number;
      before_until: number;
      after_until: number;
      stored: number;
    }>(
      `SELECT
         COALESCE(SUM(p.amount_cents) FILTER (WHERE e.created_at < $2), 0)::bigint AS before_from,
         COALESCE(SUM(p.amount_cents) FILTER (WHERE e.created_at < $3), 0)::bigint AS before_until,
         COUNT(*) FILTER (WHERE e.created_at >= $3)::bigint AS after_until,
         (SELECT balance_cents FROM ledger_accounts WHERE id = $1)::bigint AS stored
       FROM postings p JOIN journal_entries e ON e.id = p.entry_id
       WHERE p.account_id = $1`,
      [accountId, period.from, period.until],
    );
    const movements = await transaction.query<MovementRow>(
      `SELECT e.id AS entry_id, e.kind, e.reference, e.created_at, m.change_cents,
              d.amount_cents AS deposit_amount_cents, d.fee_cents AS deposit_fee_cents,
              d.transaction_hash AS deposit_hash, dm.name AS deposit_method,
              w.amount_cents AS withdrawal_amount_cents, w.fee_cents AS withdrawal_fee_cents,
              w.transaction_hash AS withdrawal_hash, wm.name AS withdrawal_method,
              w.payout_reference,
              c.trade_asset, c.trade_direction, c.trade_status, c.trade_refund_reason,
              COALESCE(c.trade_count, 0) AS trade_count, c.trades_named
       FROM (
         SELECT p.entry_id, p.amount_cents AS change_cents
         FROM postings p JOIN journal_entries pe ON pe.id = p.entry_id
         WHERE p.account_id = $1 AND pe.created_at >= $2 AND pe.created_at < $3
         UNION ALL
         -- A withdrawal's payment does not touch the trader's account: found by reference.
         SELECT pe.id AS entry_id, 0 AS change_cents
         FROM withdrawals pw
         JOIN journal_entries pe
           ON pe.kind = 'withdrawal_paid' AND pe.reference = 'withdrawal:' || pw.id
         WHERE $5 AND pw.user_id = $4 AND pe.created_at >= $2 AND pe.created_at < $3
       ) m
       JOIN journal_entries e ON e.id = m.entry_id
       LEFT JOIN deposits d ON e.kind = 'deposit' AND d.journal_entry_id = e.id
       LEFT JOIN payment_methods dm ON dm.id = d.payment_method_id
       -- CASE, not AND: only a reference of that shape is ever cast (SQL does not promise
       -- to evaluate AND left to right), and the id then finds its row by primary key.
       LEFT JOIN withdrawals w
         ON w.id = CASE WHEN e.kind LIKE 'withdrawal%' AND e.reference ~ '^withdrawal:[0-9]{1,18}$'
                        THEN substr(e.reference, 12)::bigint END
       LEFT JOIN payment_methods wm ON wm.id = w.payment_method_id
       -- A trade entry is one per batch of trades (migration 031): the trades of this
       -- account that it staked or credited name it.
       LEFT JOIN LATERAL (
         SELECT COUNT(*)::integer AS trade_count,
                (array_agg(ct.asset ORDER BY ct.id))[1] AS trade_asset,
                (array_agg(ct.direction ORDER BY ct.id))[1] AS trade_direction,
                (array_agg(ct.status ORDER BY ct.id))[1] AS trade_status,
                (array_agg(ct.refund_reason ORDER BY ct.id))[1] AS trade_refund_reason,
                string_agg(ct.asset || ' ' || ct.direction, ', ' ORDER BY ct.id) AS trades_named
         FROM (
           SELECT st.* FROM trades st
           WHERE e.kind = 'trade_stake' AND st.placed_entry_id = e.id
           UNION ALL
           SELECT pt.* FROM trade_credit_entries c JOIN trades pt ON pt.id = c.trade_id
           WHERE e.kind IN ('trade_payout', 'trade_refund') AND c.entry_id = e.id
         ) ct
         WHERE ct.user_id = $4 AND ct.is_practice = NOT $5
       ) c ON e.kind LIKE 'trade%'
       ORDER BY e.created_at, e.id
       LIMIT $6`,
      [accountId, period.from, period.until, userId, account === "real", linesMax + 1],
    );
    if (movements.rows.length > linesMax) throw new StatementTooLongError();
    const sum = sums.rows[0]!;
    const opening = Number(sum.before_from);
    let balance = opening;
    const totals = { credits_cents: 0, debits_cents: 0, fees_cents: 0 };
    const lines = movements.rows.map((row): StatementLine => {
      const change = Number(row.change_cents);
      balance += change;
      if (change > 0) totals.credits_cents += change;
      else totals.debits_cents -= change;
      const line = describe(row, change);
      totals.fees_cents += line.fee_cents;
      return { ...line, balance_cents: balance };
    });
    // The reconciliation: a mismatch is a bug in the ledger or here, never the trader's input.
    if (balance !== Number(sum.before_until)) {
      throw new Error(
        `statement of account ${accountId}: opening ${opening} + movements = ${balance}, but the ledger holds ${sum.before_until} at the period's end`,
      );
    }
    if (Number(sum.after_until) === 0 && balance !== Number(sum.stored)) {
      throw new Error(
        `statement of account ${accountId}: closing ${balance} but the stored balance is ${sum.stored}`,
      );
    }
    return {
      account,
      period,
      opening_balance_cents: opening,
      closing_balance_cents: balance,
      lines,
      totals,
    };
  });
}

const named_trades_max = 5;

/** "EURUSD call, BTCUSD put" as a statement line names them: the first few, then how many more. */
function namedTrades(names: string): string {
  const all = names.split(", ");
  if (all.length <= named_trades_max) return all.join(", ");
  return `${all.slice(0, named_trades_max).join(", ")} and ${all.length - named_trades_max} more`;
}

/**
 * A trade line: its trade, or, for an entry of a batch (migration 031) that moved this
 * account's money for several trades, how many and which.
 */
function tradeLineDescription(row: MovementRow): string {
  const count = Number(row.trade_count);
  if (count > 1) {
    const named = namedTrades(row.trades_named ?? "");
    if (row.kind === "trade_stake") return `Stakes on ${count} trades placed together: ${named}`;
    const what = row.kind === "trade_payout" ? "Payout" : "Refund";
    return `${what} of ${count} trades settled together: ${named}`;
  }
  const trade = row.trade_asset ? `${row.trade_asset} ${row.trade_direction}` : "trade";
  if (row.kind === "trade_stake") return `Stake on ${trade}`;
  if (row.kind === "trade_payout") return `Payout of ${trade} (${row.trade_status})`;
  const reason = row.trade_refund_reason ? ` (${row.trade_refund_reason.replace("_", " ")})` : "";
  return `Refund of ${trade}${reason}`;
}

function describe(row: MovementRow, change: number): Omit<StatementLine, "balance_cents"> {
  const base = {
    at: row.created_at,
    entry_id: Number(row.entry_id),
    kind: row.kind,
    reference: row.reference,
    change_cents: change,
  };
  switch (row.kind) {
    case "deposit": {
      const fee = Number(row.deposit_fee_cents ?? 0);
      return {
        ...base,
        transaction_id: row.deposit_hash,
        description: `Deposit by ${row.deposit_method ?? "unknown method"}${fee > 0 ? ", fee deducted" : ""}`,
        amount_cents: Number(row.deposit_amount_cents ?? change),
        fee_cents: fee,
      };
    }
    case "withdrawal_hold":
    case "withdrawal_release":
      return {
        ...base,
        transaction_id: row.withdrawal_hash,
        description:
          row.kind === "withdrawal_hold"
            ? `Withdrawal by ${row.withdrawal_method ?? "unknown method"}: amount held`
            : "Withdrawal not paid: amount returned to the balance",
        amount_cents: Math.abs(change),
        fee_cents: 0,
      };
    case "withdrawal_paid": {
      const amount = Number(row.withdrawal_amount_cents ?? 0);
      const fee = Number(row.withdrawal_fee_cents ?? 0);
      return {
        ...base,
        transaction_id: row.payout_reference ?? row.withdrawal_hash,
        description: `Withdrawal paid: ${fee > 0 ? "sent after the fee, " : ""}from the amount held`,
        amount_cents: amount - fee,
        fee_cents: fee,
      };
    }
    case "trade_stake":
    case "trade_payout":
    case "trade_refund": {
      const description = tradeLineDescription(row);
      return {
        ...base,
        transaction_id: null,
        description,
        amount_cents: Math.abs(change),
        fee_cents: 0,
      };
    }
    default:
      return {
        ...base,
        transaction_id: null,
        description: kindLabels[row.kind],
        amount_cents: Math.abs(change),
        fee_cents: 0,
      };
  }
}

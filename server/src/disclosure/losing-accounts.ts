import {
  type LosingAccountsSnapshot,
  losing_accounts_period_months,
  roundedPercent,
} from "@tp/domain/losing-accounts";
import type { Queryable } from "../db/database.ts";

/**
 * The real share of losing accounts (issue 14 item 5): computed from the ledger, never from
 * the trades' own columns, once per UTC day of the platform clock, and stored in
 * `losing_accounts_snapshots` (this module's table) so the figure is stable through the
 * day and each day's can be audited afterwards.
 *
 * Counted: the `real` ledger account of each user with the trader role that has at least
 * one `trade_stake` posting dated within the period. Its trading result is the sum of its
 * `trade_stake` (negative), `trade_payout` and `trade_refund` (positive) postings dated in
 * the period; deposits, withdrawals, fees and adjustments are not trading. Practice
 * accounts and staff never count. A trade staked in the period whose payout falls after
 * the computation counts as a loss until then: the figure is the ledger's state at that
 * moment, as an auditor re-running the query would find it. A refunded trade nets to zero
 * but still makes its account one that traded. losingAccountsMethod (domain) states these
 * rules in words; losing-accounts.test.ts pins the words to this query.
 */

/** The period the figure looks back over: the same instant 12 months before `now`. */
export function losingAccountsPeriod(now: Date): { start: Date; end: Date } {
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - losing_accounts_period_months);
  return { start, end: now };
}

/** The platform-clock day a computation at `now` belongs to (UTC, YYYY-MM-DD). */
export function disclosureDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Counts from the ledger, as of `end`; writes nothing. */
export async function countLosingAccounts(
  queryable: Queryable,
  period: { start: Date; end: Date },
): Promise<{ accounts_traded: number; accounts_lost: number }> {
  const result = await queryable.query<{ accounts_traded: number; accounts_lost: number }>(
    `SELECT COUNT(*)::bigint AS accounts_traded,
            COUNT(*) FILTER (WHERE trading_result_cents < 0)::bigint AS accounts_lost
     FROM (
       SELECT p.account_id, SUM(p.amount_cents) AS trading_result_cents
       FROM postings p
       JOIN journal_entries e ON e.id = p.entry_id
       JOIN ledger_accounts a ON a.id = p.account_id
       JOIN users u ON u.id = a.user_id
       WHERE a.code = 'real'
         AND u.role = 'trader'
         AND e.kind IN ('trade_stake', 'trade_payout', 'trade_refund')
         AND e.created_at >= $1 AND e.created_at < $2
       GROUP BY p.account_id
       HAVING COUNT(*) FILTER (WHERE e.kind = 'trade_stake') > 0
     ) AS results`,
    [period.start, period.end],
  );
  const row = result.rows[0]!;
  return { accounts_traded: row.accounts_traded, accounts_lost: row.accounts_lost };
}

interface SnapshotRow {
  computed_at: Date;
  period_start: Date;
  period_end: Date;
  accounts_traded: number;
  accounts_lost: number;
  min_accounts: number;
  lost_percent: number | null;
}

function snapshotOf(row: SnapshotRow): LosingAccountsSnapshot {
  return {
    computed_at: row.computed_at.toISOString(),
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    accounts_traded: row.accounts_traded,
    accounts_lost: row.accounts_lost,
    min_accounts: row.min_accounts,
    lost_percent: row.lost_percent,
  };
}

/**
 * Computes and stores the figure of `now`'s day unless that day has one: the start and the
 * daily worker call it. Returns true when it stored a new snapshot. Two processes racing
 * on the same day store one row (the day is unique; the loser's insert does nothing).
 */
export async function ensureTodaysSnapshot(
  queryable: Queryable,
  now: Date,
  minAccounts: number,
): Promise<boolean> {
  const day = disclosureDay(now);
  const existing = await queryable.query(
    "SELECT 1 FROM losing_accounts_snapshots WHERE computed_on = $1::date",
    [day],
  );
  if (existing.rows.length > 0) return false;
  const period = losingAccountsPeriod(now);
  const counts = await countLosingAccounts(queryable, period);
  const lostPercent =
    counts.accounts_traded >= minAccounts
      ? roundedPercent(counts.accounts_lost, counts.accounts_traded)
      : null;
  const inserted = await queryable.query(
    `INSERT INTO losing_accounts_snapshots
       (computed_on, computed_at, period_start, period_end, accounts_traded, accounts_lost,
        min_accounts, lost_percent)
     VALUES ($1::date, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (computed_on) DO NOTHING`,
    [
      day,
      now,
      period.start,
      period.end,
      counts.accounts_traded,
      counts.accounts_lost,
      minAccounts,
      lostPercent,
    ],
  );
  return inserted.rowCount > 0;
}

/** The newest day's figure, or null before the first computation. */
export async function latestSnapshot(queryable: Queryable): Promise<LosingAccountsSnapshot | null> {
  const result = await queryable.query<SnapshotRow>(
    `SELECT computed_at, period_start, period_end, accounts_traded, accounts_lost,
            min_accounts, lost_percent
     FROM losing_accounts_snapshots ORDER BY computed_on DESC LIMIT 1`,
  );
  const row = result.rows[0];
  return row ? snapshotOf(row) : null;
}

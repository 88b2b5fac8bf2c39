import type { LedgerReport } from "@tp/domain/admin-api";
import { dollarsFromCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";
import { checkLedger, DEFAULT_CURRENCY } from "../ledger/ledger.ts";

/**
 * Reconciliation (GET /admin/ledger/check, `npm run ledger:check`): the ledger's own
 * invariants (checkLedger), then the funding tables checked against the ledger:
 *
 * - withdrawals:held equals the sum of pending withdrawals;
 * - payouts:sent equals the sum of paid withdrawals less their fees;
 * - fees:collected equals the fees of confirmed deposits and paid withdrawals;
 * - deposits:clearing equals minus the sum of confirmed deposits;
 * - every confirmed deposit has exactly one `deposit` entry crediting amount − fee, every withdrawal
 *   one hold, and every resolved one exactly one release or payout;
 * - every trade's stake and credit are moved by the entries it names, to the cent.
 *
 * and a summary: balances by account kind, held withdrawals, confirmed deposits, paid
 * withdrawals and the house's trading result.
 */
export async function ledgerReport(queryable: Queryable, at: Date): Promise<LedgerReport> {
  const currency = DEFAULT_CURRENCY;
  const violations = await checkLedger(queryable);

  const kinds = await queryable.query<{ kind: string; total: number }>(
    `SELECT CASE
              WHEN user_id IS NOT NULL THEN 'trader:' || code
              WHEN code LIKE 'house:real%' THEN 'house:real'
              WHEN code LIKE 'house:practice%' THEN 'house:practice'
              ELSE code
            END AS kind,
            SUM(balance_cents)::bigint AS total
     FROM ledger_accounts WHERE currency = $1
     GROUP BY 1 ORDER BY 1`,
    [currency],
  );
  const balanceOf = new Map(kinds.rows.map((row) => [row.kind, row.total]));

  const sums = await queryable.query<{ name: string; count: number; total: number }>(
    `SELECT 'held' AS name, COUNT(*)::bigint AS count, COALESCE(SUM(amount_cents), 0)::bigint AS total
       FROM withdrawals WHERE status = 'pending' AND currency = $1
     UNION ALL
     SELECT 'paid', COUNT(*)::bigint, COALESCE(SUM(amount_cents), 0)::bigint
       FROM withdrawals WHERE status = 'paid' AND currency = $1
     UNION ALL
     SELECT 'paid_fees', COUNT(*)::bigint, COALESCE(SUM(fee_cents), 0)::bigint
       FROM withdrawals WHERE status = 'paid' AND currency = $1
     UNION ALL
     SELECT 'confirmed_fees', COUNT(*)::bigint, COALESCE(SUM(fee_cents), 0)::bigint
       FROM deposits WHERE status = 'confirmed' AND currency = $1
     UNION ALL
     SELECT 'confirmed', COUNT(*)::bigint, COALESCE(SUM(amount_cents), 0)::bigint
       FROM deposits WHERE status = 'confirmed' AND currency = $1`,
    [currency],
  );
  const sum = (name: string) => sums.rows.find((row) => row.name === name)!;
  const held = sum("held");
  const paid = sum("paid");
  const confirmed = sum("confirmed");

  const compare = (label: string, ledger: number, tables: number) => {
    if (ledger !== tables) {
      violations.push(`${label}: ledger ${ledger} cents but funding records say ${tables} cents`);
    }
  };
  compare(
    "withdrawals:held vs pending withdrawals",
    balanceOf.get("withdrawals:held") ?? 0,
    held.total,
  );
  compare(
    "payouts:sent vs paid withdrawals less fees",
    balanceOf.get("payouts:sent") ?? 0,
    paid.total - sum("paid_fees").total,
  );
  compare(
    "fees:collected vs fees of confirmed deposits and paid withdrawals",
    balanceOf.get("fees:collected") ?? 0,
    sum("confirmed_fees").total + sum("paid_fees").total,
  );
  compare(
    "deposits:clearing vs confirmed deposits",
    -(balanceOf.get("deposits:clearing") ?? 0),
    confirmed.total,
  );

  // Each funding record against its own entries.
  const depositMismatches = await queryable.query<{ id: number; entries: number }>(
    `SELECT d.id, COUNT(e.id)::bigint AS entries
     FROM deposits d
     LEFT JOIN journal_entries e ON e.kind = 'deposit' AND e.reference = 'deposit:' || d.id
     GROUP BY d.id, d.status
     HAVING COUNT(e.id) <> CASE WHEN d.status = 'confirmed' THEN 1 ELSE 0 END`,
  );
  for (const row of depositMismatches.rows) {
    violations.push(`deposit ${row.id}: ${row.entries} deposit entries`);
  }
  const depositAmounts = await queryable.query<{ id: number }>(
    `SELECT d.id FROM deposits d
     JOIN postings p ON p.entry_id = d.journal_entry_id
     JOIN ledger_accounts a ON a.id = p.account_id AND a.user_id = d.user_id AND a.code = 'real'
     WHERE p.amount_cents <> d.amount_cents - d.fee_cents`,
  );
  for (const row of depositAmounts.rows) {
    violations.push(`deposit ${row.id}: credited amount differs from the deposit`);
  }
  const withdrawalMismatches = await queryable.query<{
    id: number;
    status: string;
    holds: number;
    resolutions: number;
  }>(
    `SELECT w.id, w.status,
            COUNT(e.id) FILTER (WHERE e.kind = 'withdrawal_hold')::bigint AS holds,
            COUNT(e.id) FILTER (WHERE e.kind IN ('withdrawal_release', 'withdrawal_paid'))::bigint AS resolutions
     FROM withdrawals w
     LEFT JOIN journal_entries e ON e.reference = 'withdrawal:' || w.id
       AND e.kind IN ('withdrawal_hold', 'withdrawal_release', 'withdrawal_paid')
     GROUP BY w.id, w.status
     HAVING COUNT(e.id) FILTER (WHERE e.kind = 'withdrawal_hold') <> 1
         OR COUNT(e.id) FILTER (WHERE e.kind IN ('withdrawal_release', 'withdrawal_paid'))
            <> CASE WHEN w.status = 'pending' THEN 0 ELSE 1 END`,
  );
  for (const row of withdrawalMismatches.rows) {
    violations.push(
      `withdrawal ${row.id} (${row.status}): ${row.holds} holds and ${row.resolutions} resolutions`,
    );
  }

  // Each trade's stake and credit against the entries that moved them (one per batch of
  // trades, migration 031): on every trader account, an entry's posting is the sum of the
  // stakes (negative) or credits of the account's trades that name it, and no trade's
  // stake or credit goes without an entry.
  const tradeMoney = await queryable.query<{
    entry_id: number | null;
    account_id: number;
    traded: number | null;
    posted: number | null;
  }>(
    `WITH traded AS (
       SELECT m.entry_id, a.id AS account_id, SUM(m.cents)::bigint AS cents
       FROM (
         SELECT t.placed_entry_id AS entry_id, t.user_id, t.is_practice, -t.stake_cents AS cents
         FROM trades t
         UNION ALL
         SELECT t.settled_entry_id, t.user_id, t.is_practice, t.credit_cents
         FROM trades t WHERE t.status <> 'open' AND t.credit_cents > 0
       ) m
       JOIN ledger_accounts a
         ON a.user_id = m.user_id AND a.currency = $1
        AND a.code = CASE WHEN m.is_practice THEN 'practice' ELSE 'real' END
       GROUP BY 1, 2
     ), posted AS (
       SELECT p.entry_id, p.account_id, SUM(p.amount_cents)::bigint AS cents
       FROM postings p
       JOIN journal_entries e ON e.id = p.entry_id
       JOIN ledger_accounts a ON a.id = p.account_id AND a.user_id IS NOT NULL AND a.currency = $1
       WHERE e.kind IN ('trade_stake', 'trade_payout', 'trade_refund')
       GROUP BY 1, 2
     )
     SELECT COALESCE(t.entry_id, p.entry_id) AS entry_id,
            COALESCE(t.account_id, p.account_id) AS account_id,
            t.cents AS traded, p.cents AS posted
     FROM traded t
     FULL JOIN posted p ON p.entry_id = t.entry_id AND p.account_id = t.account_id
     WHERE t.cents IS DISTINCT FROM p.cents
     ORDER BY 1, 2
     LIMIT 20`,
    [currency],
  );
  for (const row of tradeMoney.rows) {
    violations.push(
      row.entry_id === null || row.posted === null
        ? `account ${row.account_id}: trades moved ${row.traded} cents that no entry posted`
        : `entry ${row.entry_id}: moved ${row.posted} cents on account ${row.account_id} but its trades say ${row.traded ?? 0}`,
    );
  }

  const trading = await queryable.query<{ kind: string; total: number }>(
    `SELECT CASE WHEN a.code LIKE 'house:real%' THEN 'real' ELSE 'practice' END AS kind,
            COALESCE(SUM(p.amount_cents), 0)::bigint AS total
     FROM postings p
     JOIN journal_entries e ON e.id = p.entry_id
     JOIN ledger_accounts a ON a.id = p.account_id
     WHERE a.user_id IS NULL AND a.code LIKE 'house:%' AND a.currency = $1
       AND e.kind IN ('trade_stake', 'trade_payout', 'trade_refund')
     GROUP BY 1`,
    [currency],
  );
  const tradingResult = (kind: string) =>
    dollarsFromCents(trading.rows.find((row) => row.kind === kind)?.total ?? 0);

  return {
    ok: violations.length === 0,
    violations,
    checked_at: at.toISOString(),
    currency,
    balances_by_kind: Object.fromEntries(
      kinds.rows.map((row) => [row.kind, dollarsFromCents(row.total)]),
    ),
    held_withdrawals: { count: held.count, amount: dollarsFromCents(held.total) },
    confirmed_deposits: { count: confirmed.count, amount: dollarsFromCents(confirmed.total) },
    paid_withdrawals: { count: paid.count, amount: dollarsFromCents(paid.total) },
    trading_results: { real: tradingResult("real"), practice: tradingResult("practice") },
  };
}

/** The report as lines for a terminal. */
export function formatLedgerReport(report: LedgerReport): string {
  const money = (value: number) => value.toFixed(2);
  const lines = [
    report.ok
      ? "ledger ok: every entry balances, every balance matches its postings, totals are zero, funding records match the ledger"
      : `ledger BROKEN (${report.violations.length}):`,
    ...report.violations.map((violation) => `  ${violation}`),
    `balances by account kind (${report.currency}):`,
    ...Object.entries(report.balances_by_kind).map(
      ([kind, amount]) => `  ${kind.padEnd(22)} ${money(amount).padStart(16)}`,
    ),
    `held withdrawals:    ${report.held_withdrawals.count} totalling ${money(report.held_withdrawals.amount)}`,
    `confirmed deposits:  ${report.confirmed_deposits.count} totalling ${money(report.confirmed_deposits.amount)}`,
    `paid withdrawals:    ${report.paid_withdrawals.count} totalling ${money(report.paid_withdrawals.amount)}`,
    `trading results (house): real ${money(report.trading_results.real)}, practice ${money(report.trading_results.practice)}`,
  ];
  return `${lines.join("\n")}\n`;
}

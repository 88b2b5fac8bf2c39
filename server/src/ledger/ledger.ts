import { assertCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";

/**
 * The double-entry ledger: the one module that writes journal entries and postings and
 * changes account balances. Every balance change is a journal entry of two or more postings
 * summing to zero, posted by the database's `ledger_post` (server/sql/functions/
 * 010_ledger.sql) in the caller's transaction. The batch functions `place_trades` and
 * `settle_trades` call the same SQL function; TypeScript callers call `postEntry` here.
 *
 * Locking and the guarded debit are written once, in that SQL file: every writer locks the
 * accounts it touches in one global order (trader accounts, then system accounts, each by
 * id: `ledger_lock`) before any posting is inserted, and a trader account is debited only
 * by a guarded update backed by a CHECK constraint, so no interleaving can overdraw it.
 */

export type EntryKind =
  | "deposit"
  | "trade_stake"
  | "trade_payout"
  | "trade_refund"
  | "withdrawal_hold"
  | "withdrawal_release"
  | "withdrawal_paid"
  | "practice_topup"
  | "adjustment";

export type TraderAccountCode = "real" | "practice";
export type SystemAccountCode =
  | "house:real"
  | "house:practice"
  | `house:${"real" | "practice"}:${number}`
  | "deposits:clearing"
  | "withdrawals:held"
  | "payouts:sent"
  | "fees:collected";

/** House shards per account kind (migration 003). */
export const house_shards = 16;

/**
 * A house shard picked by trader: the same one for a trader every time. Tests and the
 * benches' seeding use it; the engine picks shards per batch instead (stakes: trade-batcher.ts,
 * payouts: settlement.ts `settlementShard`).
 */
export function houseAccountCode(isPractice: boolean, userId: number): SystemAccountCode {
  return houseShardCode(isPractice, userId % house_shards);
}

/** The code of house shard `shard` (0 ≤ shard < house_shards) of one account kind. */
export function houseShardCode(isPractice: boolean, shard: number): SystemAccountCode {
  return `house:${isPractice ? "practice" : "real"}:${shard % house_shards}`;
}

/** Locks the accounts in the ledger's global order (`ledger_lock`), before reading them. */
export async function lockInOrder(transaction: Queryable, accountIds: number[]): Promise<void> {
  await transaction.query("SELECT ledger_lock($1::bigint[])", [accountIds]);
}

export const DEFAULT_CURRENCY = "USD";

export interface Posting {
  accountId: number;
  amountCents: number;
}

export interface EntryInput {
  kind: EntryKind;
  /** What caused the entry, e.g. `user:12:registration`, `trade:981`. */
  reference: string;
  at: Date;
  postings: Posting[];
}

/** The expected failure of a debit: the caller maps it to its own message. */
export class InsufficientFundsError extends Error {
  constructor(readonly accountId: number) {
    super(`insufficient funds in ledger account ${accountId}`);
    this.name = "InsufficientFundsError";
  }
}

export async function openTraderAccounts(
  transaction: Queryable,
  userId: number,
  currency = DEFAULT_CURRENCY,
): Promise<Record<TraderAccountCode, number>> {
  const result = await transaction.query<{ id: number; code: TraderAccountCode }>(
    `INSERT INTO ledger_accounts (user_id, code, currency)
     VALUES ($1, 'real', $2), ($1, 'practice', $2)
     RETURNING id, code`,
    [userId, currency],
  );
  const ids = Object.fromEntries(result.rows.map((row) => [row.code, row.id]));
  return { real: ids.real as number, practice: ids.practice as number };
}

export async function traderAccountId(
  queryable: Queryable,
  userId: number,
  code: TraderAccountCode,
  currency = DEFAULT_CURRENCY,
): Promise<number> {
  const result = await queryable.query<{ id: number }>(
    "SELECT id FROM ledger_accounts WHERE user_id = $1 AND code = $2 AND currency = $3",
    [userId, code, currency],
  );
  const row = result.rows[0];
  if (!row) throw new Error(`user ${userId} has no ${code} ${currency} account`);
  return row.id;
}

export async function systemAccountId(
  queryable: Queryable,
  code: SystemAccountCode,
  currency = DEFAULT_CURRENCY,
): Promise<number> {
  const result = await queryable.query<{ id: number }>(
    "SELECT id FROM ledger_accounts WHERE user_id IS NULL AND code = $1 AND currency = $2",
    [code, currency],
  );
  const row = result.rows[0];
  if (!row) throw new Error(`system account ${code} ${currency} is missing`);
  return row.id;
}

/** Records one entry and moves the balances; throws InsufficientFundsError on a guarded debit. */
export async function postEntry(transaction: Queryable, entry: EntryInput): Promise<number> {
  const [entryId] = await postEntries(transaction, [entry]);
  return entryId!;
}

/**
 * Records entries in order with one call of `ledger_post`, all or nothing: if any would
 * overdraw a trader account, InsufficientFundsError is thrown (nothing of the call is
 * written) and the caller's transaction rolls back.
 */
export async function postEntries(
  transaction: Queryable,
  entries: EntryInput[],
): Promise<number[]> {
  if (entries.length === 0) return [];
  for (const entry of entries) {
    // Programmer errors, not input (the database checks the balance too): fail before the call.
    for (const posting of entry.postings) assertCents(posting.amountCents);
  }
  const posted = await transaction.query<{ outcome: "posted" | "short"; entry_id: number }>(
    "SELECT outcome, entry_id FROM ledger_post_json($1::jsonb)",
    [
      JSON.stringify(
        entries.map((entry) => ({
          kind: entry.kind,
          reference: entry.reference,
          created_at: entry.at.toISOString(),
          probe: false,
          postings: entry.postings.map((posting) => ({
            account_id: posting.accountId,
            amount_cents: posting.amountCents,
          })),
        })),
      ),
    ],
  );
  const shortIndex = posted.rows.findIndex((row) => row.outcome !== "posted");
  if (shortIndex >= 0) {
    const short = entries[shortIndex]!.postings.find((posting) => posting.amountCents < 0);
    // The entries before it were written: undo them with the caller's transaction.
    throw new InsufficientFundsError(short?.accountId ?? -1);
  }
  return posted.rows.map((row) => row.entry_id);
}

export interface TraderBalances {
  real_cents: number;
  practice_cents: number;
}

export async function traderBalances(
  queryable: Queryable,
  userId: number,
  currency = DEFAULT_CURRENCY,
): Promise<TraderBalances> {
  const result = await queryable.query<{ code: TraderAccountCode; balance_cents: number }>(
    "SELECT code, balance_cents FROM ledger_accounts WHERE user_id = $1 AND currency = $2",
    [userId, currency],
  );
  const balances: TraderBalances = { real_cents: 0, practice_cents: 0 };
  for (const row of result.rows) {
    if (row.code === "real") balances.real_cents = row.balance_cents;
    else balances.practice_cents = row.balance_cents;
  }
  return balances;
}

/** Balances of many traders in one query (after a settlement batch). */
export async function traderBalancesOf(
  queryable: Queryable,
  userIds: number[],
  currency = DEFAULT_CURRENCY,
): Promise<Map<number, TraderBalances>> {
  const result = await queryable.query<{
    user_id: number;
    code: TraderAccountCode;
    balance_cents: number;
  }>(
    "SELECT user_id, code, balance_cents FROM ledger_accounts WHERE user_id = ANY($1::bigint[]) AND currency = $2",
    [userIds, currency],
  );
  const balances = new Map<number, TraderBalances>();
  for (const row of result.rows) {
    const entry = balances.get(row.user_id) ?? { real_cents: 0, practice_cents: 0 };
    if (row.code === "real") entry.real_cents = row.balance_cents;
    else entry.practice_cents = row.balance_cents;
    balances.set(row.user_id, entry);
  }
  return balances;
}

/**
 * The ledger's invariants: every entry balances, every account's balance equals the sum of
 * its postings, all balances per currency sum to zero, no trader balance is negative.
 * Returns the violations found (empty when the ledger is sound).
 */
export async function checkLedger(queryable: Queryable): Promise<string[]> {
  const violations: string[] = [];
  const unbalanced = await queryable.query<{ entry_id: number; total: number; postings: number }>(
    `SELECT entry_id, SUM(amount_cents)::bigint AS total, COUNT(*)::bigint AS postings
     FROM postings GROUP BY entry_id
     HAVING SUM(amount_cents) <> 0 OR COUNT(*) < 2`,
  );
  for (const row of unbalanced.rows) {
    violations.push(`entry ${row.entry_id}: ${row.postings} postings summing to ${row.total}`);
  }
  const orphanEntries = await queryable.query<{ id: number }>(
    `SELECT id FROM journal_entries e WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id)`,
  );
  for (const row of orphanEntries.rows) violations.push(`entry ${row.id}: no postings`);
  const drifted = await queryable.query<{ id: number; balance_cents: number; posted: number }>(
    `SELECT a.id, a.balance_cents, COALESCE(SUM(p.amount_cents), 0)::bigint AS posted
     FROM ledger_accounts a LEFT JOIN postings p ON p.account_id = a.id
     GROUP BY a.id, a.balance_cents
     HAVING a.balance_cents <> COALESCE(SUM(p.amount_cents), 0)`,
  );
  for (const row of drifted.rows) {
    violations.push(
      `account ${row.id}: balance ${row.balance_cents} but postings sum to ${row.posted}`,
    );
  }
  const totals = await queryable.query<{ currency: string; total: number }>(
    `SELECT currency, SUM(balance_cents)::bigint AS total FROM ledger_accounts
     GROUP BY currency HAVING SUM(balance_cents) <> 0`,
  );
  for (const row of totals.rows) {
    violations.push(`currency ${row.currency}: balances sum to ${row.total}, not 0`);
  }
  const negative = await queryable.query<{ id: number; balance_cents: number }>(
    "SELECT id, balance_cents FROM ledger_accounts WHERE user_id IS NOT NULL AND balance_cents < 0",
  );
  for (const row of negative.rows) {
    violations.push(`trader account ${row.id}: negative balance ${row.balance_cents}`);
  }
  return violations;
}

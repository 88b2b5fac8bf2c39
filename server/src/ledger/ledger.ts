import { assertCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";

/**
 * The double-entry ledger. Every balance change is a journal entry of two or more postings
 * summing to zero; an account's balance is kept on its row and changed only here, in the
 * caller's transaction, together with the postings that explain it.
 *
 * Locking: every writer locks the account rows it touches in one global order — trader
 * accounts first, then system accounts, each by ascending id (`lockOrder`) — so any two
 * transactions take their locks in the same order and cannot deadlock. System (house)
 * rows come last because many transactions share them: locked last, they are held only
 * for the end of the transaction; and the house side is split over shards (see
 * `houseAccountCode`) so trades of different traders rarely meet on one row. A trader account is debited by a guarded update (`balance + amount >= 0` in the
 * WHERE clause) backed by a CHECK constraint, so no interleaving can overdraw it: the second
 * of two racing debits waits for the first row lock, re-reads the committed balance, and
 * fails the guard if the money is gone.
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
  | "payouts:sent";

/** House shards per account kind (migration 003). */
export const house_shards = 16;

/**
 * The house shard a trader's payouts and refunds come from: always the same one for a
 * trader, so settlement batches on disjoint groups of traders touch disjoint shards. (Stakes
 * go to the shard of their place-trade batch instead: see trade-batcher.ts.)
 */
export function houseAccountCode(isPractice: boolean, userId: number): SystemAccountCode {
  return houseShardCode(isPractice, userId % house_shards);
}

/** The code of house shard `shard` (0 ≤ shard < house_shards) of one account kind. */
export function houseShardCode(isPractice: boolean, shard: number): SystemAccountCode {
  return `house:${isPractice ? "practice" : "real"}:${shard % house_shards}`;
}

/**
 * The global lock order (trader accounts, then system accounts, each by id) of a set of
 * account ids, locking them in that order. Returns the ids in that order.
 */
export async function lockInOrder(transaction: Queryable, accountIds: number[]): Promise<number[]> {
  const locked = await transaction.query<{ id: number }>(
    `SELECT id FROM ledger_accounts WHERE id = ANY($1::bigint[])
     ORDER BY (user_id IS NULL), id FOR NO KEY UPDATE`,
    [accountIds],
  );
  return locked.rows.map((row) => row.id);
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
  // Programmer errors, not input: an unbalanced or fractional entry must never be written.
  if (entry.postings.length < 2) throw new Error("a journal entry needs at least two postings");
  let sum = 0;
  for (const posting of entry.postings) {
    assertCents(posting.amountCents);
    if (posting.amountCents === 0) throw new Error("a posting must move money");
    sum += posting.amountCents;
  }
  if (sum !== 0) throw new Error(`postings of a journal entry must sum to zero, got ${sum}`);

  // Lock first, before any insert: a posting's foreign key takes a share lock on its
  // account, and locks taken in any other order than lockInOrder's could deadlock.
  const order = await lockInOrder(transaction, [
    ...new Set(entry.postings.map((posting) => posting.accountId)),
  ]);
  const inserted = await transaction.query<{ id: number }>(
    "INSERT INTO journal_entries (kind, reference, created_at) VALUES ($1, $2, $3) RETURNING id",
    [entry.kind, entry.reference, entry.at],
  );
  const entryId = inserted.rows[0]!.id;

  const rank = new Map(order.map((id, index) => [id, index]));
  const ordered = [...entry.postings].sort(
    (a, b) => (rank.get(a.accountId) ?? 0) - (rank.get(b.accountId) ?? 0),
  );
  for (const posting of ordered) {
    const updated = await transaction.query(
      `UPDATE ledger_accounts SET balance_cents = balance_cents + $1
       WHERE id = $2 AND (user_id IS NULL OR balance_cents + $1 >= 0)`,
      [posting.amountCents, posting.accountId],
    );
    if (updated.rowCount !== 1) throw new InsufficientFundsError(posting.accountId);
    await transaction.query(
      "INSERT INTO postings (entry_id, account_id, amount_cents) VALUES ($1, $2, $3)",
      [entryId, posting.accountId, posting.amountCents],
    );
  }
  return entryId;
}

/**
 * Records many entries at once with set-based statements (a settlement batch): ids drawn
 * from the sequence, one insert for the entries, one for the postings, and one guarded
 * update for the touched accounts, locked first in the global order (`lockInOrder`), as
 * `postEntry` does, so the two cannot deadlock. All or nothing: if any trader
 * account would go negative, InsufficientFundsError is thrown and the caller's transaction
 * rolls back.
 */
export async function postEntries(
  transaction: Queryable,
  entries: EntryInput[],
): Promise<number[]> {
  if (entries.length === 0) return [];
  const deltas = new Map<number, number>();
  for (const entry of entries) {
    if (entry.postings.length < 2) throw new Error("a journal entry needs at least two postings");
    let sum = 0;
    for (const posting of entry.postings) {
      assertCents(posting.amountCents);
      if (posting.amountCents === 0) throw new Error("a posting must move money");
      sum += posting.amountCents;
      deltas.set(
        posting.accountId,
        assertCents((deltas.get(posting.accountId) ?? 0) + posting.amountCents),
      );
    }
    if (sum !== 0) throw new Error(`postings of a journal entry must sum to zero, got ${sum}`);
  }

  // Lock first, in the global order, before any insert (see postEntry).
  const accountIds = await lockInOrder(
    transaction,
    [...deltas.keys()].filter((id) => deltas.get(id) !== 0),
  );
  const ids = await transaction.query<{ id: number }>(
    "SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) AS id FROM generate_series(1, $1)",
    [entries.length],
  );
  const entryIds = ids.rows.map((row) => row.id);
  await transaction.query(
    `INSERT INTO journal_entries (id, kind, reference, created_at)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[])`,
    [
      entryIds,
      entries.map((entry) => entry.kind),
      entries.map((entry) => entry.reference),
      entries.map((entry) => entry.at.toISOString()),
    ],
  );
  const postingEntryIds: number[] = [];
  const postingAccountIds: number[] = [];
  const postingAmounts: number[] = [];
  entries.forEach((entry, index) => {
    for (const posting of entry.postings) {
      postingEntryIds.push(entryIds[index]!);
      postingAccountIds.push(posting.accountId);
      postingAmounts.push(posting.amountCents);
    }
  });
  await transaction.query(
    `INSERT INTO postings (entry_id, account_id, amount_cents)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[])`,
    [postingEntryIds, postingAccountIds, postingAmounts],
  );

  const updated = await transaction.query<{ id: number }>(
    `UPDATE ledger_accounts a SET balance_cents = a.balance_cents + d.delta
     FROM unnest($1::bigint[], $2::bigint[]) AS d(id, delta)
     WHERE a.id = d.id AND (a.user_id IS NULL OR a.balance_cents + d.delta >= 0)
     RETURNING a.id`,
    [accountIds, accountIds.map((id) => deltas.get(id)!)],
  );
  if (updated.rowCount !== accountIds.length) {
    const done = new Set(updated.rows.map((row) => row.id));
    throw new InsufficientFundsError(accountIds.find((id) => !done.has(id)) ?? -1);
  }
  return entryIds;
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

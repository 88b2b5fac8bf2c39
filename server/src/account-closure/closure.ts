import {
  type AccountClosure,
  accountClosureMessages,
  type ClosureWait,
  closureBalanceRemainingMessage,
  type RequestAccountClosure,
} from "@tp/domain/account-closure";
import { eraseSignInData } from "../auth/closed-account.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { announceRevokedSessions } from "../auth/sessions.ts";
import type { Database, Queryable } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import { cancelAwaitingDepositsOf, eraseWithdrawalDetailsOf } from "../funding/closed-account.ts";
import { AppError, validationError } from "../http/errors.ts";
import { lockInOrder, traderAccountId, traderBalances } from "../ledger/ledger.ts";
import { eraseEmailsTo, queueEmail } from "../mail/outbox.ts";
import { eraseNotificationsOf, notificationIdsOf } from "../notifications/closed-account.ts";
import { erasePushData } from "../push/closed-account.ts";
import { startClosureExclusion } from "../responsible-trading/exclusions.ts";
import { eraseUploadNamesOf, removeErasedFiles } from "../uploads/closed-account.ts";
import { closeUserAccount, eraseClosedIdentity, findUserById } from "../users/users.ts";
import { accountClosedEmail } from "./closure-email.ts";

/**
 * Account closure (issue 14 item 7). This module owns `account_closures`: a trader's
 * request (trading and deposits stop at once), the closing once nothing is in flight and no
 * real money is left (credentials and traces erased, the rest pseudonymised, one
 * confirmation e-mail), and the erasure of the identity kept for record keeping after
 * RECORD_RETENTION_YEARS. Each other module erases its own tables (their closed-account.ts).
 */

export interface ClosureDependencies {
  database: Database;
  bus: EventBus;
  retentionYears: number;
  siteName: string;
  uploadsDirectory: string;
  /** Kicks the outbox after a commit that queued the confirmation. */
  onEmailsQueued: () => void;
}

interface ClosureRow {
  requested_at: Date;
  closed_at: Date | null;
}

async function closureRowOf(queryable: Queryable, userId: number): Promise<ClosureRow | null> {
  const result = await queryable.query<ClosureRow>(
    "SELECT requested_at, closed_at FROM account_closures WHERE user_id = $1",
    [userId],
  );
  return result.rows[0] ?? null;
}

/** What a closing account still waits for, in the order the page lists them. */
async function waitsOf(queryable: Queryable, userId: number): Promise<ClosureWait[]> {
  const result = await queryable.query<{
    open_trades: boolean;
    pending_deposits: boolean;
    pending_withdrawals: boolean;
  }>(
    `SELECT
       EXISTS (SELECT 1 FROM open_trades WHERE user_id = $1) AS open_trades,
       EXISTS (SELECT 1 FROM deposits WHERE user_id = $1
               AND status IN ('awaiting_payment', 'under_review')) AS pending_deposits,
       EXISTS (SELECT 1 FROM withdrawals WHERE user_id = $1 AND status = 'pending')
         AS pending_withdrawals`,
    [userId],
  );
  const row = result.rows[0]!;
  const waits: ClosureWait[] = [];
  if (row.open_trades) waits.push("open_trades");
  if (row.pending_deposits) waits.push("pending_deposits");
  if (row.pending_withdrawals) waits.push("pending_withdrawals");
  if ((await traderBalances(queryable, userId)).real_cents > 0) waits.push("real_balance");
  return waits;
}

/** GET /account/closure: open, closing (with what it waits for) or closed. */
export async function closureOf(
  queryable: Queryable,
  userId: number,
  retentionYears: number,
): Promise<AccountClosure> {
  const row = await closureRowOf(queryable, userId);
  const record_retention_years = retentionYears;
  if (!row) {
    return {
      status: "open",
      requested_at: null,
      closed_at: null,
      waiting_for: [],
      record_retention_years,
    };
  }
  return {
    record_retention_years,
    status: row.closed_at ? "closed" : "closing",
    requested_at: row.requested_at.toISOString(),
    closed_at: row.closed_at?.toISOString() ?? null,
    waiting_for: row.closed_at ? [] : await waitsOf(queryable, userId),
  };
}

/**
 * POST /account/closure. The password proves it is the trader (a stolen session alone must
 * not end an account, and closing cannot be undone). Refused while real money is on the
 * account: it must be withdrawn first, since a closed account cannot hold money. A second
 * request changes nothing and answers the state as it is.
 */
export async function requestClosure(
  database: Database,
  userId: number,
  request: RequestAccountClosure,
  at: Date,
  retentionYears: number,
): Promise<{ closure: AccountClosure; created: boolean }> {
  const user = await findUserById(database, userId);
  if (!user || !(await verifyPassword(user.password_hash, request.password))) {
    throw validationError(
      { password: [accountClosureMessages.passwordWrong] },
      accountClosureMessages.passwordWrong,
    );
  }
  const created = await database.transaction(async (transaction) => {
    // The trader's real account, locked: a withdrawal or a settlement changing the balance
    // runs wholly before or after this check.
    await lockInOrder(transaction, [await traderAccountId(transaction, userId, "real")]);
    if (await closureRowOf(transaction, userId)) return false;
    const { real_cents } = await traderBalances(transaction, userId);
    if (real_cents > 0) {
      throw new AppError("CLOSURE_BALANCE_REMAINING", closureBalanceRemainingMessage(real_cents));
    }
    const inserted = await transaction.query(
      `INSERT INTO account_closures (user_id, requested_at) VALUES ($1, $2)
       ON CONFLICT (user_id) DO NOTHING`,
      [userId, at],
    );
    if (inserted.rowCount === 0) return false;
    await startClosureExclusion(transaction, userId, at);
    await cancelAwaitingDepositsOf(transaction, userId, at);
    return true;
  });
  return { closure: await closureOf(database, userId, retentionYears), created };
}

/** Closings or erasures per worker pass; the rest wait for the next pass. */
export const closure_batch_max = 20;

/**
 * The worker's pass: closes each requested account with no open trade, no deposit awaiting
 * payment or under review, no pending withdrawal and no real money; returns how many.
 */
export async function closeReadyAccounts(
  dependencies: ClosureDependencies,
  now: Date,
): Promise<number> {
  const { database } = dependencies;
  const ready = await database.query<{ user_id: number }>(
    `SELECT c.user_id FROM account_closures c
     WHERE c.closed_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM open_trades t WHERE t.user_id = c.user_id)
       AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.user_id = c.user_id
                       AND d.status IN ('awaiting_payment', 'under_review'))
       AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.user_id = c.user_id
                       AND w.status = 'pending')
       AND NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.user_id = c.user_id
                       AND a.code = 'real' AND a.balance_cents > 0)
     ORDER BY c.requested_at, c.user_id LIMIT $1`,
    [closure_batch_max],
  );
  let closed = 0;
  for (const { user_id } of ready.rows) {
    if (await closeAccount(dependencies, Number(user_id), now)) closed += 1;
  }
  if (closed > 0) dependencies.onEmailsQueued();
  return closed;
}

async function closeAccount(
  dependencies: ClosureDependencies,
  userId: number,
  at: Date,
): Promise<boolean> {
  const { database, retentionYears, siteName } = dependencies;
  const revoked = await database.transaction(async (transaction) => {
    const locked = await transaction.query<{ closed_at: Date | null }>(
      "SELECT closed_at FROM account_closures WHERE user_id = $1 FOR UPDATE",
      [userId],
    );
    if (!locked.rows[0] || locked.rows[0].closed_at) return null;
    // Checked again under the real account's lock: nothing moved since the pass's query.
    await lockInOrder(transaction, [await traderAccountId(transaction, userId, "real")]);
    if ((await waitsOf(transaction, userId)).length > 0) return null;
    const user = (await findUserById(transaction, userId))!;
    // Queued before the account is marked closed: queueEmail sends nothing to a closed one.
    await queueEmail(
      transaction,
      accountClosedEmail({
        to: user.email,
        siteName,
        firstName: user.first_name,
        retentionYears,
      }),
      at,
    );
    await eraseEmailsTo(transaction, user.email, "delivered");
    await closeUserAccount(transaction, userId, at);
    const sessionIds = await eraseSignInData(transaction, userId, at);
    await erasePushData(transaction, userId, await notificationIdsOf(transaction, userId));
    await eraseNotificationsOf(transaction, userId);
    const eraseAfter = new Date(at);
    eraseAfter.setUTCFullYear(eraseAfter.getUTCFullYear() + retentionYears);
    await transaction.query(
      "UPDATE account_closures SET closed_at = $2, erase_after = $3 WHERE user_id = $1",
      [userId, at, eraseAfter],
    );
    return sessionIds;
  });
  if (revoked === null) return false;
  announceRevokedSessions(dependencies.bus, userId, revoked);
  return true;
}

/**
 * The worker's other pass: closed accounts whose retention time has passed lose the
 * identity kept for record keeping (name, country, e-mail, documents, payout details).
 * Trades, ledger lines and funding rows stay, pseudonymous: the ledger must still balance.
 */
export async function eraseExpiredRecords(
  dependencies: ClosureDependencies,
  now: Date,
): Promise<number> {
  const { database } = dependencies;
  const due = await database.query<{ user_id: number }>(
    `SELECT user_id FROM account_closures
     WHERE closed_at IS NOT NULL AND erased_at IS NULL AND erase_after <= $1
     ORDER BY erase_after, user_id LIMIT $2`,
    [now, closure_batch_max],
  );
  for (const { user_id } of due.rows) {
    const userId = Number(user_id);
    const files = await database.transaction(async (transaction) => {
      const locked = await transaction.query<{ erased_at: Date | null }>(
        "SELECT erased_at FROM account_closures WHERE user_id = $1 FOR UPDATE",
        [userId],
      );
      if (!locked.rows[0] || locked.rows[0].erased_at) return [];
      const user = (await findUserById(transaction, userId))!;
      await eraseEmailsTo(transaction, user.email, "all");
      await eraseClosedIdentity(transaction, userId, now);
      await eraseWithdrawalDetailsOf(transaction, userId, now);
      const storageNames = await eraseUploadNamesOf(transaction, userId);
      await transaction.query("UPDATE account_closures SET erased_at = $2 WHERE user_id = $1", [
        userId,
        now,
      ]);
      return storageNames;
    });
    await removeErasedFiles(dependencies.uploadsDirectory, files);
  }
  return due.rows.length;
}

/** One pass of the closure worker: closings first, then erasures due. */
export async function runClosurePass(dependencies: ClosureDependencies, now: Date) {
  const closed = await closeReadyAccounts(dependencies, now);
  const erased = await eraseExpiredRecords(dependencies, now);
  return closed + erased;
}

/** Staff see a closing or closed account plainly (admin user view). */
export async function closureStatesOf(
  queryable: Queryable,
  userIds: number[],
): Promise<Map<number, ClosureRow>> {
  const result = await queryable.query<ClosureRow & { user_id: number }>(
    "SELECT user_id, requested_at, closed_at FROM account_closures WHERE user_id = ANY($1::bigint[])",
    [userIds],
  );
  return new Map(result.rows.map((row) => [Number(row.user_id), row]));
}

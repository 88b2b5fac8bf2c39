import type { AuditAction } from "@tp/domain/admin-api";
import { type AuditActor, recordAudit } from "../audit/audit-log.ts";
import type { Queryable, QueryResult } from "../db/database.ts";
import { type AppError, notFound } from "../http/errors.ts";
import { type NewNotification, storeNotification } from "../notifications/notifications.ts";

/**
 * One decided transition of a funding row: a staff decision on a deposit, a withdrawal or
 * an identity document, or a trader cancelling their own deposit or withdrawal. Each flow
 * gives its pieces; `runReviewTransition` runs them in one order in the caller's
 * transaction:
 *
 *   lock the row → check the state it leaves → read it (before) → ledger entry → update
 *   → read it (after) → notify the trader → audit record
 *
 * The ledger entry comes before the update because the update records the entry's id.
 * Locks: the row first (FOR UPDATE), then, inside `postEntry`, the ledger accounts in the
 * ledger's global order. No writer locks a ledger account and then a funding row, so the
 * two orders never cross and this cannot deadlock. A racing second transition waits for
 * the row lock, re-reads the committed state and is refused: it moves nothing, posts
 * nothing and notifies nobody.
 */
export interface ReviewTransition<Locked extends { status: string }, Row> {
  /** Names the row in the assertion that its guarded update moved it, e.g. "deposit 12". */
  subject: string;
  /** Locks the row FOR UPDATE; null when it is missing or not the caller's (404). */
  lock(transaction: Queryable): Promise<Locked | null>;
  /** The states the row may leave; from any other, `refused()` is thrown. */
  from: readonly Locked["status"][];
  /** The expected failure when the row is in another state (a 409 with the flow's message). */
  refused(): AppError;
  /** Reads the whole row: once after the check (before), once after the update (after). */
  read(transaction: Queryable): Promise<Row>;
  /** The ledger step (`postEntry`), if the transition moves money; returns the entry id. */
  ledger?(transaction: Queryable, moving: { locked: Locked; before: Row }): Promise<number>;
  /**
   * The UPDATE guarded by the states it leaves (`WHERE … AND status = …`), given the ledger
   * entry's id (null without a ledger step). The row is locked and was checked, so it must
   * move exactly one row: anything else is a bug and rolls the transaction back.
   */
  update(
    transaction: Queryable,
    moving: { locked: Locked; entryId: number | null },
  ): Promise<QueryResult<unknown>>;
  /** The trader's notification of the outcome, stored with the transition's time. */
  notification?(moved: { locked: Locked; before: Row; after: Row }): Omit<NewNotification, "at">;
  /** The audit record of a staff decision (a trader's own cancellation has none). */
  audit?: {
    actor: AuditActor;
    action: AuditAction;
    targetType: string;
    targetId: number;
    /** What of the row the record keeps, before and after. */
    state(row: Row): unknown;
  };
}

export async function runReviewTransition<Locked extends { status: string }, Row>(
  transaction: Queryable,
  at: Date,
  transition: ReviewTransition<Locked, Row>,
): Promise<{ locked: Locked; before: Row; after: Row }> {
  const locked = await transition.lock(transaction);
  if (!locked) throw notFound();
  if (!transition.from.includes(locked.status)) throw transition.refused();
  const before = await transition.read(transaction);
  const entryId = transition.ledger
    ? await transition.ledger(transaction, { locked, before })
    : null;
  const updated = await transition.update(transaction, { locked, entryId });
  if (updated.rowCount !== 1) throw new Error(`${transition.subject} changed under its lock`);
  const after = await transition.read(transaction);
  if (transition.notification) {
    await storeNotification(transaction, {
      ...transition.notification({ locked, before, after }),
      at,
    });
  }
  if (transition.audit) {
    const { actor, action, targetType, targetId, state } = transition.audit;
    await recordAudit(transaction, {
      actor,
      action,
      targetType,
      targetId,
      before: state(before),
      after: state(after),
      at,
    });
  }
  return { locked, before, after };
}

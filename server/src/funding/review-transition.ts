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
 *
 * Four eyes (issue 12 item 8): an approval that `fourEyes` says needs two people runs
 *
 *   lock → check → read (before) → no first approval yet: record it → read (after) → audit
 *                                → first approval by this approver: refused
 *                                → first approval by someone else: the whole path above
 *
 * so a first approval moves no money, notifies nobody and leaves the row in its queue
 * state; the same row lock orders two reviewers approving at once (the second re-reads the
 * first's approval and completes it, or is refused if it is the same person).
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
  /** An approval that may need a second, different approver (above the four-eyes threshold). */
  fourEyes?: FourEyes<Row>;
}

export interface FourEyes<Row> {
  /** Whether this row needs two approvers (its amount is above the threshold). */
  needed(before: Row): boolean;
  /** Who gave the first approval, or null when nobody has yet. */
  firstApprover(before: Row): number | null;
  /** The member of staff approving now. */
  approverId: number;
  /** The expected failure when the first approver approves again. */
  sameApprover(): AppError;
  /**
   * Checks the request is fit for the step it turned out to be (e.g. a payout reference only
   * on the final one); throws the expected failure otherwise. Runs under the row lock.
   */
  check?(step: "first" | "final"): void;
  /** The UPDATE recording the first approval, guarded like `update`: exactly one row. */
  recordFirst(transaction: Queryable): Promise<QueryResult<unknown>>;
  /** The audit action of the first approval (the final one uses `audit.action`). */
  firstAction: AuditAction;
}

export async function runReviewTransition<Locked extends { status: string }, Row>(
  transaction: Queryable,
  at: Date,
  transition: ReviewTransition<Locked, Row>,
): Promise<{ locked: Locked; before: Row; after: Row; step: "first" | "final" }> {
  const locked = await transition.lock(transaction);
  if (!locked) throw notFound();
  if (!transition.from.includes(locked.status)) throw transition.refused();
  const before = await transition.read(transaction);
  const fourEyes = transition.fourEyes;
  if (fourEyes) {
    const first = fourEyes.firstApprover(before);
    // Whoever gave a first approval never gives the last one, even if the threshold was
    // raised since (the row's CHECK of migration 017 says the same).
    if (first === fourEyes.approverId) throw fourEyes.sameApprover();
    if (first === null && fourEyes.needed(before)) {
      fourEyes.check?.("first");
      const recorded = await fourEyes.recordFirst(transaction);
      if (recorded.rowCount !== 1) throw new Error(`${transition.subject} changed under its lock`);
      const after = await transition.read(transaction);
      if (transition.audit) {
        const { actor, targetType, targetId, state } = transition.audit;
        await recordAudit(transaction, {
          actor,
          action: fourEyes.firstAction,
          targetType,
          targetId,
          before: state(before),
          after: state(after),
          at,
        });
      }
      return { locked, before, after, step: "first" };
    }
  }
  fourEyes?.check?.("final");
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
  return { locked, before, after, step: "final" };
}

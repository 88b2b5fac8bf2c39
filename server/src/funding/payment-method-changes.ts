import {
  adminMessages,
  type PaymentMethodChange,
  type UpdatePaymentMethodRequest,
  updatePaymentMethodSchema,
} from "@tp/domain/admin-api";
import { type AuditActor, recordAudit } from "../audit/audit-log.ts";
import type { Queryable } from "../db/database.ts";
import { AppError, notFound } from "../http/errors.ts";
import {
  adminPaymentMethodView,
  findPaymentMethod,
  updatePaymentMethod,
} from "./payment-methods.ts";

/**
 * Four eyes on payment methods (issue 12 item 8): an admin's change to a method (wallet
 * address, bank details, on/off) is stored as a proposal in `payment_method_changes` and
 * takes effect only when a second, different admin confirms it; any admin may discard it.
 * Each step writes the audit log in the same transaction.
 *
 *   pending ──confirm (another admin)──▶ confirmed (the change applied to the method)
 *      └────discard (any admin)────────▶ discarded
 *
 * Locks: the change row (FOR UPDATE), then the method row inside `updatePaymentMethod`;
 * nothing locks them the other way round. Two admins confirming at once: the second waits
 * for the change row, finds it no longer pending and is refused; the change applies once.
 */

interface ChangeRow {
  id: number;
  payment_method_id: string;
  payment_method_name: string;
  changes: Record<string, unknown>;
  status: PaymentMethodChange["status"];
  proposed_by_user_id: number;
  proposer_email: string;
  proposed_at: Date;
  decided_by_user_id: number | null;
  decider_email: string | null;
  decided_at: Date | null;
}

const selectChanges = `
  SELECT c.*, pm.name AS payment_method_name, p.email AS proposer_email,
         d.email AS decider_email
  FROM payment_method_changes c
  JOIN payment_methods pm ON pm.id = c.payment_method_id
  JOIN users p ON p.id = c.proposed_by_user_id
  LEFT JOIN users d ON d.id = c.decided_by_user_id`;

/** The pending list is short by nature (each waits for one confirmation); bounded anyway. */
export const pending_changes_listed_max = 100;

export function paymentMethodChangeView(row: ChangeRow): PaymentMethodChange {
  return {
    id: row.id,
    payment_method_id: row.payment_method_id,
    payment_method_name: row.payment_method_name,
    changes: row.changes,
    status: row.status,
    proposed_by: { id: row.proposed_by_user_id, email: row.proposer_email },
    proposed_at: row.proposed_at.toISOString(),
    decided_by:
      row.decided_by_user_id === null
        ? null
        : { id: row.decided_by_user_id, email: row.decider_email ?? "" },
    decided_at: row.decided_at?.toISOString() ?? null,
  };
}

async function findChange(queryable: Queryable, id: number): Promise<ChangeRow | null> {
  const result = await queryable.query<ChangeRow>(`${selectChanges} WHERE c.id = $1`, [id]);
  return result.rows[0] ?? null;
}

/** The changes waiting for a second admin, oldest first. */
export async function pendingPaymentMethodChanges(queryable: Queryable): Promise<ChangeRow[]> {
  const result = await queryable.query<ChangeRow>(
    `${selectChanges} WHERE c.status = 'pending' ORDER BY c.proposed_at, c.id LIMIT $1`,
    [pending_changes_listed_max],
  );
  return result.rows;
}

/** PUT /admin/payment-methods/{id}: stores the proposal; the method itself is unchanged. */
export async function proposePaymentMethodChange(
  transaction: Queryable,
  actor: AuditActor & { userId: number },
  methodId: string,
  changes: UpdatePaymentMethodRequest,
  at: Date,
): Promise<ChangeRow> {
  if (!(await findPaymentMethod(transaction, methodId))) throw notFound();
  // Only the fields sent: JSON drops the undefined ones, so a confirm changes nothing else.
  const inserted = await transaction.query<{ id: number }>(
    `INSERT INTO payment_method_changes (payment_method_id, changes, proposed_by_user_id, proposed_at)
     VALUES ($1, $2::jsonb, $3, $4) RETURNING id`,
    [methodId, JSON.stringify(changes), actor.userId, at],
  );
  const change = (await findChange(transaction, inserted.rows[0]!.id))!;
  await recordAudit(transaction, {
    actor,
    action: "payment_method.change_proposed",
    targetType: "payment_method",
    targetId: methodId,
    before: null,
    after: { change_id: change.id, changes: change.changes },
    at,
  });
  return change;
}

async function lockPendingChange(transaction: Queryable, id: number) {
  const locked = await transaction.query<{
    id: number;
    status: string;
    proposed_by_user_id: number;
  }>(
    "SELECT id, status, proposed_by_user_id FROM payment_method_changes WHERE id = $1 FOR UPDATE",
    [id],
  );
  const row = locked.rows[0];
  if (!row) throw notFound();
  if (row.status !== "pending") {
    throw new AppError(
      "PAYMENT_METHOD_CHANGE_NOT_PENDING",
      adminMessages.paymentMethodChangeNotPending,
    );
  }
  return row;
}

/** A second admin confirms: the stored change is applied to the method, once. */
export async function confirmPaymentMethodChange(
  transaction: Queryable,
  actor: AuditActor & { userId: number },
  changeId: number,
  at: Date,
): Promise<{ change: ChangeRow; method: ReturnType<typeof adminPaymentMethodView> }> {
  const locked = await lockPendingChange(transaction, changeId);
  if (locked.proposed_by_user_id === actor.userId) {
    throw new AppError("SECOND_APPROVER_REQUIRED", adminMessages.ownChangeConfirm);
  }
  const stored = (await findChange(transaction, changeId))!;
  // Stored from a body this schema accepted; parsing again restores its types (and would
  // refuse a row edited by hand rather than apply it).
  const changes = updatePaymentMethodSchema.parse(stored.changes);
  const changed = await updatePaymentMethod(transaction, stored.payment_method_id, changes, at);
  if (!changed) throw notFound();
  const decided = await transaction.query(
    `UPDATE payment_method_changes SET status = 'confirmed', decided_by_user_id = $2, decided_at = $3
     WHERE id = $1 AND status = 'pending'`,
    [changeId, actor.userId, at],
  );
  if (decided.rowCount !== 1)
    throw new Error(`payment method change ${changeId} moved under its lock`);
  const after = adminPaymentMethodView(changed.after);
  await recordAudit(transaction, {
    actor,
    action: "payment_method.updated",
    targetType: "payment_method",
    targetId: stored.payment_method_id,
    before: { ...adminPaymentMethodView(changed.before), change_id: changeId },
    after: {
      ...after,
      change_id: changeId,
      proposed_by: stored.proposer_email,
    },
    at,
  });
  return { change: (await findChange(transaction, changeId))!, method: after };
}

/** Any admin (the proposer too) discards a pending change; the method is untouched. */
export async function discardPaymentMethodChange(
  transaction: Queryable,
  actor: AuditActor & { userId: number },
  changeId: number,
  at: Date,
): Promise<ChangeRow> {
  await lockPendingChange(transaction, changeId);
  await transaction.query(
    `UPDATE payment_method_changes SET status = 'discarded', decided_by_user_id = $2, decided_at = $3
     WHERE id = $1 AND status = 'pending'`,
    [changeId, actor.userId, at],
  );
  const change = (await findChange(transaction, changeId))!;
  await recordAudit(transaction, {
    actor,
    action: "payment_method.change_discarded",
    targetType: "payment_method",
    targetId: change.payment_method_id,
    before: { change_id: changeId, changes: change.changes },
    after: null,
    at,
  });
  return change;
}

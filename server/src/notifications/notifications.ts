import type { Queryable } from "../db/database.ts";

/**
 * Notifications for a trader (SPEC §3 "Notification": id, title, message, created_at,
 * is_read). Every funding outcome stores one, in the transaction of the outcome itself, so a
 * trader is told exactly when the thing happened and never about something rolled back.
 * The page that lists them (and the socket that pushes them) arrive later.
 */
export type NotificationKind =
  | "deposit_confirmed"
  | "deposit_rejected"
  | "withdrawal_requested"
  | "withdrawal_paid"
  | "withdrawal_rejected"
  | "withdrawal_cancelled"
  | "verification_approved"
  | "verification_rejected";

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  title: string;
  message: string;
  /** What it is about, e.g. `deposit:12`. */
  reference: string;
  at: Date;
}

export interface NotificationRow {
  id: number;
  user_id: number;
  kind: NotificationKind;
  title: string;
  message: string;
  reference: string | null;
  created_at: Date;
  read_at: Date | null;
}

export async function storeNotification(
  transaction: Queryable,
  notification: NewNotification,
): Promise<number> {
  const inserted = await transaction.query<{ id: number }>(
    `INSERT INTO notifications (user_id, kind, title, message, reference, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      notification.userId,
      notification.kind,
      notification.title,
      notification.message,
      notification.reference,
      notification.at,
    ],
  );
  return inserted.rows[0]!.id;
}

/** The trader's newest notifications first (at most `limit`). */
export async function recentNotifications(
  queryable: Queryable,
  userId: number,
  limit = 50,
): Promise<NotificationRow[]> {
  const result = await queryable.query<NotificationRow>(
    `SELECT id, user_id, kind, title, message, reference, created_at, read_at FROM notifications
     WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
  return result.rows;
}

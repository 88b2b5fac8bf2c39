import type { NotificationKind, NotificationView } from "@tp/domain/engagement";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";

export type { NotificationKind } from "@tp/domain/engagement";

/**
 * Notifications for a trader (SPEC §3 "Notification": id, title, message, created_at,
 * is_read). Every funding outcome stores one, in the transaction of the outcome itself, so a
 * trader is told exactly when the thing happened and never about something rolled back; so
 * does a staff broadcast. Each stored notification also queues its delivery (the stream and
 * Web Push) in the same transaction: see notification-delivery.ts.
 */
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
  const id = inserted.rows[0]!.id;
  await transaction.query(
    "INSERT INTO notification_deliveries (notification_id, created_at) VALUES ($1, $2)",
    [id, notification.at],
  );
  return id;
}

/**
 * One notification to many traders (a staff broadcast) in two statements, whatever their
 * number: the notifications and their delivery rows. Returns how many were stored.
 */
export async function storeNotifications(
  transaction: Queryable,
  userIds: number[],
  notification: Omit<NewNotification, "userId">,
): Promise<number> {
  if (userIds.length === 0) return 0;
  const inserted = await transaction.query<{ id: number }>(
    `INSERT INTO notifications (user_id, kind, title, message, reference, created_at)
     SELECT recipient, $2, $3, $4, $5, $6 FROM unnest($1::bigint[]) AS recipient
     RETURNING id`,
    [
      userIds,
      notification.kind,
      notification.title,
      notification.message,
      notification.reference,
      notification.at,
    ],
  );
  await transaction.query(
    `INSERT INTO notification_deliveries (notification_id, created_at)
     SELECT id, $2 FROM unnest($1::bigint[]) AS id`,
    [inserted.rows.map((row) => row.id), notification.at],
  );
  return inserted.rows.length;
}

export function notificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    message: row.message,
    created_at: row.created_at.toISOString(),
    is_read: row.read_at !== null,
  };
}

const columns = "id, user_id, kind, title, message, reference, created_at, read_at";

/** One page of the trader's notifications, newest first, with the total. */
export async function notificationPage(
  queryable: Queryable,
  userId: number,
  page: number,
  limit: number,
): Promise<{ rows: NotificationRow[]; total: number }> {
  return countAndPage<NotificationRow>(queryable, {
    countSql: "SELECT COUNT(*)::bigint AS total FROM notifications WHERE user_id = $1",
    rowsSql: `SELECT ${columns} FROM notifications WHERE user_id = $1
     ORDER BY created_at DESC, id DESC`,
    params: [userId],
    page,
    limit,
  });
}

export async function unreadCount(queryable: Queryable, userId: number): Promise<number> {
  const result = await queryable.query<{ unread: number }>(
    "SELECT COUNT(*)::bigint AS unread FROM notifications WHERE user_id = $1 AND read_at IS NULL",
    [userId],
  );
  return result.rows[0]!.unread;
}

/** Unread counts of several traders at once (absent ones have none unread). */
export async function unreadCounts(
  queryable: Queryable,
  userIds: number[],
): Promise<Map<number, number>> {
  const result = await queryable.query<{ user_id: number; unread: number }>(
    `SELECT user_id, COUNT(*)::bigint AS unread FROM notifications
     WHERE user_id = ANY($1::bigint[]) AND read_at IS NULL GROUP BY user_id`,
    [userIds],
  );
  return new Map(result.rows.map((row) => [row.user_id, row.unread]));
}

export async function findNotifications(
  queryable: Queryable,
  ids: number[],
): Promise<NotificationRow[]> {
  const result = await queryable.query<NotificationRow>(
    `SELECT ${columns} FROM notifications WHERE id = ANY($1::bigint[]) ORDER BY id`,
    [ids],
  );
  return result.rows;
}

/**
 * Marks the trader's own notification read (the first read time is kept); `changed` says
 * whether it was unread. Null when there is no such notification of theirs: another
 * trader's id is indistinguishable from a missing one.
 */
export async function markNotificationRead(
  queryable: Queryable,
  userId: number,
  notificationId: number,
  at: Date,
): Promise<{ row: NotificationRow; changed: boolean } | null> {
  const updated = await queryable.query<NotificationRow>(
    `UPDATE notifications SET read_at = $3
     WHERE id = $1 AND user_id = $2 AND read_at IS NULL RETURNING ${columns}`,
    [notificationId, userId, at],
  );
  if (updated.rows[0]) return { row: updated.rows[0], changed: true };
  const existing = await queryable.query<NotificationRow>(
    `SELECT ${columns} FROM notifications WHERE id = $1 AND user_id = $2`,
    [notificationId, userId],
  );
  return existing.rows[0] ? { row: existing.rows[0], changed: false } : null;
}

/** The trader's newest notifications first (at most `limit`). */
export async function recentNotifications(
  queryable: Queryable,
  userId: number,
  limit = 50,
): Promise<NotificationRow[]> {
  const result = await queryable.query<NotificationRow>(
    `SELECT ${columns} FROM notifications
     WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
  return result.rows;
}

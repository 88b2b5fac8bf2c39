import type { Queryable } from "../db/database.ts";

/** The ids of a trader's notifications: their pushes are erased first (push module). */
export async function notificationIdsOf(queryable: Queryable, userId: number): Promise<number[]> {
  const result = await queryable.query<{ id: number }>(
    "SELECT id FROM notifications WHERE user_id = $1",
    [userId],
  );
  return result.rows.map((row) => Number(row.id));
}

/**
 * A closed account's notifications (issue 14 item 7): their texts name amounts, assets and
 * references the trader saw; the records kept for AML are the funding and trade rows.
 */
export async function eraseNotificationsOf(transaction: Queryable, userId: number): Promise<void> {
  await transaction.query(
    `DELETE FROM notification_deliveries
     WHERE notification_id IN (SELECT id FROM notifications WHERE user_id = $1)`,
    [userId],
  );
  await transaction.query("DELETE FROM notifications WHERE user_id = $1", [userId]);
}

import type { Queryable } from "../db/database.ts";

/**
 * A closed account's browsers (issue 14 item 7): its subscriptions go (and their pushes by
 * cascade), and so do pushes of its notifications still queued on a browser someone else
 * has since saved, so its notifications can be erased next.
 */
export async function erasePushData(
  transaction: Queryable,
  userId: number,
  notificationIds: number[],
): Promise<void> {
  await transaction.query("DELETE FROM push_deliveries WHERE notification_id = ANY($1::bigint[])", [
    notificationIds,
  ]);
  await transaction.query("DELETE FROM push_subscriptions WHERE user_id = $1", [userId]);
}

import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import { queuePushes } from "../push/push-subscriptions.ts";
import { type PollingWorker, startPollingWorker } from "../workers/polling-worker.ts";
import { findNotifications, notificationView, unreadCounts } from "./notifications.ts";

/** Notifications announced per batch, and how often a pass looks without being kicked. */
const delivery_batch_max = 100;
const poll_interval_ms = 1_000;
/** A pass that fails (the database) is retried after at most this long: traders wait live. */
const pass_failure_backoff_ms_max = 10_000;

/**
 * Notifications stored but not yet announced, for the metrics. A pass deletes the rows it
 * announced, so the table holds only the backlog.
 */
export async function pendingNotificationDeliveries(database: Database): Promise<number> {
  const result = await database.query<{ pending: number }>(
    "SELECT COUNT(*)::bigint AS pending FROM notification_deliveries",
  );
  return result.rows[0]?.pending ?? 0;
}

/** Kick after a commit that stored notifications. */
export type NotificationDelivery = PollingWorker;

/**
 * Announces committed notifications (PRODUCT.md D8, D10). Every stored notification left a
 * row in notification_deliveries in its own transaction (notifications.ts). A pass claims
 * such rows (FOR UPDATE SKIP LOCKED, so two processes never announce one twice), queues a
 * Web Push for each of the owner's subscriptions and deletes the rows in one transaction;
 * after that commits it publishes each notification, with the owner's unread count, on the
 * event bus for the owner's sockets, and wakes the push sender.
 *
 * Callers that store notifications kick it after their commit (the staff broadcast, through
 * `context.notificationDelivery`); the rest (funding outcomes, whose code does not know
 * about delivery) are found by the poll within a second.
 */
export function startNotificationDelivery(options: {
  database: Database;
  clock: Clock;
  bus: EventBus;
  log: FastifyBaseLogger;
  /** Wakes the push sender after pushes were queued. */
  onPushesQueued: () => void;
}): NotificationDelivery {
  const { database, clock, bus, log, onPushesQueued } = options;

  async function deliverBatch(): Promise<number> {
    // A cheap look first: most passes find nothing and need no transaction.
    const any = await database.query("SELECT 1 FROM notification_deliveries LIMIT 1");
    if (any.rows.length === 0) return 0;
    const { notifications, pushes } = await database.transaction(async (transaction) => {
      const claimed = await transaction.query<{ notification_id: number }>(
        `DELETE FROM notification_deliveries WHERE notification_id IN (
           SELECT notification_id FROM notification_deliveries
           ORDER BY notification_id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING notification_id`,
        [delivery_batch_max],
      );
      const rows = await findNotifications(
        transaction,
        claimed.rows.map((row) => row.notification_id),
      );
      const queued = await queuePushes(transaction, rows, clock.now());
      return { notifications: rows, pushes: queued };
    });
    if (notifications.length === 0) return 0;
    // Published after commit, never before. The counts are read now, so a socket sees
    // the count as it stands when the message is sent.
    const counts = await unreadCounts(database, [
      ...new Set(notifications.map((row) => row.user_id)),
    ]);
    for (const row of notifications) {
      bus.publish({
        type: "notification",
        userId: row.user_id,
        notification: notificationView(row),
        unread_count: counts.get(row.user_id) ?? 0,
      });
    }
    if (pushes > 0) onPushesQueued();
    return notifications.length;
  }

  return startPollingWorker({
    runBatch: deliverBatch,
    batch_max: delivery_batch_max,
    poll_interval_ms,
    failure_backoff_ms_max: pass_failure_backoff_ms_max,
    clock,
    log,
    failure_message: "notification delivery pass failed",
  });
}

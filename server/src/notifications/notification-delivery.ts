import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import { queuePushes } from "../push/push-subscriptions.ts";
import { findNotifications, notificationView, unreadCounts } from "./notifications.ts";

/** Notifications announced per pass, and how often a pass looks without being kicked. */
const delivery_batch_max = 100;
const poll_interval_ms = 1_000;

export interface NotificationDelivery {
  /** Look for new notifications now (after a commit that stored some). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Announces committed notifications (PRODUCT.md D8, D10). Every stored notification left a
 * row in notification_deliveries in its own transaction (notifications.ts). A pass claims
 * such rows (FOR UPDATE SKIP LOCKED, so two processes never announce one twice), queues a
 * Web Push for each of the owner's subscriptions and deletes the rows in one transaction;
 * after that commits it publishes each notification, with the owner's unread count, on the
 * event bus for the owner's sockets, and wakes the push sender.
 *
 * Callers that store notifications kick it after their commit; the rest (funding outcomes,
 * whose code does not know about delivery) are found by the poll within a second.
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
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function deliverPending(): Promise<void> {
    for (;;) {
      if (stopped) return;
      // A cheap look first: most passes find nothing and need no transaction.
      const any = await database.query("SELECT 1 FROM notification_deliveries LIMIT 1");
      if (any.rows.length === 0) return;
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
      if (notifications.length === 0) return;
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
      if (notifications.length < delivery_batch_max) return;
    }
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverPending()
      .catch((error) => log.error({ err: error }, "notification delivery pass failed"))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  }

  const timer = setInterval(run, poll_interval_ms);
  timer.unref();
  run();

  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The running delivery of each application, for the modules that store notifications and
 * want them announced at once (the staff broadcast). Started by the notification routes.
 */
const deliveries = new WeakMap<object, NotificationDelivery>();

export function registerNotificationDelivery(owner: object, delivery: NotificationDelivery) {
  deliveries.set(owner, delivery);
}

/** Announce now what was just committed (a no-op before the delivery has started). */
export function kickNotificationDelivery(owner: object) {
  deliveries.get(owner)?.kick();
}

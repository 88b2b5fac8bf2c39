import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { EventBus } from "./events/event-bus.ts";
import type { Feed } from "./feeds/tick.ts";
import { type OutboxDelivery, startOutboxDelivery } from "./mail/outbox.ts";
import {
  type NotificationDelivery,
  startNotificationDelivery,
} from "./notifications/notification-delivery.ts";
import { findNotifications } from "./notifications/notifications.ts";
import { type MarketData, startMarketData } from "./prices/market-data.ts";
import { type PushSender, startPushSender } from "./push/push-sender.ts";
import type { VapidKeys } from "./push/vapid-keys.ts";
import { type Settlement, startSettlement } from "./trading/settlement.ts";

/** Every background worker of one application (one process). */
export interface Workers {
  outbox: OutboxDelivery;
  marketData: MarketData;
  settlement: Settlement;
  notificationDelivery: NotificationDelivery;
  pushSender: PushSender;
  /** Stops them all, each after its pass under way, in the order below. */
  stop(): Promise<void>;
}

/**
 * Starts the application's background workers: the one place they are started and stopped.
 * Outbox, push and notification delivery are polling workers (polling-worker.ts).
 * Settlement keeps its own loop: it sleeps until the next trade's expiry rather than for a
 * fixed interval, a wake during a pass is folded into the schedule taken after it (not a
 * second pass), a failed pass must not back off (trades keep expiring), and its passes are
 * shared with callers of `settleDue()` — a primitive covering all that would be a scheduler
 * with modes, on the hot path.
 */
export function startWorkers(options: {
  config: Config;
  database: Database;
  clock: Clock;
  bus: EventBus;
  feeds: Feed[];
  vapidKeys: VapidKeys;
  log: FastifyBaseLogger;
}): Workers {
  const { config, database, clock, bus, feeds, vapidKeys, log } = options;
  const outbox = startOutboxDelivery({
    database,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    clock,
    log: log.child({ module: "outbox" }),
  });
  const marketData = startMarketData({
    database,
    bus,
    clock,
    log: log.child({ module: "prices" }),
    feeds,
  });
  const settlement = startSettlement({
    database,
    clock,
    store: marketData.store,
    bus,
    log: log.child({ module: "settlement" }),
  });
  const notificationLog = log.child({ module: "notifications" });
  const pushSender = startPushSender({
    database,
    clock,
    keys: vapidKeys,
    log: notificationLog.child({ part: "push" }),
    findNotifications,
  });
  const notificationDelivery = startNotificationDelivery({
    database,
    clock,
    bus,
    log: notificationLog,
    onPushesQueued: pushSender.kick,
  });

  return {
    outbox,
    marketData,
    settlement,
    notificationDelivery,
    pushSender,
    async stop() {
      // Announcements first (they wake the push sender), then the senders; settlement
      // before market data, whose price store it reads. The event bus is the caller's.
      await notificationDelivery.stop();
      await pushSender.stop();
      await outbox.stop();
      await settlement.stop();
      await marketData.stop();
    },
  };
}

import { findAsset } from "@tp/domain/catalogue";
import { marketSessionAt } from "@tp/domain/market-hours";
import type { FastifyBaseLogger } from "fastify";
import { closure_batch_max, runClosurePass } from "./account-closure/closure.ts";
import { startAccountEmailWorker } from "./auth/account-email-requests.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import { ensureTodaysSnapshot } from "./disclosure/losing-accounts.ts";
import type { EventBus } from "./events/event-bus.ts";
import type { Feed } from "./feeds/tick.ts";
import { deposit_expiry_batch_max, expireUnpaidDeposits } from "./funding/deposits.ts";
import {
  expireUnconfirmedWithdrawals,
  withdrawal_expiry_batch_max,
} from "./funding/withdrawals.ts";
import { idempotency_prune_batch_max, pruneIdempotencyKeys } from "./idempotency/idempotency.ts";
import { writeCheckpoint } from "./journal/checkpoints.ts";
import { type OutboxDelivery, startOutboxDelivery } from "./mail/outbox.ts";
import {
  type NotificationDelivery,
  startNotificationDelivery,
} from "./notifications/notification-delivery.ts";
import { findNotifications } from "./notifications/notifications.ts";
import { type MarketData, startMarketData } from "./prices/market-data.ts";
import { calendarApplies, entryStaleAfterMs } from "./prices/market-status.ts";
import { type PushSender, startPushSender } from "./push/push-sender.ts";
import type { VapidKeys } from "./push/vapid-keys.ts";
import type { ReceiptSigningKey } from "./receipts/receipt-signing-key.ts";
import { type Settlement, startSettlement } from "./trading/settlement.ts";
import { uploadsDirectory } from "./uploads/upload-store.ts";
import { type PollingWorker, startPollingWorker } from "./workers/polling-worker.ts";

/** Every background worker of one application (one process). */
export interface Workers {
  outbox: OutboxDelivery;
  /** Forgot-password and resend requests: lookup, token and e-mail, off the request path. */
  accountEmails: PollingWorker;
  marketData: MarketData;
  settlement: Settlement;
  notificationDelivery: NotificationDelivery;
  pushSender: PushSender;
  /** Cancels withdrawals whose e-mailed confirmation link expired, releasing the hold. */
  withdrawalExpiry: PollingWorker;
  /** Expires deposits left unpaid past DEPOSIT_PAYMENT_WINDOW_HOURS, telling the trader. */
  depositExpiry: PollingWorker;
  /** Computes the day's share of losing accounts at start and after each UTC midnight. */
  losingAccounts: PollingWorker;
  /**
   * Closes requested accounts once nothing is in flight, and erases the identity kept for
   * record keeping of closed ones after RECORD_RETENTION_YEARS (issue 14 item 7).
   */
  accountClosure: PollingWorker;
  /** Signs a checkpoint of the journal's chains each minute they moved (issue 15 item 3). */
  journalCheckpoints: PollingWorker;
  /** Forgets Idempotency-Keys a day after their first use (`idempotency_key_retention_ms`). */
  idempotencyRetention: PollingWorker;
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
  /** Signs receipts and the journal's checkpoints. */
  receiptSigningKey: ReceiptSigningKey;
  /** The company name e-mails are signed with (site content). */
  siteName: string;
  log: FastifyBaseLogger;
  /** Told each settled batch's lags (the metrics' settlement_lag_seconds). */
  onSettled?(lagsMs: readonly number[]): void;
}): Workers {
  const { config, database, clock, bus, feeds, vapidKeys, receiptSigningKey, siteName, log } =
    options;
  const outbox = startOutboxDelivery({
    database,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    clock,
    log: log.child({ module: "outbox" }),
  });
  const accountEmails = startAccountEmailWorker({
    database,
    clock,
    mail: { publicUrl: config.PUBLIC_URL, siteName },
    log: log.child({ module: "auth" }),
    onEmailsQueued: outbox.kick,
  });
  const marketData = startMarketData({
    database,
    bus,
    clock,
    log: log.child({ module: "prices" }),
    feeds,
    staleAfterMs: (symbol) => entryStaleAfterMs(config, findAsset(symbol)!),
    inHours: (symbol, atMs) => {
      const asset = findAsset(symbol)!;
      return !calendarApplies(config, asset) || marketSessionAt(symbol, atMs).open;
    },
  });
  const settlement = startSettlement({
    database,
    clock,
    store: marketData.store,
    bus,
    log: log.child({ module: "settlement" }),
    staleAfterMs: (symbol) => entryStaleAfterMs(config, findAsset(symbol)!),
    ...(options.onSettled ? { onSettled: options.onSettled } : {}),
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

  const withdrawalExpiry = startPollingWorker({
    runBatch: (now) => expireUnconfirmedWithdrawals({ database, bus }, now),
    batch_max: withdrawal_expiry_batch_max,
    // Links live for hours: a minute late releasing a hold is of no consequence.
    poll_interval_ms: 60_000,
    failure_backoff_ms_max: 10 * 60_000,
    clock,
    log: log.child({ module: "funding", part: "withdrawal-expiry" }),
    failure_message: "withdrawal expiry pass failed",
  });

  const depositExpiry = startPollingWorker({
    runBatch: async (now) => {
      const expired = await expireUnpaidDeposits({ database }, now);
      // Their notifications are stored: announce them now rather than at the next poll.
      if (expired > 0) notificationDelivery.kick();
      return expired;
    },
    batch_max: deposit_expiry_batch_max,
    // Windows last hours: a minute late expiring an unpaid deposit is of no consequence.
    poll_interval_ms: 60_000,
    failure_backoff_ms_max: 10 * 60_000,
    clock,
    log: log.child({ module: "funding", part: "deposit-expiry" }),
    failure_message: "deposit expiry pass failed",
  });

  const losingAccounts = startPollingWorker({
    // One snapshot a day: a pass stores it when the day has none, else does nothing. It
    // returns 0 so a pass is one call (batch_max 1 would otherwise ask once more).
    runBatch: async (now) => {
      await ensureTodaysSnapshot(database, now, config.LOSING_ACCOUNTS_MIN_ACCOUNTS);
      return 0;
    },
    batch_max: 1,
    // The day's figure is due after midnight UTC: ten minutes late is of no consequence.
    poll_interval_ms: 10 * 60_000,
    failure_backoff_ms_max: 60 * 60_000,
    clock,
    log: log.child({ module: "disclosure", part: "losing-accounts" }),
    failure_message: "losing accounts computation failed",
  });

  const accountClosure = startPollingWorker({
    runBatch: (now) =>
      runClosurePass(
        {
          database,
          bus,
          retentionYears: config.RECORD_RETENTION_YEARS,
          siteName,
          uploadsDirectory: uploadsDirectory(config.DATA_DIR),
          onEmailsQueued: outbox.kick,
        },
        now,
      ),
    batch_max: closure_batch_max,
    // A closure waits for trades and payouts that take minutes to days: a minute late
    // closing it, or erasing after years, is of no consequence.
    poll_interval_ms: 60_000,
    failure_backoff_ms_max: 10 * 60_000,
    clock,
    log: log.child({ module: "account-closure" }),
    failure_message: "account closure pass failed",
  });

  const journalCheckpoints = startPollingWorker({
    // One checkpoint a pass, when a chain moved; returns 0 so a pass is one call.
    runBatch: async (now) => {
      await writeCheckpoint(database, receiptSigningKey, now);
      return 0;
    },
    batch_max: 1,
    // Checkpoints are promised every minute with activity (docs/architecture.md).
    poll_interval_ms: 60_000,
    failure_backoff_ms_max: 10 * 60_000,
    clock,
    log: log.child({ module: "journal" }),
    failure_message: "journal checkpoint failed",
  });

  const idempotencyRetention = startPollingWorker({
    runBatch: (now) => pruneIdempotencyKeys(database, now, idempotency_prune_batch_max),
    batch_max: idempotency_prune_batch_max,
    // Keys are kept a day: ten minutes more is of no consequence, and a pass deletes what
    // ten minutes of trading added in a few statements.
    poll_interval_ms: 10 * 60_000,
    failure_backoff_ms_max: 60 * 60_000,
    clock,
    log: log.child({ module: "idempotency" }),
    failure_message: "idempotency key pruning failed",
  });

  return {
    outbox,
    accountEmails,
    marketData,
    settlement,
    notificationDelivery,
    pushSender,
    withdrawalExpiry,
    depositExpiry,
    losingAccounts,
    accountClosure,
    journalCheckpoints,
    idempotencyRetention,
    async stop() {
      await idempotencyRetention.stop();
      await journalCheckpoints.stop();
      await accountClosure.stop();
      await losingAccounts.stop();
      await withdrawalExpiry.stop();
      await depositExpiry.stop();
      // Announcements first (they wake the push sender), then the senders; settlement
      // before market data, whose price store it reads. The event bus is the caller's.
      await notificationDelivery.stop();
      await pushSender.stop();
      await accountEmails.stop();
      await outbox.stop();
      await settlement.stop();
      await marketData.stop();
    },
  };
}

import { notificationsPagePath, type PushPayload } from "@tp/domain/engagement";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import { type PollingWorker, startPollingWorker } from "../workers/polling-worker.ts";
import { type AttemptedPush, settlePush } from "./settle-push.ts";
import type { VapidKeys } from "./vapid-keys.ts";
import { type PushTarget, sendWebPush } from "./web-push-request.ts";

/** Limits of push delivery: batches and polling (attempts and requests have their own files). */
const push_batch_max = 20;
const poll_interval_ms = 2_000;
/** A pass that fails (the database, not one push) is retried after at most this long. */
const pass_failure_backoff_ms_max = 60_000;
/** A claimed push is left to its claimer this long before another process may retry it. */
const lease_ms = 2 * 60_000;
/** Push services take at least 4 KB of payload: the message is cut to stay well inside. */
const message_bytes_max = 3000;

/**
 * Push delivery's depth, for the metrics: pushes still to try, and pushes abandoned after
 * their attempts ran out. Delivered pushes are deleted, so the table holds only these two.
 */
export async function pushDeliveryDepth(
  database: Database,
): Promise<{ pending: number; abandoned: number }> {
  const result = await database.query<{ pending: number; abandoned: number }>(
    `SELECT COUNT(*) FILTER (WHERE abandoned_at IS NULL)::bigint AS pending,
            COUNT(*) FILTER (WHERE abandoned_at IS NOT NULL)::bigint AS abandoned
     FROM push_deliveries`,
  );
  return result.rows[0] ?? { pending: 0, abandoned: 0 };
}

/** Kick after a commit that queued pushes. */
export type PushSender = PollingWorker;

interface ClaimedPush extends AttemptedPush, PushTarget {
  notification_id: number;
  expires_at: Date | null;
}

/** What a push says: the notification it announces (the notifications module owns them). */
export interface PushedNotification {
  id: number;
  title: string;
  message: string;
  created_at: Date;
}

function truncateUtf8(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = text.slice(0, bytes);
  while (Buffer.byteLength(cut) > bytes - 1) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function payloadOf(notification: PushedNotification): PushPayload {
  return {
    id: notification.id,
    title: notification.title,
    message: truncateUtf8(notification.message, message_bytes_max),
    created_at: notification.created_at.toISOString(),
    url: notificationsPagePath,
  };
}

/**
 * Leases the pushes due at `now`: each claimed row counts an attempt and is hidden from
 * other processes until the lease lapses (FOR UPDATE SKIP LOCKED: never claimed twice at once).
 */
async function claimDuePushes(database: Database, now: Date): Promise<ClaimedPush[]> {
  const claimed = await database.query<ClaimedPush>(
    `WITH due AS (
       UPDATE push_deliveries SET attempts = attempts + 1, next_attempt_at = $2
       WHERE id IN (
         SELECT id FROM push_deliveries
         WHERE abandoned_at IS NULL AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, notification_id, attempts, subscription_id)
     SELECT due.*, s.endpoint, s.p256dh, s.auth, s.expires_at
     FROM due JOIN push_subscriptions s ON s.id = due.subscription_id
     ORDER BY due.id`,
    [now, new Date(now.getTime() + lease_ms), push_batch_max],
  );
  return claimed.rows;
}

/**
 * Delivers queued pushes (push_deliveries) with the standard Web Push protocol
 * (web-push-request.ts). Rows are leased with FOR UPDATE SKIP LOCKED, so several processes
 * never send one twice at once; a crash mid-send lets the lease lapse and the push is tried
 * again (at least once). Failures are logged and retried with backoff (settle-push.ts); they
 * never reach the request that caused them.
 */
export function startPushSender(options: {
  database: Database;
  clock: Clock;
  keys: VapidKeys;
  log: FastifyBaseLogger;
  /** The notifications of these ids (given by the caller: push sits below notifications). */
  findNotifications(database: Database, ids: number[]): Promise<PushedNotification[]>;
}): PushSender {
  const { database, clock, keys, log, findNotifications } = options;

  async function deliverBatch(now: Date): Promise<number> {
    const claimed = await claimDuePushes(database, now);
    if (claimed.length === 0) return 0;
    const notifications = new Map(
      (
        await findNotifications(database, [...new Set(claimed.map((row) => row.notification_id))])
      ).map((row) => [row.id, row]),
    );
    await Promise.all(
      claimed.map(async (push) => {
        try {
          if (push.expires_at && push.expires_at.getTime() <= now.getTime()) {
            await settlePush({ database, clock, log }, push, { kind: "gone", status: 0 });
            return;
          }
          const notification = notifications.get(push.notification_id)!;
          const outcome = await sendWebPush(push, payloadOf(notification), keys);
          await settlePush({ database, clock, log }, push, outcome);
        } catch (error) {
          log.error({ err: error, pushId: push.id }, "push delivery failed");
        }
      }),
    );
    return claimed.length;
  }

  return startPollingWorker({
    runBatch: deliverBatch,
    batch_max: push_batch_max,
    poll_interval_ms,
    failure_backoff_ms_max: pass_failure_backoff_ms_max,
    clock,
    log,
    failure_message: "push delivery pass failed",
  });
}

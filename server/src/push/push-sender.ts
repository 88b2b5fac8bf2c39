import { notificationsPagePath, type PushPayload } from "@tp/domain/engagement";
import type { FastifyBaseLogger } from "fastify";
import webPush from "web-push";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import { type PollingWorker, startPollingWorker } from "../workers/polling-worker.ts";
import type { VapidKeys } from "./vapid-keys.ts";

/** Limits of push delivery: batches, attempts with backoff, and each request's time. */
const push_batch_max = 20;
export const push_attempts_max = 6;
const retry_base_ms = 10_000;
const retry_delay_ms_max = 60 * 60_000;
const poll_interval_ms = 2_000;
/** A pass that fails (the database, not one push) is retried after at most this long. */
const pass_failure_backoff_ms_max = 60_000;
const request_timeout_ms = 10_000;
/** A claimed push is left to its claimer this long before another process may retry it. */
const lease_ms = 2 * 60_000;
/** How long a push service keeps a message for an offline browser (RFC 8030 TTL). */
export const push_ttl_seconds = 24 * 60 * 60;
/** Push services take at least 4 KB of payload: the message is cut to stay well inside. */
const message_bytes_max = 3000;

/** Kick after a commit that queued pushes. */
export type PushSender = PollingWorker;

interface ClaimedPush {
  id: number;
  notification_id: number;
  attempts: number;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  expires_at: Date | null;
}

type Outcome =
  | { kind: "delivered" }
  /** 404/410: the browser unsubscribed; the subscription is deleted (RFC 8030 §7.3). */
  | { kind: "gone"; status: number }
  /** A refusal that repeating cannot fix (bad request, wrong keys, too large). */
  | { kind: "refused"; detail: string }
  | { kind: "retry"; detail: string; retryAfterMs: number | null };

function truncateUtf8(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = text.slice(0, bytes);
  while (Buffer.byteLength(cut) > bytes - 1) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Delivers queued pushes (push_deliveries) with the standard Web Push protocol: the payload
 * encrypted for the browser (RFC 8291, aes128gcm) and the request signed with our VAPID key
 * (RFC 8292), by the web-push package; the request itself goes out with fetch and a timeout.
 * Rows are leased with FOR UPDATE SKIP LOCKED, so several processes never send one twice
 * at once; a crash mid-send lets the lease lapse and the push is tried again (at least once).
 * Failures are logged and retried with backoff; they never reach the request that caused them.
 */
/** What a push says: the notification it announces (the notifications module owns them). */
export interface PushedNotification {
  id: number;
  title: string;
  message: string;
  created_at: Date;
}

export function startPushSender(options: {
  database: Database;
  clock: Clock;
  keys: VapidKeys;
  log: FastifyBaseLogger;
  /** The notifications of these ids (given by the caller: push sits below notifications). */
  findNotifications(database: Database, ids: number[]): Promise<PushedNotification[]>;
}): PushSender {
  const { database, clock, keys, log, findNotifications } = options;

  async function send(push: ClaimedPush, payload: PushPayload): Promise<Outcome> {
    let details: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      details = webPush.generateRequestDetails(
        { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: {
            subject: keys.subject,
            publicKey: keys.publicKey,
            privateKey: keys.privateKey,
          },
          TTL: push_ttl_seconds,
          contentEncoding: "aes128gcm",
          urgency: "normal",
        },
      );
    } catch (error) {
      return { kind: "refused", detail: `could not encrypt: ${String(error)}` };
    }
    let response: Response;
    try {
      response = await fetch(details.endpoint, {
        method: details.method,
        headers: Object.fromEntries(
          Object.entries(details.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: details.body ? new Uint8Array(details.body) : null,
        redirect: "error",
        signal: AbortSignal.timeout(request_timeout_ms),
      });
    } catch (error) {
      return { kind: "retry", detail: String(error), retryAfterMs: null };
    }
    const text = (await response.text().catch(() => "")).slice(0, 300);
    if (response.ok) return { kind: "delivered" };
    if (response.status === 404 || response.status === 410) {
      return { kind: "gone", status: response.status };
    }
    const detail = `push service answered ${response.status}: ${text}`;
    if (response.status === 429 || response.status >= 500) {
      const retryAfter = Number(response.headers.get("retry-after"));
      return {
        kind: "retry",
        detail,
        retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
      };
    }
    return { kind: "refused", detail };
  }

  async function settle(push: ClaimedPush, outcome: Outcome) {
    const now = clock.now();
    switch (outcome.kind) {
      case "delivered":
        await database.query("DELETE FROM push_deliveries WHERE id = $1", [push.id]);
        await database.query("UPDATE push_subscriptions SET last_success_at = $2 WHERE id = $1", [
          push.subscription_id,
          now,
        ]);
        return;
      case "gone":
        log.info(
          { subscriptionId: push.subscription_id, status: outcome.status },
          "push subscription gone: removed",
        );
        // Its queued pushes go with it (ON DELETE CASCADE).
        await database.query("DELETE FROM push_subscriptions WHERE id = $1", [
          push.subscription_id,
        ]);
        return;
      case "refused":
        log.warn({ pushId: push.id, detail: outcome.detail }, "push refused: not retried");
        await database.query(
          "UPDATE push_deliveries SET abandoned_at = $2, last_error = $3 WHERE id = $1",
          [push.id, now, outcome.detail.slice(0, 500)],
        );
        return;
      case "retry": {
        if (push.attempts >= push_attempts_max) {
          log.warn(
            { pushId: push.id, attempts: push.attempts, detail: outcome.detail },
            "push failed: giving up",
          );
          await database.query(
            "UPDATE push_deliveries SET abandoned_at = $2, last_error = $3 WHERE id = $1",
            [push.id, now, outcome.detail.slice(0, 500)],
          );
          return;
        }
        const backoffMs = Math.min(retry_base_ms * 2 ** (push.attempts - 1), retry_delay_ms_max);
        const delayMs = Math.min(
          Math.max(backoffMs, outcome.retryAfterMs ?? 0),
          retry_delay_ms_max,
        );
        log.warn(
          { pushId: push.id, attempts: push.attempts, detail: outcome.detail },
          "push failed: will retry",
        );
        await database.query(
          "UPDATE push_deliveries SET next_attempt_at = $2, last_error = $3 WHERE id = $1",
          [push.id, new Date(now.getTime() + delayMs), outcome.detail.slice(0, 500)],
        );
      }
    }
  }

  async function deliverBatch(now: Date): Promise<number> {
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
    if (claimed.rows.length === 0) return 0;
    const notifications = new Map(
      (
        await findNotifications(database, [
          ...new Set(claimed.rows.map((row) => row.notification_id)),
        ])
      ).map((row) => [row.id, row]),
    );
    await Promise.all(
      claimed.rows.map(async (push) => {
        try {
          if (push.expires_at && push.expires_at.getTime() <= now.getTime()) {
            await settle(push, { kind: "gone", status: 0 });
            return;
          }
          const notification = notifications.get(push.notification_id)!;
          const outcome = await send(push, {
            id: notification.id,
            title: notification.title,
            message: truncateUtf8(notification.message, message_bytes_max),
            created_at: notification.created_at.toISOString(),
            url: notificationsPagePath,
          });
          await settle(push, outcome);
        } catch (error) {
          log.error({ err: error, pushId: push.id }, "push delivery failed");
        }
      }),
    );
    return claimed.rows.length;
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

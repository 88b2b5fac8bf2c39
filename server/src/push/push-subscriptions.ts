import { isIP } from "node:net";
import { engagementMessages, type PushSubscriptionJson } from "@tp/domain/engagement";
import type { Queryable } from "../db/database.ts";
import { validationError } from "../http/errors.ts";

/**
 * Browsers' push subscriptions (PRODUCT.md D8: the spec's "push token"). The push module owns
 * `push_subscriptions` and `push_deliveries`.
 */

/** A trader keeps at most this many browsers subscribed; saving one more drops the oldest. */
export const subscriptions_per_user_max = 10;

export interface PushSubscriptionRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  expires_at: Date | null;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where the server may send pushes: https:// on a public host name (every browser's push
 * service is one). An address literal or a local name would let a trader make the server
 * post to machines inside its network; loopback http:// is allowed only when configured, for
 * a test push service.
 */
export function checkPushEndpoint(endpoint: string, allowLoopback: boolean): void {
  const invalid = () =>
    validationError({ "token.endpoint": [engagementMessages.pushEndpointInvalid] });
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid();
  }
  if (url.username || url.password) throw invalid();
  if (allowLoopback && loopbackHosts.has(url.hostname) && /^https?:$/.test(url.protocol)) return;
  if (url.protocol !== "https:") throw invalid();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 || !host.includes(".") || /\.(local|localhost|internal)$/i.test(host)) {
    throw invalid();
  }
}

/** The P-256 public key must be an uncompressed point (65 bytes, 0x04 first); auth 16 bytes. */
export function checkPushKeys(keys: PushSubscriptionJson["keys"]): void {
  const p256dh = Buffer.from(keys.p256dh, "base64url");
  const auth = Buffer.from(keys.auth, "base64url");
  if (p256dh.length !== 65 || p256dh[0] !== 0x04 || auth.length !== 16) {
    throw validationError({ "token.keys": [engagementMessages.pushKeysInvalid] });
  }
}

/**
 * Saves (or refreshes) a subscription for the trader. An endpoint saved before by anyone is
 * taken over: the browser now belongs to whoever signed in on it last.
 */
export async function saveSubscription(
  transaction: Queryable,
  userId: number,
  subscription: PushSubscriptionJson,
  at: Date,
): Promise<void> {
  const expiresAt =
    typeof subscription.expirationTime === "number" && subscription.expirationTime > 0
      ? new Date(subscription.expirationTime)
      : null;
  await transaction.query(
    `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth, expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at`,
    [
      userId,
      subscription.endpoint,
      // Stored unpadded, as browsers give them.
      subscription.keys.p256dh.replace(/=+$/, ""),
      subscription.keys.auth.replace(/=+$/, ""),
      expiresAt,
      at,
    ],
  );
  await transaction.query(
    `DELETE FROM push_subscriptions WHERE id IN (
       SELECT id FROM push_subscriptions WHERE user_id = $1
       ORDER BY updated_at DESC, id DESC OFFSET $2)`,
    [userId, subscriptions_per_user_max],
  );
}

export async function subscriptionsOf(
  queryable: Queryable,
  userId: number,
): Promise<PushSubscriptionRow[]> {
  const result = await queryable.query<PushSubscriptionRow>(
    `SELECT id, user_id, endpoint, p256dh, auth, expires_at FROM push_subscriptions
     WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  return result.rows;
}

/**
 * Queues one push per subscription of each notification's owner, in the caller's
 * transaction (the notification delivery worker's). Returns how many were queued.
 */
export async function queuePushes(
  transaction: Queryable,
  notifications: Array<{ id: number; user_id: number }>,
  at: Date,
): Promise<number> {
  if (notifications.length === 0) return 0;
  const result = await transaction.query(
    `INSERT INTO push_deliveries (subscription_id, notification_id, next_attempt_at, created_at)
     SELECT s.id, n.id, $3, $3
     FROM unnest($1::bigint[], $2::bigint[]) AS n (id, user_id)
     JOIN push_subscriptions s ON s.user_id = n.user_id`,
    [notifications.map((row) => row.id), notifications.map((row) => row.user_id), at],
  );
  return result.rowCount;
}

import type { PushPayload } from "@tp/domain/engagement";
import webPush from "web-push";
import type { VapidKeys } from "./vapid-keys.ts";

/** How long one request to a push service may take before it counts as failed (retried). */
const request_timeout_ms = 10_000;
/** How long a push service keeps a message for an offline browser (RFC 8030 TTL). */
export const push_ttl_seconds = 24 * 60 * 60;
/** Of a refusing push service's answer, this much is kept for the log and last_error. */
const answer_chars_max = 300;

/** Where one push goes: the browser's subscription (endpoint and its encryption keys). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What became of one attempt, and so what the sender does with the queued push next. */
export type PushOutcome =
  | { kind: "delivered" }
  /** 404/410: the browser unsubscribed; the subscription is deleted (RFC 8030 §7.3). */
  | { kind: "gone"; status: number }
  /** A refusal that repeating cannot fix (bad request, wrong keys, too large). */
  | { kind: "refused"; detail: string }
  | { kind: "retry"; detail: string; retryAfterMs: number | null };

/**
 * Sends one push with the standard Web Push protocol: the payload encrypted for the browser
 * (RFC 8291, aes128gcm) and the request signed with our VAPID key (RFC 8292), by the
 * web-push package; the request itself goes out with fetch and a timeout. Never throws:
 * every failure is an outcome, so one bad subscription cannot fail the batch it is in.
 */
export async function sendWebPush(
  target: PushTarget,
  payload: PushPayload,
  keys: VapidKeys,
): Promise<PushOutcome> {
  let details: ReturnType<typeof webPush.generateRequestDetails>;
  try {
    details = webPush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
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
  return outcomeOf(response);
}

/** Classifies the push service's answer (RFC 8030 §5–§7). */
async function outcomeOf(response: Response): Promise<PushOutcome> {
  const text = (await response.text().catch(() => "")).slice(0, answer_chars_max);
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

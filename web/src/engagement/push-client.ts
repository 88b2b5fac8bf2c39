/**
 * Web Push in the browser (SPEC §4 "Push", PRODUCT.md D8): the "push token" is the browser's
 * PushSubscription, made with the server's VAPID public key and stored by
 * POST /notifications/save-token. Notification, navigator.serviceWorker and PushManager are
 * read from the page's globals at call time (tests replace them there).
 */

/** SPEC §9: the push token is refreshed after 7 days. */
export const push_token_refresh_ms = 7 * 24 * 60 * 60 * 1_000;
/** SPEC §9: a service worker that is not ready by then is given up (push is skipped). */
export const service_worker_ready_timeout_ms = 10_000;

/** What became of one setup run; the page shows none of it (SPEC §8 "Push"). */
export type PushSetupOutcome =
  /** No Notification, service worker or PushManager in this browser. */
  | "unsupported"
  /** Permission denied now or before, or the prompt dismissed. */
  | "denied"
  /** A subscription saved within the last 7 days, for this trader and this key: nothing sent. */
  | "current"
  /** A new subscription made and saved. */
  | "subscribed"
  /** The old subscription (over 7 days, or another key) replaced by a new one, saved. */
  | "refreshed"
  /** Something failed (no service worker in time, subscribe or save refused): only logged. */
  | "failed";

export interface PushSetupOptions {
  /** The trader signed in: a subscription saved for one trader is saved again for another. */
  userId: number;
  /** The server's VAPID public key (base64url, uncompressed P-256 point). */
  loadPublicKey: () => Promise<string>;
  /** POST /notifications/save-token with the subscription as JSON. */
  saveToken: (token: PushSubscriptionJSON) => Promise<void>;
}

interface SavedToken {
  endpoint: string;
  saved_at_ms: number;
  public_key: string;
}

/** Where the browser remembers what it last sent the server, per trader. */
export function savedTokenKey(userId: number): string {
  return `push_token:${userId}`;
}

function readSaved(userId: number): SavedToken | null {
  try {
    const text = window.localStorage.getItem(savedTokenKey(userId));
    if (text === null) return null;
    const value = JSON.parse(text) as Partial<SavedToken>;
    if (
      typeof value.endpoint !== "string" ||
      typeof value.saved_at_ms !== "number" ||
      typeof value.public_key !== "string"
    ) {
      return null;
    }
    return value as SavedToken;
  } catch {
    return null;
  }
}

function writeSaved(userId: number, saved: SavedToken): void {
  try {
    window.localStorage.setItem(savedTokenKey(userId), JSON.stringify(saved));
  } catch {
    // Not remembered: the next visit saves the same subscription again, which is harmless.
  }
}

/** True when this browser can do Web Push at all. */
export function isPushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    typeof window.Notification === "function" &&
    typeof navigator !== "undefined" &&
    "serviceWorker" in navigator &&
    navigator.serviceWorker !== undefined &&
    typeof window.PushManager === "function"
  );
}

/** The VAPID key as PushManager.subscribe wants it (base64url text → bytes). */
export function applicationServerKeyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const padded = base64Url.replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(padded + "=".repeat((4 - (padded.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const current = subscription.options?.applicationServerKey;
  // A browser that does not say which key it used is trusted to have used ours.
  if (!current) return true;
  const wanted = applicationServerKeyBytes(publicKey);
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

function readyWithin(ms: number): Promise<ServiceWorkerRegistration | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    navigator.serviceWorker.ready.then(
      (registration) => {
        clearTimeout(timer);
        resolve(registration);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

/** Asks only when the browser has not been answered yet (SPEC §4: "If not denied, asks"). */
async function permission(): Promise<NotificationPermission> {
  const current = window.Notification.permission;
  if (current !== "default") return current;
  return window.Notification.requestPermission();
}

/**
 * SPEC §4 "Push": permission from the browser's current value; asked when not denied (once a
 * service worker is ready, within 10 s); when granted, a subscription is obtained, kept and
 * sent to the server, and renewed after 7 days.
 * Unsupported or denied: nothing happens. A failure is logged, never shown (SPEC §8).
 */
export async function setUpPush(options: PushSetupOptions): Promise<PushSetupOutcome> {
  if (!isPushSupported()) return "unsupported";
  try {
    if (window.Notification.permission === "denied") return "denied";
    // The worker first: nobody is asked for a permission that could not be used (the dev
    // server has no worker; a first visit may still be installing it).
    const registration = await readyWithin(service_worker_ready_timeout_ms);
    if (registration === null) {
      console.warn("Push: no service worker became ready; push is not set up");
      return "failed";
    }
    if ((await permission()) !== "granted") return "denied";
    const publicKey = await options.loadPublicKey();
    const saved = readSaved(options.userId);
    let subscription = await registration.pushManager.getSubscription();
    let outcome: PushSetupOutcome = "subscribed";

    if (subscription !== null) {
      const savedHere = saved !== null && saved.endpoint === subscription.endpoint;
      const keyChanged =
        !sameKey(subscription, publicKey) || (savedHere && saved.public_key !== publicKey);
      const expired = savedHere && Date.now() - saved.saved_at_ms >= push_token_refresh_ms;
      if (keyChanged || expired) {
        // Over 7 days old, or made with another key: a new token replaces it.
        await subscription.unsubscribe();
        subscription = null;
        outcome = "refreshed";
      } else if (savedHere) {
        return "current";
      }
      // Otherwise never saved for this trader from this browser: it is sent as it is.
    }

    if (subscription === null) {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: applicationServerKeyBytes(publicKey),
      });
    }
    try {
      await options.saveToken(subscription.toJSON());
    } catch (error) {
      console.warn("Push: the token could not be saved", error);
      return "failed";
    }
    writeSaved(options.userId, {
      endpoint: subscription.endpoint,
      saved_at_ms: Date.now(),
      public_key: publicKey,
    });
    return outcome;
  } catch (error) {
    console.warn("Push: setup failed", error);
    return "failed";
  }
}

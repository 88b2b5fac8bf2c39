import { z } from "zod";
import { paginationSchema } from "./api.ts";
import { inputMessages } from "./messages.ts";
import { refuseUnsafeText, storable_date_ms_max } from "./validation.ts";

/**
 * Engagement (issue 6; SPEC §2 "Referrals" / "Notifications", §3, §4 "Notifications" /
 * "Push" / "Social-proof toast", §7, §8; PRODUCT.md D5, D8, D10): referrals, notifications
 * with their live stream message and Web Push, the staff broadcast and the recent-activity
 * feed. Every call but push-key needs the trader's bearer token. The server validates and declares its replies with these schemas; the web app reads
 * the same ones. Every reply is wrapped in the usual envelope ({status, message?, data}).
 *
 *   GET  /referral-details            → data: ReferralDetails
 *   GET  /referrals                   → data: ReferralList (data.data, newest first)
 *   GET  /notifications?page=&limit=  → data: NotificationList (data.data, newest first)
 *   POST /notifications/{id}/read     → data: NotificationReadData   (not yours: 404)
 *   GET  /notifications/push-key      → data: PushKey (no sign-in needed)
 *   POST /notifications/save-token    {token: PushSubscription} → data: SaveTokenData
 *   POST /admin/notifications         {title, message, user_id?} → 201 data: BroadcastData
 *   GET  /activity/recent             → data: RecentActivity
 *
 * Stream (GET /api/v1/stream, after {"type":"auth"}): the owner gets NotificationStreamMessage
 * for every new notification and NotificationCountStreamMessage after a mark-as-read.
 */

/** Texts of SPEC §4 / §8 (verbatim) and the server's own replies for these areas. */
export const engagementMessages = {
  // SPEC §8 "Referrals"
  referralDetailsFailed: "Failed to fetch referral details",
  referralsFailed: "Failed to fetch referrals",
  // SPEC §8 "Empty or other"
  noReferrals: "No referrals yet",
  noNotifications: "No notifications",
  copiedToClipboard: "Copied to clipboard!",
  // SPEC §4 "Push": the title of a push message that has none
  pushDefaultTitle: "New Message",

  // The server's own replies (the spec leaves them open).
  notificationMarkedRead: "Notification marked as read",
  notificationNotFound: "Notification not found",
  pushSubscriptionSaved: "Push subscription saved",
  pushSubscriptionInvalid: "The push subscription is not valid",
  pushEndpointInvalid: "The push endpoint must be an https:// URL of a push service",
  pushKeysInvalid: "The push subscription keys (p256dh and auth) are not valid",
  titleRequired: "Title is required",
  titleTooLong: "The title can have at most 100 characters",
  messageRequired: "Message is required",
  messageTooLong: "The message can have at most 1000 characters",
  userIdInvalid: "The user id must be a whole number",
  traderNotFound: "No trader with this id",
  broadcastSentToMany: (count: number) =>
    count === 1 ? "Notification sent to 1 trader" : `Notification sent to ${count} traders`,
  activityDisabled: "Recent activity is turned off on this platform",
} as const;

const timestamp = z.string();

// ---------------------------------------------------------------------------------------
// Referrals (SPEC §3 "Referral")

/** The sign-up page a referral link opens, and the query parameter carrying the code. */
export const signUpPagePath = "/account/sign-up";
export const referralQueryParameter = "ref";

/** `PUBLIC_URL/account/sign-up?ref=CODE`; the sign-up form sends CODE as referral_code. */
export function referralUrl(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${signUpPagePath}?${referralQueryParameter}=${encodeURIComponent(code)}`;
}

/** GET /referral-details: referral_id is the trader's referral code. */
export const referralDetailsSchema = z.object({
  referral_id: z.string(),
  referral_url: z.string(),
});
export type ReferralDetails = z.infer<typeof referralDetailsSchema>;

/** One referred trader: first name and last initial only ("Jane D."), never the e-mail. */
export const referralItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  date_registered: timestamp,
});
export type ReferralItem = z.infer<typeof referralItemSchema>;

/** The most referrals GET /referrals lists (newest first); `total` counts them all. */
export const referrals_listed_max = 500;

export const referralListSchema = z.object({
  data: z.array(referralItemSchema),
  total: z.number().int(),
});
export type ReferralList = z.infer<typeof referralListSchema>;

// ---------------------------------------------------------------------------------------
// Notifications (SPEC §3 "Notification", §4 "Notifications")

/**
 * What a notification is about: a funding or identity outcome, or a staff broadcast. The
 * web app may pick an icon from it; it never needs to.
 */
export const notificationKinds = [
  "deposit_confirmed",
  "deposit_rejected",
  "deposit_expired",
  "withdrawal_requested",
  "withdrawal_paid",
  "withdrawal_rejected",
  "withdrawal_cancelled",
  "verification_approved",
  "verification_rejected",
  "broadcast",
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(notificationKinds),
  title: z.string(),
  message: z.string(),
  created_at: timestamp,
  is_read: z.boolean(),
});
export type NotificationView = z.infer<typeof notificationViewSchema>;

export const notification_page_size_default = 50;
export const notification_page_size_max = 100;

export const notificationListQuerySchema = z.object({
  page: z.coerce
    .number({ error: "page must be a whole number from 1" })
    .int("page must be a whole number from 1")
    .min(1, "page must be a whole number from 1")
    .max(1_000_000, "page is too large")
    .default(1),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${notification_page_size_max}` })
    .int(`limit must be a whole number from 1 to ${notification_page_size_max}`)
    .min(1, `limit must be a whole number from 1 to ${notification_page_size_max}`)
    .max(
      notification_page_size_max,
      `limit must be a whole number from 1 to ${notification_page_size_max}`,
    )
    .default(notification_page_size_default),
});
export type NotificationListQuery = z.input<typeof notificationListQuerySchema>;

/** GET /notifications: `data.data` newest first; `unread_count` feeds the bell badge. */
export const notificationListSchema = z.object({
  data: z.array(notificationViewSchema),
  unread_count: z.number().int(),
  pagination: paginationSchema,
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** POST /notifications/{id}/read (marking a read one again is a success, too). */
export const notificationReadDataSchema = z.object({
  notification: notificationViewSchema,
  unread_count: z.number().int(),
});
export type NotificationReadData = z.infer<typeof notificationReadDataSchema>;

/** Stream: a new notification for the signed-in trader, with the new unread count. */
export const notificationStreamMessageSchema = z.object({
  type: z.literal("notification"),
  notification: notificationViewSchema,
  unread_count: z.number().int(),
});
export type NotificationStreamMessage = z.infer<typeof notificationStreamMessageSchema>;

/** Stream: the unread count changed without a new notification (read on another device). */
export const notificationCountStreamMessageSchema = z.object({
  type: z.literal("notification_count"),
  unread_count: z.number().int(),
});
export type NotificationCountStreamMessage = z.infer<typeof notificationCountStreamMessageSchema>;

// ---------------------------------------------------------------------------------------
// Web Push (SPEC §4 "Push", PRODUCT.md D8): the "push token" is the PushSubscription.

/** GET /notifications/push-key: the VAPID public key for pushManager.subscribe. */
export const pushKeySchema = z.object({
  /** Uncompressed P-256 point, base64url: pass it as `applicationServerKey`. */
  public_key: z.string(),
});
export type PushKey = z.infer<typeof pushKeySchema>;

export const push_endpoint_length_max = 2048;
const base64url = /^[A-Za-z0-9_-]+={0,2}$/;

/** PushSubscription.toJSON(): the browser's shape. */
export const pushSubscriptionSchema = z.object(
  {
    endpoint: z
      .string({ error: engagementMessages.pushEndpointInvalid })
      .max(push_endpoint_length_max, engagementMessages.pushEndpointInvalid)
      .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, engagementMessages.pushEndpointInvalid),
    /** Milliseconds since 1970, bounded to dates the database stores (a browser sends any). */
    expirationTime: z
      .number({ error: inputMessages.dateOutOfRange })
      .min(0, inputMessages.dateOutOfRange)
      .max(storable_date_ms_max, inputMessages.dateOutOfRange)
      .nullish(),
    keys: z.object(
      {
        /** The browser's P-256 public key: 65 bytes uncompressed, base64url (87 characters). */
        p256dh: z
          .string({ error: engagementMessages.pushKeysInvalid })
          .min(86, engagementMessages.pushKeysInvalid)
          .max(90, engagementMessages.pushKeysInvalid)
          .regex(base64url, engagementMessages.pushKeysInvalid),
        /** The 16-byte authentication secret, base64url (22 characters). */
        auth: z
          .string({ error: engagementMessages.pushKeysInvalid })
          .min(21, engagementMessages.pushKeysInvalid)
          .max(24, engagementMessages.pushKeysInvalid)
          .regex(base64url, engagementMessages.pushKeysInvalid),
      },
      { error: engagementMessages.pushKeysInvalid },
    ),
  },
  { error: engagementMessages.pushSubscriptionInvalid },
);
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/**
 * POST /notifications/save-token: `token` is the PushSubscription as JSON (an object, or the
 * string JSON.stringify makes of it). Saving the same endpoint again refreshes it.
 */
export const saveTokenSchema = z.object({
  token: z.preprocess((value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }, pushSubscriptionSchema),
});
export type SaveTokenRequest = z.input<typeof saveTokenSchema>;

export const saveTokenDataSchema = z.object({ endpoint: z.string() });
export type SaveTokenData = z.infer<typeof saveTokenDataSchema>;

/**
 * The decrypted JSON of every push message. The service worker shows
 * `title || "New Message"` with `message` as the body and opens `url` on click.
 */
export const pushPayloadSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  created_at: timestamp,
  url: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** Where a click on a push message leads (the web app's notifications page). */
export const notificationsPagePath = "/user/notifications";

// ---------------------------------------------------------------------------------------
// Staff broadcast (PRODUCT.md D7): one trader, or every trader when user_id is absent.

export const broadcast_title_length_max = 100;
export const broadcast_message_length_max = 1000;

export const broadcastSchema = z.object({
  title: z
    .string({ error: engagementMessages.titleRequired })
    .trim()
    .min(1, engagementMessages.titleRequired)
    .max(broadcast_title_length_max, engagementMessages.titleTooLong)
    .superRefine(refuseUnsafeText("line")),
  message: z
    .string({ error: engagementMessages.messageRequired })
    .trim()
    .min(1, engagementMessages.messageRequired)
    .max(broadcast_message_length_max, engagementMessages.messageTooLong)
    // A message may span lines; nothing invisible or direction-changing may hide in it.
    .superRefine(refuseUnsafeText("multiline")),
  user_id: z
    .number({ error: engagementMessages.userIdInvalid })
    .int(engagementMessages.userIdInvalid)
    .positive(engagementMessages.userIdInvalid)
    .max(Number.MAX_SAFE_INTEGER, engagementMessages.userIdInvalid)
    .nullish(),
});
export type BroadcastRequest = z.input<typeof broadcastSchema>;

export const broadcastDataSchema = z.object({
  /** How many traders got the notification. */
  recipients: z.number().int(),
});
export type BroadcastData = z.infer<typeof broadcastDataSchema>;

// ---------------------------------------------------------------------------------------
// Recent activity (PRODUCT.md D5, SPEC §4 "Social-proof toast")

/** Only the last day's transactions, at most this many, newest first. */
export const activity_window_ms = 24 * 60 * 60 * 1000;
export const activity_items_max = 20;

/**
 * One real transaction, anonymised: no person, no id, no reference; `at` is cut to the
 * minute. The toast shows "New Transaction", "Amount:" amount (US dollars) and
 * "via {method}".
 */
export const activityItemSchema = z.object({
  kind: z.enum(["deposit", "withdrawal"]),
  amount: z.number(),
  currency: z.literal("USD"),
  /** The payment method's name, e.g. "Bitcoin". */
  method: z.string(),
  at: timestamp,
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

/** GET /activity/recent: empty (and enabled false) when the operator turned it off. */
export const recentActivitySchema = z.object({
  enabled: z.boolean(),
  data: z.array(activityItemSchema),
});
export type RecentActivity = z.infer<typeof recentActivitySchema>;

import { apiSuccessSchema } from "@tp/domain/api";
import {
  engagementMessages,
  notificationListQuerySchema,
  notificationListSchema,
  notificationReadDataSchema,
  pushKeySchema,
  saveTokenDataSchema,
  saveTokenSchema,
} from "@tp/domain/engagement";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { sessionOf } from "../http/authenticate.ts";
import { AppError } from "../http/errors.ts";
import { failureResponses, pageInfo } from "../http/replies.ts";
import { bearerSecurity, idParamsSchema } from "../http/route-kit.ts";
import { checkPushEndpoint, checkPushKeys, saveSubscription } from "../push/push-subscriptions.ts";
import {
  markNotificationRead,
  notificationPage,
  notificationView,
  unreadCount,
} from "./notifications.ts";

/**
 * The VAPID public key (public). Delivery (stream and Web Push) is a background worker,
 * started with the others (workers.ts). The trader's own notifications are
 * `notificationInboxRoutes`, in the signed-in scope.
 */
export async function notificationRoutes(app: FastifyInstance, context: AppContext) {
  const keys = context.vapidKeys;

  app.withTypeProvider<ZodTypeProvider>().get(
    "/notifications/push-key",
    {
      schema: {
        tags: ["notifications"],
        summary:
          "The VAPID public key to subscribe with (pushManager.subscribe applicationServerKey)",
        response: { 200: apiSuccessSchema(pushKeySchema), ...failureResponses },
      },
    },
    async () => ({ status: "success" as const, data: { public_key: keys.publicKey } }),
  );
}

/**
 * The trader's notifications (SPEC §2 "Notifications", §4, §7; PRODUCT.md D8, D10), in the
 * signed-in scope: the list with the unread count, mark as read (another trader's
 * notification is a 404) and the push subscription.
 */
export async function notificationInboxRoutes(signedIn: FastifyInstance, context: AppContext) {
  const { config, database, clock, bus } = context;
  const routes = signedIn.withTypeProvider<ZodTypeProvider>();
  const tags = ["notifications"];
  const security = bearerSecurity;

  routes.get(
    "/notifications",
    {
      schema: {
        tags,
        summary: "The trader's notifications, newest first (data.data), and the unread count",
        security,
        querystring: notificationListQuerySchema,
        response: { 200: apiSuccessSchema(notificationListSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const { page, limit } = request.query;
      const { rows, total } = await notificationPage(database, userId, page, limit);
      return {
        status: "success" as const,
        data: {
          data: rows.map(notificationView),
          unread_count: await unreadCount(database, userId),
          pagination: pageInfo(total, page, limit),
        },
      };
    },
  );

  routes.post(
    "/notifications/:id/read",
    {
      schema: {
        tags,
        summary: "Marks one of the trader's notifications read (another trader's: 404)",
        security,
        params: idParamsSchema,
        response: { 200: apiSuccessSchema(notificationReadDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const marked = await markNotificationRead(database, userId, request.params.id, clock.now());
      if (!marked) throw new AppError("NOT_FOUND", engagementMessages.notificationNotFound);
      const unread = await unreadCount(database, userId);
      // The trader's other tabs and devices update their badge (after the write, never before).
      if (marked.changed) bus.publish({ type: "notification_count", userId, unread_count: unread });
      return {
        status: "success" as const,
        message: engagementMessages.notificationMarkedRead,
        data: { notification: notificationView(marked.row), unread_count: unread },
      };
    },
  );

  routes.post(
    "/notifications/save-token",
    {
      schema: {
        tags,
        summary:
          "Saves the browser's PushSubscription (the spec's push token) for Web Push; saving it again refreshes it",
        security,
        body: saveTokenSchema,
        response: { 200: apiSuccessSchema(saveTokenDataSchema), ...failureResponses },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const { token } = request.body;
      checkPushEndpoint(token.endpoint, config.PUSH_ALLOW_LOOPBACK_ENDPOINTS);
      checkPushKeys(token.keys);
      await database.transaction((transaction) =>
        saveSubscription(transaction, userId, token, clock.now()),
      );
      return {
        status: "success" as const,
        message: engagementMessages.pushSubscriptionSaved,
        data: { endpoint: token.endpoint },
      };
    },
  );
}

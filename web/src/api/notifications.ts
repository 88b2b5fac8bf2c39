import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type NotificationList,
  type NotificationReadData,
  type NotificationView,
  notificationListSchema,
  notificationReadDataSchema,
} from "@tp/domain/engagement";
import { apiRequest } from "./client.ts";

/** The page and the bell share one cached list: GET /notifications (first page, 50). */
export const notificationsQueryKey = ["notifications"] as const;

/** GET /notifications: `data.data` newest first, and the unread count for the badge. */
export async function fetchNotifications(signal?: AbortSignal): Promise<NotificationList> {
  const reply = await apiRequest<unknown>("/notifications", { signal });
  const parsed = notificationListSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The notifications reply does not match its schema");
  return parsed.data;
}

export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: notificationsQueryKey,
    queryFn: ({ signal }) => fetchNotifications(signal),
    refetchOnWindowFocus: true,
  });
}

/** POST /notifications/{id}/read: the notification as now stored, and the new unread count. */
export async function markNotificationRead(id: number): Promise<NotificationReadData> {
  const reply = await apiRequest<unknown>(`/notifications/${id}/read`, { method: "POST" });
  const parsed = notificationReadDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The mark-as-read reply does not match its schema");
  return parsed.data;
}

/**
 * A notification as the server shows it now (a mark-as-read reply, or a new one from the
 * stream) written into the cached list, with the unread count the server counted. A new
 * one goes first (the list is newest first); a known one is replaced in place.
 */
export function applyNotification(
  queryClient: QueryClient,
  notification: NotificationView | null,
  unreadCount: number,
): void {
  const list = queryClient.getQueryData<NotificationList>(notificationsQueryKey);
  if (list === undefined) {
    // Nothing cached yet: the first read of the list brings it all.
    void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    return;
  }
  let data = list.data;
  if (notification !== null) {
    const known = data.some((item) => item.id === notification.id);
    data = known
      ? data.map((item) => (item.id === notification.id ? notification : item))
      : [notification, ...data];
  }
  queryClient.setQueryData<NotificationList>(notificationsQueryKey, {
    ...list,
    data,
    unread_count: Math.max(0, unreadCount),
  });
}

/** SPEC §4: unread becomes read after mark-as-read succeeds; the cached list updates locally. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: (data) => applyNotification(queryClient, data.notification, data.unread_count),
  });
}

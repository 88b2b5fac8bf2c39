import { useQuery } from "@tanstack/react-query";
import { notificationsQueryOptions } from "../api/notifications.ts";
import { useIsLive } from "../stream/stream-context.ts";

/**
 * While the live socket is down the list is read again this often, so the badge still moves
 * (PRODUCT.md D10: polling is the fallback; the spec names no interval for notifications).
 */
export const notifications_poll_ms = 60_000;

/** The bell's badge: the server's unread count, kept current by the stream (0 while unknown). */
export function useUnreadCount(): number {
  const live = useIsLive();
  const list = useQuery({
    ...notificationsQueryOptions(),
    refetchInterval: live ? false : notifications_poll_ms,
  });
  return list.data?.unread_count ?? 0;
}

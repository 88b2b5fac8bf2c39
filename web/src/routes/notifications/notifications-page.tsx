import { useQuery } from "@tanstack/react-query";
import { engagementMessages, type NotificationView } from "@tp/domain/engagement";
import { useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { notificationsQueryOptions, useMarkNotificationRead } from "../../api/notifications.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { BellIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { QueryStates } from "../../components/query-states.tsx";
import { formatDateTime } from "../../components/trade-format.ts";
import { isPushSupported } from "../../engagement/push-client.ts";
import { runPushSetup } from "../../engagement/use-push-setup.ts";

export const markReadFailedMessage = "Failed to mark notification as read";

function NotificationRow({ notification }: { notification: NotificationView }) {
  const markRead = useMarkNotificationRead();
  const unread = !notification.is_read;
  const titleId = `notification-${notification.id}-title`;

  const onMarkRead = () =>
    markRead.mutate(notification.id, {
      onError: (error) => toast.error(errorMessage(error, markReadFailedMessage)),
    });

  return (
    <li
      aria-labelledby={titleId}
      data-unread={unread || undefined}
      className={`flex gap-3 px-4 py-4 sm:px-5 ${unread ? "bg-brand-600/[0.04] dark:bg-brand-500/[0.06]" : ""}`}
    >
      <span
        aria-hidden="true"
        className={`mt-1.5 size-2.5 shrink-0 rounded-full ${unread ? "bg-red-600" : "bg-transparent"}`}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-col gap-x-4 gap-y-1 sm:flex-row sm:items-baseline sm:justify-between">
          <h2
            id={titleId}
            className={`break-words text-sm ${
              unread
                ? "font-semibold text-slate-900 dark:text-white"
                : "font-medium text-slate-700 dark:text-slate-300"
            }`}
          >
            {notification.title}
            {unread ? <span className="sr-only"> (unread)</span> : null}
          </h2>
          <time
            dateTime={notification.created_at}
            className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400"
          >
            {formatDateTime(notification.created_at)}
          </time>
        </div>
        <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-600 dark:text-slate-400">
          {notification.message}
        </p>
        {unread ? (
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            busy={markRead.isPending}
            onClick={onMarkRead}
            aria-describedby={titleId}
          >
            Mark as read
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/**
 * Browsers that block a permission prompt nobody clicked for (Firefox, Safari) leave the
 * permission unasked after the shell's own attempt; a click here asks again. Shown only while
 * the browser can push and has not been answered (SPEC §4: denied skips silently).
 */
function PushOffer() {
  const { user } = useAuth();
  const [asked, setAsked] = useState(false);
  if (user === null || asked || !isPushSupported()) return null;
  if (window.Notification.permission !== "default") return null;
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => {
        setAsked(true);
        void runPushSetup(user.id, { again: true });
      }}
    >
      <BellIcon className="size-4" />
      Turn on push notifications
    </Button>
  );
}

/** SPEC §2 "Notifications": the list, newest first, with Mark as read; empty: "No notifications". */
export function NotificationsPage() {
  const list = useQuery(notificationsQueryOptions());

  return (
    <>
      <PageTitle
        title="Notifications"
        description="Messages about your account, deposits and withdrawals."
        actions={<PushOffer />}
      />
      <Card className="overflow-hidden !p-0">
        <QueryStates
          query={list}
          loadingLabel="Loading notifications"
          failureTitle="Failed to load notifications"
          isEmpty={(data) => data.data.length === 0}
          empty={
            <div className="flex flex-col items-center px-6 py-14 text-center">
              <BellIcon className="size-8 text-slate-400 dark:text-slate-500" />
              <p className="mt-3 font-medium text-slate-700 dark:text-slate-200">
                {engagementMessages.noNotifications}
              </p>
            </div>
          }
        >
          {(data) => (
            <>
              <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 text-sm sm:px-5 dark:border-navy-700">
                <span className="font-semibold">
                  {data.unread_count > 0 ? `${data.unread_count} unread` : "All read"}
                </span>
                {data.pagination.total > data.data.length ? (
                  <span className="text-xs text-slate-500 dark:text-slate-400">
                    The newest {data.data.length} of {data.pagination.total}
                  </span>
                ) : null}
              </div>
              <ul
                aria-label="Notifications"
                className="divide-y divide-slate-100 dark:divide-navy-800"
              >
                {data.data.map((notification) => (
                  <NotificationRow key={notification.id} notification={notification} />
                ))}
              </ul>
            </>
          )}
        </QueryStates>
      </Card>
    </>
  );
}

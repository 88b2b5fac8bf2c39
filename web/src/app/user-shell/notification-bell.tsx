import { Link } from "react-router";
import { BellIcon } from "../../components/icons.tsx";
import { paths } from "../../paths.ts";

/** Links to notifications; the red badge shows only when the unread count is above 0. */
export function NotificationBell({
  unreadCount,
  className = "",
}: {
  unreadCount: number;
  className?: string;
}) {
  const label = unreadCount > 0 ? `Notifications, ${unreadCount} unread` : "Notifications";
  return (
    <Link to={paths.user.notifications} aria-label={label} className={`relative ${className}`}>
      <BellIcon />
      {unreadCount > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-bold leading-none text-white ring-2 ring-navy-950"
        >
          {unreadCount > 99 ? "99+" : unreadCount}
        </span>
      ) : null}
    </Link>
  );
}

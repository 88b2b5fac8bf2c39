import { useQuery } from "@tanstack/react-query";
import { roleAtLeast, type StaffRole } from "@tp/domain/api";
import type { ReactNode } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { ApiError } from "../api/client.ts";
import { useAuth } from "../auth/auth-context.ts";
import { useSignOut } from "../auth/use-sign-out.ts";
import { app_name } from "../brand.ts";
import { Button } from "../components/button.tsx";
import {
  BellIcon,
  BlocksIcon,
  ChartIcon,
  CheckCircleIcon,
  DocumentIcon,
  HistoryIcon,
  LogoutIcon,
  SettingsIcon,
  ShieldIcon,
  UsersIcon,
  WalletIcon,
} from "../components/icons.tsx";
import { Logo } from "../components/logo.tsx";
import { ThemeToggle } from "../components/theme-toggle.tsx";
import { paths } from "../paths.ts";
import { type QueueKind, waitingCountQuery } from "./api/queues.ts";
import { HiddenAdminPage } from "./require-admin.tsx";

interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  queue?: QueueKind;
  /** The least role that may use the section (support reads every other one). */
  least?: StaffRole;
}

const navItems: readonly NavItem[] = [
  {
    to: paths.admin.root,
    label: "Setup",
    icon: <CheckCircleIcon className="size-4.5" />,
  },
  {
    to: paths.admin.deposits,
    label: "Deposits",
    icon: <WalletIcon className="size-4.5" />,
    queue: "deposits",
  },
  {
    to: paths.admin.withdrawals,
    label: "Withdrawals",
    icon: <HistoryIcon className="size-4.5" />,
    queue: "withdrawals",
  },
  {
    to: paths.admin.verifications,
    label: "Identity",
    icon: <ShieldIcon className="size-4.5" />,
    queue: "verifications",
  },
  { to: paths.admin.users, label: "Users", icon: <UsersIcon className="size-4.5" /> },
  {
    to: paths.admin.paymentMethods,
    label: "Payment methods",
    icon: <SettingsIcon className="size-4.5" />,
  },
  {
    to: paths.admin.notifications,
    label: "Notifications",
    icon: <BellIcon className="size-4.5" />,
    least: "admin",
  },
  { to: paths.admin.auditLog, label: "Audit log", icon: <DocumentIcon className="size-4.5" /> },
  {
    to: paths.admin.reconciliation,
    label: "Reconciliation",
    icon: <ChartIcon className="size-4.5" />,
  },
  { to: paths.admin.feeds, label: "Price feeds", icon: <BlocksIcon className="size-4.5" /> },
];

/** How many items wait in a queue, as a badge; nothing while unknown or zero. */
function WaitingBadge({ queue }: { queue: QueueKind }) {
  const count = useQuery(waitingCountQuery(queue));
  if (!count.data) return null;
  return (
    <span
      role="status"
      aria-label={`${count.data} waiting`}
      className="ml-auto rounded-full bg-amber-500 px-1.5 py-px text-[11px] font-bold tabular-nums text-white"
    >
      {count.data > 99 ? "99+" : count.data}
    </span>
  );
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex shrink-0 items-center gap-2.5 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-semibold transition-colors ${
    isActive
      ? "bg-brand-600 text-white [&_[role=status]]:bg-white [&_[role=status]]:text-brand-700"
      : "text-slate-600 hover:bg-slate-200/70 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-navy-800 dark:hover:text-white"
  }`;

/**
 * The back office's frame (PRODUCT.md D7): a slim top bar and the sections beside the page
 * on a desktop, or in a scrolling strip above it on a phone. Queue sections show how many
 * items wait for a decision. Sections a role cannot use are not shown; staff are not
 * traders, so there is no way from here into the trading pages.
 */
export function AdminShell() {
  const { user } = useAuth();
  const { signOut, isSigningOut } = useSignOut();
  // The server is the authority: if it refuses this session (role removed since GET /user
  // answered), the back office hides itself as it does from any trader.
  const probe = useQuery(waitingCountQuery("deposits"));
  if (probe.error instanceof ApiError && probe.error.status === 403) return <HiddenAdminPage />;

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 bg-navy-950 shadow-md">
        <div className="flex h-14 items-center gap-3 px-4 lg:px-6">
          <Link
            to={paths.admin.root}
            aria-label={`${app_name} back office`}
            className="shrink-0 rounded"
          >
            <Logo />
          </Link>
          <span className="hidden rounded-md bg-amber-400/15 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-amber-300 sm:inline">
            Back office
          </span>
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            <span className="mr-2 hidden max-w-56 truncate text-sm text-navy-200 md:inline">
              {user?.email}
            </span>
            <ThemeToggle className="inline-flex size-9 items-center justify-center rounded-lg text-navy-100 hover:bg-white/10 hover:text-white" />
            <Button
              variant="outline-light"
              size="sm"
              onClick={signOut}
              busy={isSigningOut}
              aria-label="Log out"
            >
              <LogoutIcon className="size-4" />
              <span className="hidden sm:inline">Log out</span>
            </Button>
          </div>
        </div>
      </header>
      <div className="flex flex-1 flex-col lg:flex-row">
        <aside className="sticky top-14 z-30 border-b border-slate-200 bg-slate-50/95 backdrop-blur lg:static lg:w-56 lg:shrink-0 lg:border-r lg:border-b-0 lg:backdrop-blur-none dark:border-navy-800 dark:bg-navy-950/95">
          <nav
            aria-label="Back office sections"
            className="flex gap-1 overflow-x-auto px-3 py-2 lg:sticky lg:top-14 lg:flex-col lg:overflow-x-visible lg:py-4"
          >
            {navItems
              .filter((item) => !item.least || (user && roleAtLeast(user.role, item.least)))
              .map((item) => (
                <NavLink
                  key={item.to}
                  to={item.to}
                  end={item.to === paths.admin.root}
                  className={navLinkClass}
                >
                  {item.icon}
                  {item.label}
                  {item.queue ? <WaitingBadge queue={item.queue} /> : null}
                </NavLink>
              ))}
          </nav>
        </aside>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 lg:px-8">
          <div className="mx-auto max-w-[90rem]">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}

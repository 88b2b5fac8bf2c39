import type { UserView } from "@tp/domain/api";
import { isStaffRole } from "@tp/domain/api";
import { useCallback, useRef } from "react";
import { Link, NavLink } from "react-router";
import { useSignOut } from "../../auth/use-sign-out.ts";
import { app_name } from "../../brand.ts";
import { AccountStatusExplained } from "../../components/account-status.tsx";
import {
  CloseIcon,
  HistoryIcon,
  HomeIcon,
  LogoutIcon,
  MenuIcon,
  SettingsIcon,
  SpinnerIcon,
  UserIcon,
  UsersIcon,
  WalletIcon,
} from "../../components/icons.tsx";
import { Logo } from "../../components/logo.tsx";
import { useDialogFocus } from "../../components/use-dialog-focus.ts";
import { useMenuOpen } from "../../components/use-menu-open.ts";
import { paths } from "../../paths.ts";
import { useMarketInfoLinks } from "./nav-items.ts";
import { NotificationBell } from "./notification-bell.tsx";
import { ConnectionIndicator } from "./status-indicator.tsx";

/** SPEC §2: the mobile panel's Account Level is the fixed text Basic. */
const mobile_account_level = "Basic";

const panelLinks = [
  { to: paths.user.dashboard, label: "Dashboard", icon: HomeIcon },
  { to: paths.user.fundWallet, label: "Deposit Funds", icon: WalletIcon },
  { to: paths.user.personalData, label: "Profile", icon: UserIcon },
  { to: paths.user.transactionHistory, label: "Statements", icon: HistoryIcon },
  { to: paths.user.security, label: "Settings", icon: SettingsIcon },
  { to: paths.user.referrals, label: "Referrals", icon: UsersIcon },
];

/** Staff only: the way into the back office. */
const backOfficeLink = { to: paths.admin.root, label: "Back Office", icon: SettingsIcon };

const iconButton =
  "inline-flex size-10 items-center justify-center rounded-lg text-navy-100 hover:bg-white/10 hover:text-white";

/** SPEC §2 "Navigation", mobile (≤ 768 px): top bar and the right slide-in panel. */
export function MobileHeader({ user, unreadCount }: { user: UserView; unreadCount: number }) {
  const [open, setOpen] = useMenuOpen();
  const closeRef = useRef<HTMLButtonElement>(null);
  const { signOut, isSigningOut } = useSignOut();
  const marketInfoLinks = useMarketInfoLinks();

  const panelRef = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), [setOpen]);
  useDialogFocus(open, panelRef, { onEscape: close, initialFocus: closeRef });

  return (
    <header className="sticky top-0 z-50 bg-navy-950 shadow-md md:hidden">
      <div className="flex h-14 items-center gap-2 px-4">
        <Link
          to={paths.user.dashboard}
          aria-label={`${app_name} dashboard`}
          className="shrink-0 rounded"
        >
          <Logo />
        </Link>
        <div className="ml-auto flex items-center gap-1">
          <NotificationBell unreadCount={unreadCount} className={iconButton} />
          <button
            type="button"
            className={iconButton}
            aria-label="Open menu"
            aria-expanded={open}
            aria-controls="user-mobile-panel"
            onClick={() => setOpen(true)}
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      <div hidden={!open} className="fixed inset-0 z-50">
        <button
          type="button"
          tabIndex={-1}
          aria-label="Close menu"
          className="absolute inset-0 size-full cursor-default bg-navy-950/60 backdrop-blur-sm"
          onClick={() => setOpen(false)}
        />
        <div
          ref={panelRef}
          id="user-mobile-panel"
          role="dialog"
          aria-modal="true"
          aria-label="Menu"
          className="absolute inset-y-0 right-0 flex w-[min(20rem,85vw)] flex-col overflow-y-auto bg-white shadow-2xl dark:bg-navy-900"
        >
          <div className="flex items-center justify-between bg-navy-950 px-4 py-3">
            <span className="text-sm font-semibold text-white">
              {user.account.first_name} {user.account.last_name}
            </span>
            <button
              ref={closeRef}
              type="button"
              className={iconButton}
              aria-label="Close menu"
              onClick={() => setOpen(false)}
            >
              <CloseIcon />
            </button>
          </div>
          <dl className="grid grid-cols-2 gap-3 border-b border-slate-200 p-4 dark:border-navy-700">
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">Account Status</dt>
              <dd className="mt-1">
                <AccountStatusExplained user={user} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">Account Level</dt>
              <dd className="mt-1 text-sm font-semibold">{mobile_account_level}</dd>
            </div>
            {/* Mounted only while open: one connection indicator on screen at a time. */}
            {open ? (
              <div className="col-span-2">
                <ConnectionIndicator tone="light" />
              </div>
            ) : null}
          </dl>
          <nav aria-label="Account menu" className="flex flex-col p-2">
            {[
              ...panelLinks,
              ...marketInfoLinks,
              ...(isStaffRole(user.role) ? [backOfficeLink] : []),
            ].map(({ to, label, icon: LinkIcon }) => (
              <NavLink
                key={to}
                to={to}
                className={({ isActive }) =>
                  `flex items-center gap-3 rounded-lg px-3 py-3 text-sm font-medium ${
                    isActive
                      ? "bg-brand-600/10 text-brand-700 dark:text-brand-400"
                      : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-navy-800"
                  }`
                }
              >
                <LinkIcon className="size-5" />
                {label}
              </NavLink>
            ))}
          </nav>
          <div className="mt-auto p-4">
            <button
              type="button"
              onClick={signOut}
              disabled={isSigningOut}
              className="flex h-11 w-full items-center justify-center gap-2 rounded-lg bg-red-600 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
            >
              {isSigningOut ? (
                <SpinnerIcon className="size-4" />
              ) : (
                <LogoutIcon className="size-4" />
              )}
              Logout
            </button>
          </div>
        </div>
      </div>
    </header>
  );
}

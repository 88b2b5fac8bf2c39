import type { UserView } from "@tp/domain/api";
import { isStaffRole } from "@tp/domain/api";
import { Link, NavLink } from "react-router";
import { useSignOut } from "../../auth/use-sign-out.ts";
import { app_name } from "../../brand.ts";
import { Button, ButtonLink } from "../../components/button.tsx";
import { LogoutIcon, PhoneIcon } from "../../components/icons.tsx";
import { Logo } from "../../components/logo.tsx";
import { ThemeToggle } from "../../components/theme-toggle.tsx";
import { paths } from "../../paths.ts";
import { accountMenu, settingsMenu, statementsMenu, useMarketInfoLinks } from "./nav-items.ts";
import { NavMenu, navTopItemClass } from "./nav-menu.tsx";
import { NotificationBell } from "./notification-bell.tsx";
import { AccountStatusIndicator, ConnectionIndicator } from "./status-indicator.tsx";

const iconLink = ({ isActive }: { isActive: boolean }) =>
  `inline-flex size-9 items-center justify-center rounded-lg transition-colors ${
    isActive ? "bg-white/15 text-white" : "text-navy-200 hover:bg-white/10 hover:text-white"
  }`;

/** SPEC §2 "Navigation", desktop: the top bar and the secondary nav below it. */
export function DesktopHeader({ user, unreadCount }: { user: UserView; unreadCount: number }) {
  const { signOut, isSigningOut } = useSignOut();
  const marketInfoLinks = useMarketInfoLinks();
  return (
    <header className="sticky top-0 z-40 hidden shadow-md md:block">
      <div className="bg-navy-950">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 lg:px-8">
          <Link
            to={paths.user.dashboard}
            aria-label={`${app_name} dashboard`}
            className="shrink-0 rounded"
          >
            <Logo />
          </Link>
          <div className="ml-auto flex items-center gap-3 lg:gap-5">
            <Link
              to={paths.contact}
              className="hidden items-center gap-2 rounded-lg px-2 py-1.5 text-sm font-medium text-navy-100 hover:bg-white/10 hover:text-white lg:inline-flex"
            >
              <PhoneIcon className="size-4" />
              Call back
            </Link>
            {/* SPEC §2's Status indicator is the account status (SPEC §4); the connection
                state sits beside it (issue 13). */}
            <AccountStatusIndicator user={user} />
            <ConnectionIndicator />
            <div className="flex flex-col leading-tight">
              <span className="text-[11px] uppercase tracking-wide text-navy-300">
                Account Level
              </span>
              <span className="text-sm font-semibold capitalize text-white">
                {user.account.plan}
              </span>
            </div>
            <Button
              variant="outline-light"
              size="sm"
              onClick={signOut}
              busy={isSigningOut}
              className="tracking-wide"
            >
              <LogoutIcon className="size-4" />
              LOGOUT
            </Button>
            <ButtonLink to={paths.user.fundWallet} variant="danger" size="sm">
              Deposit Funds
            </ButtonLink>
            <ThemeToggle className="inline-flex size-9 items-center justify-center rounded-lg text-navy-100 hover:bg-white/10 hover:text-white" />
          </div>
        </div>
      </div>
      <div className="border-t border-white/5 bg-navy-900">
        <nav
          aria-label="Account sections"
          className="mx-auto flex h-11 max-w-7xl items-center gap-1 px-4 lg:px-8"
        >
          {marketInfoLinks.map(({ to, label, icon: LinkIcon }) => (
            <NavLink key={to} to={to} aria-label={label} title={label} className={iconLink}>
              <LinkIcon className="size-4.5" />
            </NavLink>
          ))}
          <span aria-hidden="true" className="mx-2 h-5 w-px bg-white/10" />
          <NavLink to={paths.user.dashboard} className={navTopItemClass}>
            TRADING
          </NavLink>
          <NavMenu label="ACCOUNT" items={accountMenu} />
          <NavMenu label="STATEMENTS" items={statementsMenu} />
          <NavMenu label="SETTINGS" items={settingsMenu} />
          <NavLink to={paths.user.referrals} className={navTopItemClass}>
            MY REFERRALS
          </NavLink>
          {isStaffRole(user.role) && (
            <NavLink to={paths.admin.root} className={navTopItemClass}>
              BACK OFFICE
            </NavLink>
          )}
          <NotificationBell
            unreadCount={unreadCount}
            className="ml-auto inline-flex size-9 items-center justify-center rounded-lg text-navy-100 hover:bg-white/10 hover:text-white"
          />
        </nav>
      </div>
    </header>
  );
}

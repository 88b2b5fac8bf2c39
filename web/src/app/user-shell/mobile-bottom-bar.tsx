import { NavLink } from "react-router";
import { HistoryIcon, HomeIcon, WalletIcon } from "../../components/icons.tsx";
import { ThemeToggle } from "../../components/theme-toggle.tsx";
import { paths } from "../../paths.ts";

const itemClass =
  "flex flex-1 flex-col items-center justify-center gap-0.5 text-[11px] font-medium";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${itemClass} ${isActive ? "text-brand-600 dark:text-brand-400" : "text-slate-500 dark:text-slate-400"}`;

/** SPEC §2: mobile bottom bar with Dashboard, Deposit, History and Theme. */
export function MobileBottomBar() {
  return (
    <nav
      aria-label="Quick links"
      className="fixed inset-x-0 bottom-0 z-40 flex h-16 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden dark:border-navy-700 dark:bg-navy-900/95"
    >
      <NavLink to={paths.user.dashboard} className={linkClass}>
        <HomeIcon />
        Dashboard
      </NavLink>
      <NavLink to={paths.user.fundWallet} className={linkClass}>
        <WalletIcon />
        Deposit
      </NavLink>
      <NavLink to={paths.user.transactionHistory} className={linkClass}>
        <HistoryIcon />
        History
      </NavLink>
      <ThemeToggle showLabel className={`${itemClass} text-slate-500 dark:text-slate-400`} />
    </nav>
  );
}

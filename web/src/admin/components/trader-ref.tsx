import type { AdminTraderRef } from "@tp/domain/admin-api";
import { Link } from "react-router";
import { adminUserPath, displayName } from "./admin-format.ts";

/** Who a queue item belongs to: name, e-mail and id, linking to the user's page. */
export function TraderRef({ trader, link = true }: { trader: AdminTraderRef; link?: boolean }) {
  const name = displayName(trader.name, trader.email);
  return (
    <div className="min-w-0">
      <p className="truncate font-semibold text-slate-900 dark:text-white">
        {link ? (
          <Link
            to={adminUserPath(trader.id)}
            className="rounded underline-offset-2 hover:underline"
            onClick={(event) => event.stopPropagation()}
          >
            {name}
          </Link>
        ) : (
          name
        )}
        <span className="ml-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">
          #{trader.id}
        </span>
      </p>
      <p className="truncate text-xs text-slate-600 dark:text-slate-400">{trader.email}</p>
    </div>
  );
}

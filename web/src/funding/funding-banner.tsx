import { formatUsd } from "@tp/domain/money";
import type { ReactNode } from "react";
import { useAuth } from "../auth/auth-context.ts";
import { DocumentTitle } from "../components/document-title.tsx";

/**
 * SPEC §2 "Funding flow": the banner over deposit and withdraw, with the real balance (the
 * page puts the tabs that cross-link the two pages under it).
 */
export function FundingBanner({
  title,
  text,
  icon,
}: {
  title: string;
  text: string;
  icon: ReactNode;
}) {
  const { user } = useAuth();
  return (
    <>
      <DocumentTitle title={title} />
      <div className="mb-4 overflow-hidden rounded-2xl bg-gradient-to-br from-navy-800 via-navy-700 to-brand-700 p-5 text-white shadow-sm sm:p-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-start gap-3">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-white/15">
              {icon}
            </span>
            <div className="min-w-0">
              <h1 className="text-xl font-bold tracking-tight sm:text-2xl">{title}</h1>
              <p className="mt-1 text-sm text-white/80">{text}</p>
            </div>
          </div>
          {user ? (
            <div className="rounded-xl bg-white/10 px-4 py-3 sm:text-right">
              <p className="text-xs font-medium uppercase tracking-wide text-white/70">
                Real account balance
              </p>
              <p className="text-lg font-bold tabular-nums" data-testid="real-balance">
                {formatUsd(user.account.account_balance)}
              </p>
            </div>
          ) : null}
        </div>
      </div>
    </>
  );
}

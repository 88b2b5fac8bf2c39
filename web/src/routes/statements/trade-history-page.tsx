import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TradeView } from "@tp/domain/api";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { dashboard_stale_ms } from "../../api/polling.ts";
import {
  type AccountKind,
  history_page_size,
  tradeHistoryQueryOptions,
} from "../../api/trade-history.ts";
import { Card } from "../../components/card.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { QueryStates } from "../../components/query-states.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { TradeAuditDialog } from "../../components/trade-audit-dialog.tsx";
import { TradesTable } from "../../components/trades-table.tsx";
import { statementTabs } from "./statement-tabs.ts";

const accountTitles: Record<AccountKind, string> = {
  real: "Real Trading History",
  practice: "Practice Trading History",
};

function accountFrom(value: string | null): AccountKind {
  return value === "practice" ? "practice" : "real";
}

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * SPEC §2 "History pages": real and practice trades, 10 a page, newest first. The account
 * and page live in the address (?account=practice&page=2), so a reload or a shared link
 * shows the same page. A row opens the trade's audit (PRODUCT.md D1).
 */
export function TradeHistoryPage() {
  const [params, setParams] = useSearchParams();
  const account = accountFrom(params.get("account"));
  const page = pageFrom(params.get("page"));
  const [audited, setAudited] = useState<TradeView | null>(null);
  const history = useQuery({
    ...tradeHistoryQueryOptions(account, page, history_page_size),
    // SPEC §7: refetched on focus; settlements arrive live over the socket meanwhile.
    refetchOnWindowFocus: true,
    staleTime: dashboard_stale_ms,
    // Paging keeps the rows on screen until the next page arrives; another account does not.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === account ? keepPreviousData(previous) : undefined,
  });

  const show = (next: { account?: AccountKind; page?: number }) => {
    const nextAccount = next.account ?? account;
    const nextPage = next.page ?? 1;
    const search = new URLSearchParams();
    if (nextAccount === "practice") search.set("account", "practice");
    if (nextPage > 1) search.set("page", String(nextPage));
    setParams(search);
  };

  return (
    <>
      <PageTitle title="Trade History" description="Your real and practice trades, newest first." />
      <SectionTabs label="Statements" tabs={statementTabs} />
      <Card aria-labelledby="trade-history-title">
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="trade-history-title" className="text-lg font-semibold">
            {accountTitles[account]}
          </h2>
          <div
            role="tablist"
            aria-label="Account"
            className="inline-flex rounded-xl bg-slate-100 p-1 dark:bg-navy-800"
          >
            {(["real", "practice"] as const).map((kind) => (
              <button
                key={kind}
                type="button"
                role="tab"
                aria-selected={account === kind}
                aria-controls="trade-history-panel"
                onClick={() => show({ account: kind })}
                className={`rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors ${
                  account === kind
                    ? "bg-white text-navy-900 shadow-sm dark:bg-navy-600 dark:text-white"
                    : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
                }`}
              >
                {accountTitles[kind]}
              </button>
            ))}
          </div>
        </div>
        <div id="trade-history-panel" role="tabpanel" aria-labelledby="trade-history-title">
          <QueryStates
            query={history}
            loadingLabel="Loading trades"
            failureTitle="The trade history could not be loaded"
          >
            {(data) => (
              <TradesTable
                caption={accountTitles[account]}
                trades={data.data}
                onOpen={setAudited}
              />
            )}
          </QueryStates>
          <Pagination
            label={`${accountTitles[account]} pages`}
            current={history.data?.pagination.current_page ?? page}
            last={history.data?.pagination.last_page ?? 1}
            onPage={(next) => show({ page: next })}
          />
        </div>
      </Card>
      {audited ? <TradeAuditDialog trade={audited} onClose={() => setAudited(null)} /> : null}
    </>
  );
}

import type { TradeView } from "@tp/domain/api";
import { Link } from "react-router";
import {
  type AccountKind,
  history_page_size,
  type TradeHistoryPage,
} from "../../api/trade-history.ts";
import { type QueryLike, QueryStates } from "../../components/query-states.tsx";
import { TradesTable } from "../../components/trades-table.tsx";
import { paths } from "../../paths.ts";

/**
 * SPEC §2: the recent history under the chart — 10 rows, no pagination, live; a failed
 * read says so with Try again instead of looking like "No tradings found".
 */
export function RecentTrades({
  account,
  trades,
  onOpen,
}: {
  account: AccountKind;
  /** The dashboard's trade-history query (its first rows are the recent ones). */
  trades: QueryLike<TradeHistoryPage>;
  onOpen: (trade: TradeView) => void;
}) {
  const title = account === "practice" ? "Recent practice trades" : "Recent real trades";
  const historyLink =
    account === "practice"
      ? `${paths.user.tradeHistory}?account=practice`
      : paths.user.tradeHistory;
  return (
    <section
      aria-labelledby="recent-trades-title"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-navy-700 dark:bg-navy-900"
    >
      <div className="mb-2 flex items-center justify-between gap-3">
        <h2
          id="recent-trades-title"
          className="text-sm font-semibold text-slate-900 dark:text-white"
        >
          {title}
        </h2>
        <Link
          to={historyLink}
          className="text-sm font-semibold text-brand-600 hover:underline dark:text-brand-400"
        >
          Full history
        </Link>
      </div>
      <QueryStates
        query={trades}
        loadingLabel="Loading trades"
        failureTitle="Your trades could not be loaded"
      >
        {(page) => (
          <TradesTable
            caption={title}
            trades={page.data.slice(0, history_page_size)}
            showPrices
            onOpen={onOpen}
          />
        )}
      </QueryStates>
    </section>
  );
}

import type { TradeView } from "@tp/domain/api";
import { Link } from "react-router";
import type { AccountKind } from "../../api/trade-history.ts";
import { TradesTable } from "../../components/trades-table.tsx";
import { paths } from "../../paths.ts";

/** SPEC §2: the recent history under the chart — 10 rows, no pagination, live. */
export function RecentTrades({
  account,
  trades,
  isLoading,
  onOpen,
}: {
  account: AccountKind;
  trades: readonly TradeView[] | undefined;
  isLoading: boolean;
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
      <TradesTable
        caption={title}
        trades={trades}
        isLoading={isLoading}
        showPrices
        onOpen={onOpen}
      />
    </section>
  );
}

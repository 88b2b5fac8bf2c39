import { useQuery } from "@tanstack/react-query";
import { optionTypeLabels, optionTypes } from "@tp/domain/catalogue";
import { formatOpensIn } from "@tp/domain/market-hours";
import type { MarketHalt } from "@tp/domain/market-status-api";
import { formatUsd } from "@tp/domain/money";
import { useState } from "react";
import { marketHaltsQueryOptions } from "../../api/market-halts.ts";
import { fetchMarkets, type MarketView, marketsQueryKey } from "../../api/markets.ts";
import { EmptyState } from "../../components/empty-state.tsx";
import { CheckCircleIcon } from "../../components/icons.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { marketStateText, marketStateTone } from "../../components/market-state-text.ts";
import { Pagination } from "../../components/pagination.tsx";
import { PublicPage } from "../../components/public-page.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { directionLabel, formatDateTime } from "../../components/trade-format.ts";
import { useNow } from "../../components/use-now.ts";

/** The page reads the markets again this often: states change as feeds stall and markets open. */
const markets_refetch_ms = 15_000;

const panelClass =
  "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-navy-700 dark:bg-navy-900";

function StateBadge({ market, nowMs }: { market: MarketView; nowMs: number }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${marketStateTone(market.state)}`}
    >
      {marketStateText(market.state, market.next_open_at, nowMs)}
    </span>
  );
}

function MarketsNow() {
  const nowMs = useNow(30_000);
  const markets = useQuery({
    queryKey: marketsQueryKey,
    queryFn: ({ signal }) => fetchMarkets(signal),
    refetchInterval: markets_refetch_ms,
  });
  if (markets.isLoading) return <LoadingScreen label="Loading markets..." className="py-10" />;
  if (!markets.data) {
    return (
      <FailureState
        title="The markets could not be loaded"
        details={failureDetails(markets.error)}
        onRetry={() => void markets.refetch()}
        retrying={markets.isFetching}
      />
    );
  }
  const list = markets.data;
  const count = (state: MarketView["state"]) => list.filter((m) => m.state === state).length;
  const simulated = list.filter((market) => market.source === "simulated").length;
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Now: {count("open")} open, {count("closed")} closed, {count("halted")} halted.
      </p>
      {simulated > 0 ? (
        <p className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-200">
          <strong className="font-semibold">Simulated prices.</strong>{" "}
          {simulated === list.length
            ? "Every market here is priced by the platform's simulator, not by an exchange."
            : `${simulated} of ${list.length} markets are priced by the platform's simulator, not by an exchange.`}
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {optionTypes.map((type) => {
          const group = list.filter((market) => market.option_type === type);
          if (group.length === 0) return null;
          return (
            <section key={type} aria-labelledby={`markets-${type}`} className={panelClass}>
              <h3 id={`markets-${type}`} className="font-semibold text-navy-900 dark:text-white">
                {optionTypeLabels[type]}
              </h3>
              <ul className="mt-3 divide-y divide-slate-100 dark:divide-navy-800">
                {group.map((market) => (
                  <li
                    key={market.symbol}
                    className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2"
                  >
                    <span className="min-w-0 text-sm">
                      <span className="font-medium text-slate-900 dark:text-slate-100">
                        {market.name}
                      </span>{" "}
                      <span className="text-xs text-slate-500 dark:text-slate-400">
                        {market.symbol}
                      </span>
                    </span>
                    <StateBadge market={market} nowMs={nowMs} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </div>
  );
}

function haltDuration(halt: MarketHalt): string {
  if (halt.ended_at === null) return "Still halted";
  const lastedMs = Date.parse(halt.ended_at) - Date.parse(halt.started_at);
  if (lastedMs < 60_000) return `Lasted ${Math.max(1, Math.round(lastedMs / 1_000))} s`;
  return `Lasted ${formatOpensIn(lastedMs)}`;
}

function HaltCard({ halt }: { halt: MarketHalt }) {
  const ongoing = halt.ended_at === null;
  return (
    <article className={panelClass} aria-labelledby={`halt-${halt.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={`halt-${halt.id}`} className="font-semibold text-navy-900 dark:text-white">
            {halt.name} <span className="text-sm font-normal text-slate-500">{halt.symbol}</span>
          </h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            From {formatDateTime(halt.started_at)}
            {ongoing ? "" : ` to ${formatDateTime(halt.ended_at)}`} · source: {halt.source}
          </p>
        </div>
        <span
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            ongoing
              ? "bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300"
              : "bg-slate-200 text-slate-700 dark:bg-slate-500/20 dark:text-slate-300"
          }`}
        >
          {haltDuration(halt)}
        </span>
      </div>
      {halt.refunded_trades.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
          No trade expired during this halt, so none was refunded.
        </p>
      ) : (
        <div className="mt-4">
          <p className="text-sm font-medium text-slate-700 dark:text-slate-300">
            {halt.refunded_trades.length === 1
              ? "1 trade refunded in full"
              : `${halt.refunded_trades.length} trades refunded in full`}
          </p>
          <ul
            aria-label={`Trades refunded during the ${halt.symbol} halt`}
            className="mt-2 divide-y divide-slate-100 border-t border-slate-200 text-sm tabular-nums dark:divide-navy-800 dark:border-navy-700"
          >
            {halt.refunded_trades.map((trade) => (
              <li
                key={trade.id}
                title={trade.settlement_note ?? undefined}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2"
              >
                <span className="text-slate-800 dark:text-slate-200">
                  Trade #{trade.id} · {directionLabel(trade.direction)} ·{" "}
                  {trade.is_practice ? "Practice" : "Real"}
                </span>
                <span className="font-semibold text-navy-900 dark:text-white">
                  {formatUsd(trade.amount)} refunded
                </span>
                <span className="w-full text-xs text-slate-500 dark:text-slate-400">
                  Expired {formatDateTime(trade.expires_at)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </article>
  );
}

function HaltList() {
  const [page, setPage] = useState(1);
  const halts = useQuery(marketHaltsQueryOptions(page));
  if (halts.isLoading) return <LoadingScreen label="Loading halts..." className="py-10" />;
  if (!halts.data) {
    return (
      <FailureState
        title="The halts could not be loaded"
        details={failureDetails(halts.error)}
        onRetry={() => void halts.refetch()}
        retrying={halts.isFetching}
      />
    );
  }
  if (halts.data.data.length === 0) {
    return (
      <EmptyState
        icon={<CheckCircleIcon className="size-10" />}
        title="No halts recorded"
        text="No price feed has gone quiet long enough to pause trading, so no trade has been refunded for it."
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {halts.data.data.map((halt) => (
        <HaltCard key={halt.id} halt={halt} />
      ))}
      <Pagination
        current={halts.data.pagination.current_page}
        last={halts.data.pagination.last_page}
        onPage={setPage}
        label="Halt pages"
      />
    </div>
  );
}

/**
 * Public (issue 11, item 5): whether each market trades now, and the record of every feed
 * halt with the trades refunded because of it, so anyone can check the refund rule was kept.
 */
export function MarketStatusPage() {
  return (
    <PublicPage
      title="Market status"
      intro="Which markets trade now, every time a price feed stopped, and the trades refunded because of it."
    >
      <div className="flex flex-col gap-12">
        <section aria-labelledby="markets-now-title">
          <h2 id="markets-now-title" className="mb-4 text-2xl font-bold tracking-tight">
            Markets now
          </h2>
          <MarketsNow />
        </section>

        <section aria-labelledby="halt-rule-title" className={panelClass}>
          <h2 id="halt-rule-title" className="text-lg font-semibold text-navy-900 dark:text-white">
            What a halt is
          </h2>
          <div className="mt-2 flex flex-col gap-2 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
            <p>
              A market is halted when its price feed stops: the newest price is older than the few
              seconds a trade may be placed on. The market shows "Prices delayed — trading paused"
              and no new trade is accepted until live prices return. Closed markets are outside
              their trading hours; that is not a halt.
            </p>
            <p>
              A trade settles only on a price the platform received live at its expiry, never on a
              price that may be frozen.{" "}
              <strong className="font-semibold text-navy-900 dark:text-white">
                When the price feed was down across a trade's expiry, the stake is refunded in full.
              </strong>
            </p>
          </div>
        </section>

        <section aria-labelledby="halts-title">
          <h2 id="halts-title" className="mb-4 text-2xl font-bold tracking-tight">
            Halts and refunded trades
          </h2>
          <HaltList />
        </section>
      </div>
    </PublicPage>
  );
}

import { type BlockchainStats, marketInfoUiMessages } from "@tp/domain/market-info";
import type { ReactNode } from "react";
import { Card } from "../../components/card.tsx";
import { BlocksIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { formatDateTime } from "../../components/trade-format.ts";
import { useBlockchainStats } from "../../market-info/blockchain-stats-api.ts";
import { serverDetails } from "../../market-info/market-info-retry.ts";
import {
  formatBtc,
  formatHashRate,
  formatInteger,
  formatLarge,
  formatMinutes,
  formatUsd,
} from "../../market-info/stats-format.ts";
import { MarketInfoFailure, MarketInfoLoading } from "./market-info-states.tsx";

interface Stat {
  label: string;
  value: string;
}

function headline(stats: BlockchainStats): Stat[] {
  return [
    { label: "Market price", value: formatUsd(stats.market_price_usd) },
    { label: "Hash rate", value: formatHashRate(stats.hash_rate_hs) },
    { label: "Transactions (24h)", value: formatInteger(stats.transactions_24h) },
    { label: "Minutes between blocks", value: formatMinutes(stats.minutes_between_blocks) },
  ];
}

function network(stats: BlockchainStats): Stat[] {
  return [
    { label: "Difficulty", value: formatLarge(stats.difficulty) },
    { label: "Total blocks", value: formatInteger(stats.total_blocks) },
    {
      label: "Next difficulty adjustment at block",
      value: formatInteger(stats.next_retarget_block),
    },
    { label: "Bitcoins in circulation", value: formatBtc(stats.total_btc) },
  ];
}

function lastDay(stats: BlockchainStats): Stat[] {
  return [
    { label: "Blocks mined", value: formatInteger(stats.blocks_mined_24h) },
    { label: "Bitcoins mined", value: formatBtc(stats.btc_mined_24h) },
    { label: "Total fees", value: formatBtc(stats.total_fees_btc_24h) },
    { label: "Miners' revenue", value: formatUsd(stats.miners_revenue_usd_24h) },
    { label: "Miners' revenue (BTC)", value: formatBtc(stats.miners_revenue_btc_24h) },
    {
      label: "Estimated transaction volume",
      value: formatUsd(stats.estimated_transaction_volume_usd_24h),
    },
    { label: "Estimated bitcoins sent", value: formatBtc(stats.estimated_btc_sent_24h) },
    { label: "Exchange trade volume", value: formatUsd(stats.trade_volume_usd_24h) },
    { label: "Exchange trade volume (BTC)", value: formatBtc(stats.trade_volume_btc_24h) },
  ];
}

function StatList({ title, stats }: { title: string; stats: Stat[] }) {
  const id = `stats-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <Card aria-labelledby={id}>
      <h2 id={id} className="text-base font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      <dl className="mt-3 divide-y divide-slate-100 dark:divide-navy-800">
        {stats.map((stat) => (
          <div key={stat.label} className="flex items-baseline justify-between gap-4 py-2.5">
            <dt className="text-sm text-slate-600 dark:text-slate-400">{stat.label}</dt>
            <dd className="text-right text-sm font-semibold text-slate-900 tabular-nums dark:text-white">
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Stats({ stats, staleNotice }: { stats: BlockchainStats; staleNotice: ReactNode }) {
  return (
    <div className="flex flex-col gap-5">
      {staleNotice}
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
        {headline(stats).map((stat) => (
          <div
            key={stat.label}
            className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-navy-700 dark:bg-navy-900"
          >
            <dt className="text-xs font-medium text-slate-500 sm:text-sm dark:text-slate-400">
              {stat.label}
            </dt>
            <dd className="mt-1 text-lg font-bold text-slate-900 tabular-nums sm:text-2xl dark:text-white">
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="grid items-start gap-5 lg:grid-cols-2">
        <StatList title="Network" stats={network(stats)} />
        <StatList title="Last 24 hours" stats={lastDay(stats)} />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Source: {stats.source}. Figures as of {formatDateTime(stats.as_of)}, fetched{" "}
        {formatDateTime(stats.fetched_at)}. Refreshed every 30 seconds.
      </p>
    </div>
  );
}

/** SPEC §2 "Blockchain stats: Bitcoin statistics", polled every 30 s (§7, §9). */
export function BlockchainStatsPage() {
  const stats = useBlockchainStats();
  const details = serverDetails(stats.error);

  let body: ReactNode;
  if (stats.data) {
    body = (
      <Stats
        stats={stats.data}
        staleNotice={
          stats.isError ? (
            <p
              role="status"
              className="rounded-xl border border-amber-400/40 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
            >
              These figures could not be refreshed{details ? `: ${details}` : "."} Showing the last
              figures received.
            </p>
          ) : null
        }
      />
    );
  } else if (stats.isError) {
    body = (
      <MarketInfoFailure
        title={marketInfoUiMessages.noData}
        details={details ?? "The statistics could not be loaded. Please check your connection."}
        note="The page tries again every 30 seconds."
        onRetry={() => void stats.refetch()}
        retrying={stats.isFetching}
        icon={<BlocksIcon className="size-7" />}
      />
    );
  } else {
    body = <MarketInfoLoading label="Loading blockchain stats" />;
  }

  return (
    <>
      <PageTitle title="Blockchain Stats" description="Bitcoin network statistics." />
      {body}
    </>
  );
}

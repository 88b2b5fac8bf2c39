import { useQuery } from "@tanstack/react-query";
import type { FeedHealthView } from "@tp/domain/market-status-api";
import { Card } from "../../components/card.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { marketStateTone } from "../../components/market-state-text.ts";
import { PageTitle } from "../../components/page-title.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { feedHealthQuery } from "../api/feeds.ts";
import { formatDateTime } from "../components/admin-format.ts";
import { type Column, SimpleTable } from "../components/simple-table.tsx";

type AssetHealth = FeedHealthView["assets"][number];

const sourceLabels: Record<string, string> = {
  simulated: "Simulator",
  binance: "Binance",
  finnhub: "Finnhub",
};

const stateLabels: Record<AssetHealth["state"], string> = {
  open: "Open",
  closed: "Closed",
  halted: "Halted",
};

const tickTimeFormat = new Intl.DateTimeFormat("en-GB", {
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** "23 Nov, 22:25:03": ticks are seconds apart, so the seconds show. */
function tickTimeText(iso: string | null): string {
  return iso === null ? "—" : tickTimeFormat.format(new Date(iso));
}

/** "0.4 s", "12 s", "3 min 5 s", "2 h 4 min". */
function ageText(ageMs: number | null): string {
  if (ageMs === null) return "No tick yet";
  if (ageMs < 10_000) return `${(ageMs / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ageMs / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Past the entry limit while the market should trade: new trades on it are refused. A closed
 * market's old tick is expected, so it is not highlighted.
 */
function isStale(asset: AssetHealth): boolean {
  if (asset.state === "closed") return false;
  return asset.age_ms === null || asset.age_ms > asset.stale_after_ms;
}

/** Halted and stale assets on top, the rest in catalogue order: problems are seen first. */
function problemsFirst(assets: readonly AssetHealth[]): AssetHealth[] {
  const rank = (asset: AssetHealth) => (asset.state === "halted" ? 0 : isStale(asset) ? 1 : 2);
  return [...assets].sort((a, b) => rank(a) - rank(b));
}

const columns: ReadonlyArray<Column<AssetHealth>> = [
  { header: "Asset", cell: (asset) => <span className="font-medium">{asset.symbol}</span> },
  {
    header: "State",
    cell: (asset) => (
      <span
        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${marketStateTone(asset.state)}`}
      >
        {stateLabels[asset.state]}
      </span>
    ),
  },
  {
    header: "Age",
    align: "right",
    nowrap: true,
    cell: (asset) => (
      <span
        className={
          isStale(asset)
            ? "font-semibold text-red-700 dark:text-red-400"
            : "text-slate-700 dark:text-slate-300"
        }
      >
        {ageText(asset.age_ms)}
        {isStale(asset) ? <span className="sr-only"> (stale)</span> : null}
      </span>
    ),
  },
  { header: "Last tick", nowrap: true, cell: (asset) => tickTimeText(asset.last_tick_at) },
  { header: "Feed", cell: (asset) => sourceLabels[asset.source] ?? asset.source },
  {
    header: "Entry limit",
    align: "right",
    nowrap: true,
    cell: (asset) => `${(asset.stale_after_ms / 1_000).toFixed(1)} s`,
  },
];

function BusPanel({ bus }: { bus: FeedHealthView["bus"] }) {
  const label = bus.kind === "redis" ? "Redis event bus" : "In-process event bus (one server)";
  return (
    <Card as="div" className="!p-4">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        Event bus
      </p>
      <p className="mt-1 font-semibold">{label}</p>
      {bus.connected ? (
        <p className="mt-1 text-sm text-emerald-700 dark:text-emerald-400">Connected</p>
      ) : (
        <p role="alert" className="mt-1 text-sm font-semibold text-red-700 dark:text-red-400">
          Down since {formatDateTime(bus.down_since)}: every price on this server is treated as
          stale, so trading is paused here.
        </p>
      )}
    </Card>
  );
}

/**
 * Price feeds (issue 11, item 5): this server's view of the bus, the feeds and every asset's
 * state and tick age, read every few seconds. Each server keeps its own prices, so another
 * server of the same platform may see them differently.
 */
export function FeedsPage() {
  const query = useQuery(feedHealthQuery());
  const health = query.data;
  const staleCount = health?.assets.filter((asset) => asset.state === "halted").length ?? 0;
  return (
    <>
      <PageTitle
        title="Price feeds"
        description="This server's view of the event bus, each price feed and every asset, refreshed every few seconds."
      />
      {query.isLoading ? (
        <LoadingScreen label="Reading the feeds..." />
      ) : !health ? (
        <FailureState
          title="The feeds could not be read"
          details={failureDetails(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <div className="flex flex-col gap-6">
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            <BusPanel bus={health.bus} />
            {health.sources.map((source) => (
              <Card as="div" className="!p-4" key={source.source}>
                <p className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
                  Feed
                </p>
                <p className="mt-1 font-semibold">{sourceLabels[source.source] ?? source.source}</p>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {source.symbols} {source.symbols === 1 ? "asset" : "assets"} ·{" "}
                  {source.ingesting_here
                    ? "ingested by this server"
                    : "not ingested here: the server holding it sends its prices over the bus"}
                </p>
              </Card>
            ))}
          </div>
          <Card aria-labelledby="assets-title">
            <h2 id="assets-title" className="mb-1 font-semibold">
              Assets
            </h2>
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
              {staleCount === 0
                ? "No asset is halted."
                : `${staleCount} ${staleCount === 1 ? "asset is" : "assets are"} halted: their newest tick is older than the entry limit.`}{" "}
              Halted assets are listed first; ages in red are past the entry limit on a market that
              should be trading.
            </p>
            <SimpleTable
              caption="Every asset's feed state"
              columns={columns}
              rows={problemsFirst(health.assets)}
              rowKey={(asset) => asset.symbol}
              emptyText="No assets."
            />
          </Card>
        </div>
      )}
    </>
  );
}

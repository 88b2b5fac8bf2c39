import { assetsOfType, findAsset, type OptionType } from "@tp/domain/catalogue";
import { useState } from "react";
import type { MarketView } from "../../api/markets.ts";
import {
  FailureState,
  failureDetails,
  type QueryLike,
  StaleNotice,
} from "../../components/query-states.tsx";
import { formatPrice } from "../../components/trade-format.ts";
import { useLivePrices } from "../../stream/stream-context.ts";
import { changeTone, formatChange, liveChangePercent } from "./market-change.ts";
import { MarketStateTag } from "./market-state-tag.tsx";
import { SimulatedPricesLabel } from "./simulated-prices-label.tsx";

/**
 * SPEC §2's Forex, Crypto and Stock switch, with Commodities and Indices added (issue 11):
 * every asset the trade box can trade is in the panel.
 */
const overviewTabs: ReadonlyArray<{ type: OptionType; label: string }> = [
  { type: "forex", label: "Forex" },
  { type: "crypto", label: "Crypto" },
  { type: "stocks", label: "Stock" },
  { type: "commodities", label: "Commodities" },
  { type: "indices", label: "Indices" },
];

function tabOf(symbol: string): OptionType {
  return findAsset(symbol)?.optionType ?? "forex";
}

/**
 * The left panel (a slide-over on small screens): last price and 24 h change of each market
 * of the chosen kind, live. Picking one shows it on the chart and in the trade form.
 */
export function MarketOverview({
  markets,
  marketsQuery,
  selected,
  onPick,
}: {
  markets: ReadonlyMap<string, MarketView>;
  /** GET /markets as the dashboard reads it: its failure is shown, not left as "—". */
  marketsQuery: QueryLike<unknown>;
  selected: string;
  onPick: (symbol: string) => void;
}) {
  const [tab, setTab] = useState<OptionType>(() => tabOf(selected));
  // An asset selected elsewhere (trade box, ticker) opens its kind here, so it is seen.
  const [tabFor, setTabFor] = useState(selected);
  if (tabFor !== selected) {
    setTabFor(selected);
    setTab(tabOf(selected));
  }
  const assets = assetsOfType(tab);
  const livePrice = useLivePrices(assets.map((asset) => asset.symbol));
  const simulated = assets.some(
    (asset) =>
      (livePrice(asset.symbol)?.source ?? markets.get(asset.symbol)?.source) === "simulated",
  );

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-4">
        <h2
          id="market-overview-title"
          className="text-sm font-semibold text-slate-900 dark:text-white"
        >
          Markets
        </h2>
        {simulated ? <SimulatedPricesLabel /> : null}
      </div>
      <div
        role="tablist"
        aria-label="Market kind"
        className="mx-4 mt-3 flex flex-wrap gap-0.5 rounded-lg bg-slate-100 p-0.5 dark:bg-navy-800"
      >
        {overviewTabs.map((item) => (
          <button
            key={item.type}
            type="button"
            role="tab"
            aria-selected={tab === item.type}
            aria-controls="market-overview-list"
            onClick={() => setTab(item.type)}
            className={`grow rounded-md px-2 py-1.5 text-xs font-semibold transition-colors ${
              tab === item.type
                ? "bg-white text-navy-900 shadow-sm dark:bg-navy-600 dark:text-white"
                : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
            }`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <MarketsReadState query={marketsQuery} />
      {/* The tab panel holds the list: a <ul> given the tabpanel role is no list, and its
          items would be list items outside any list. */}
      <div
        id="market-overview-list"
        role="tabpanel"
        aria-labelledby="market-overview-title"
        className="mt-2 min-h-0 flex-1 overflow-y-auto px-2 pb-3"
      >
        <ul aria-labelledby="market-overview-title">
          {assets.map((asset) => {
            const market = markets.get(asset.symbol);
            const live = livePrice(asset.symbol);
            const change = liveChangePercent(market, live);
            const isSelected = asset.symbol === selected;
            return (
              <li key={asset.symbol}>
                <button
                  type="button"
                  aria-pressed={isSelected}
                  onClick={() => onPick(asset.symbol)}
                  className={`flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left transition-colors ${
                    isSelected
                      ? "bg-brand-600/10 ring-1 ring-brand-500/30 dark:bg-brand-500/15"
                      : "hover:bg-slate-50 dark:hover:bg-navy-800"
                  }`}
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">
                      {asset.symbol}
                    </span>
                    {/* The mark shares the name's line: the symbol is never cut for it. */}
                    <span className="flex items-center gap-1.5">
                      <span className="truncate text-xs text-slate-500 dark:text-slate-400">
                        {asset.name}
                      </span>
                      <MarketStateTag market={market} />
                    </span>
                  </span>
                  <span className="text-right tabular-nums">
                    <span className="block text-sm font-medium text-slate-900 dark:text-slate-100">
                      {formatPrice(asset.symbol, live?.price ?? market?.price)}
                    </span>
                    <span className={`block text-xs font-semibold ${changeTone(change)}`}>
                      {formatChange(change)}
                    </span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

/**
 * The markets read's state above the list: the assets are known without it, but their
 * prices are not, so a failure says so (with Try again) and a first load says it is loading.
 */
function MarketsReadState({ query }: { query: QueryLike<unknown> }) {
  const retry = () => void query.refetch();
  if (query.isError && query.data === undefined) {
    return (
      <FailureState
        title="Prices could not be loaded"
        details={failureDetails(query.error)}
        onRetry={retry}
        retrying={query.isFetching}
      />
    );
  }
  if (query.isError) {
    return (
      <div className="px-2 pt-2">
        <StaleNotice onRetry={retry} retrying={query.isFetching} />
      </div>
    );
  }
  if (query.isPending) {
    return (
      <p role="status" className="px-4 pt-2 text-xs text-slate-500 dark:text-slate-400">
        Loading prices...
      </p>
    );
  }
  return null;
}

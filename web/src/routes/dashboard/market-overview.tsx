import { assetsOfType, type OptionType } from "@tp/domain/catalogue";
import { useState } from "react";
import type { MarketView } from "../../api/markets.ts";
import { formatPrice } from "../../components/trade-format.ts";
import { useLivePrices } from "../../stream/stream-context.ts";
import { changeTone, formatChange, liveChangePercent } from "./market-change.ts";
import { SimulatedPricesLabel } from "./simulated-prices-label.tsx";

/** SPEC §2: the market overview switches between Forex, Crypto and Stock. */
const overviewTabs: ReadonlyArray<{ type: OptionType; label: string }> = [
  { type: "forex", label: "Forex" },
  { type: "crypto", label: "Crypto" },
  { type: "stocks", label: "Stock" },
];

function tabOf(symbol: string): OptionType {
  for (const tab of overviewTabs) {
    if (assetsOfType(tab.type).some((asset) => asset.symbol === symbol)) return tab.type;
  }
  return "forex";
}

/**
 * The left panel (a slide-over on small screens): last price and 24 h change of each market
 * of the chosen kind, live. Picking one shows it on the chart and in the trade form.
 */
export function MarketOverview({
  markets,
  selected,
  onPick,
}: {
  markets: ReadonlyMap<string, MarketView>;
  selected: string;
  onPick: (symbol: string) => void;
}) {
  const [tab, setTab] = useState<OptionType>(() => tabOf(selected));
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
        className="mx-4 mt-3 grid grid-cols-3 rounded-lg bg-slate-100 p-0.5 dark:bg-navy-800"
      >
        {overviewTabs.map((item) => (
          <button
            key={item.type}
            type="button"
            role="tab"
            aria-selected={tab === item.type}
            aria-controls="market-overview-list"
            onClick={() => setTab(item.type)}
            className={`rounded-md px-2 py-1.5 text-xs font-semibold transition-colors ${
              tab === item.type
                ? "bg-white text-navy-900 shadow-sm dark:bg-navy-600 dark:text-white"
                : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
            }`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <ul
        id="market-overview-list"
        role="tabpanel"
        aria-labelledby="market-overview-title"
        className="mt-2 min-h-0 flex-1 overflow-y-auto px-2 pb-3"
      >
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
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    {asset.name}
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
  );
}

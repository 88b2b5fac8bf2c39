import { type CandleInterval, candleIntervals } from "../../api/candles.ts";
import type { MarketView } from "../../api/markets.ts";
import { formatPrice } from "../../components/trade-format.ts";
import type { LivePrice } from "../../stream/live-prices.ts";
import { PlatformClock } from "./platform-clock.tsx";
import { SimulatedPricesLabel } from "./simulated-prices-label.tsx";

const intervalLabels: Record<CandleInterval, string> = { "1s": "1s", "1m": "1m" };

/**
 * The chart's title bar: the symbol and asset name, the last price (or "Market closed"),
 * the bar interval buttons and the platform clock.
 */
export function PriceChartHeader({
  symbol,
  label,
  assetName,
  market,
  price,
  barInterval,
  onBarInterval,
  now,
}: {
  symbol: string;
  /** The chart's name of the symbol, e.g. "EUR/USD". */
  label: string;
  assetName: string;
  market: MarketView | undefined;
  price: LivePrice | undefined;
  barInterval: CandleInterval;
  onBarInterval: (interval: CandleInterval) => void;
  now: number;
}) {
  const source = price?.source ?? market?.source ?? null;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-3 dark:border-navy-700">
      <div className="min-w-0">
        <h2
          id="price-chart-title"
          data-testid="chart-symbol"
          className="truncate text-base font-bold tracking-tight text-slate-900 dark:text-white"
        >
          {label}
        </h2>
        <p className="flex items-center gap-2 truncate text-xs text-slate-500 dark:text-slate-400">
          {assetName}
          {source === "simulated" ? <SimulatedPricesLabel compact /> : null}
        </p>
      </div>
      <p className="text-lg font-semibold tabular-nums text-slate-900 dark:text-white">
        <span className="sr-only">Last price </span>
        {formatPrice(symbol, price?.price ?? market?.price)}
      </p>
      {market && !market.is_open && price === undefined ? (
        <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700 dark:bg-navy-700 dark:text-slate-200">
          Market closed
        </span>
      ) : null}
      <div className="ml-auto flex items-center gap-3">
        <BarIntervalPicker value={barInterval} onChange={onBarInterval} />
        <PlatformClock now={now} />
      </div>
    </div>
  );
}

function BarIntervalPicker({
  value,
  onChange,
}: {
  value: CandleInterval;
  onChange: (interval: CandleInterval) => void;
}) {
  return (
    <fieldset className="flex rounded-lg bg-slate-100 p-0.5 dark:bg-navy-800">
      <legend className="sr-only">Bar interval</legend>
      {candleIntervals.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded-md px-2.5 py-1 text-xs font-semibold transition-colors ${
            value === option
              ? "bg-white text-navy-900 shadow-sm dark:bg-navy-600 dark:text-white"
              : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
          }`}
        >
          {intervalLabels[option]}
        </button>
      ))}
    </fieldset>
  );
}

import { type CandleInterval, candleIntervals } from "../../api/candles.ts";
import type { MarketView } from "../../api/markets.ts";
import { formatPrice } from "../../components/trade-format.ts";
import type { LivePrice } from "../../stream/live-prices.ts";
import { ChartIndicatorMenu } from "./chart-indicator-menu.tsx";
import {
  type ChartType,
  chartTypeLabels,
  chartTypes,
  type IndicatorSettings,
} from "./chart-settings.ts";
import { PlatformClock } from "./platform-clock.tsx";
import { SimulatedPricesLabel } from "./simulated-prices-label.tsx";

const intervalLabels: Record<CandleInterval, string> = {
  "1s": "1s",
  "1m": "1m",
  "5m": "5m",
  "15m": "15m",
  "1h": "1h",
  "4h": "4h",
  "1d": "1D",
};

/** What a screen reader says for each interval button (the buttons show "1m", "4h"…). */
const intervalNames: Record<CandleInterval, string> = {
  "1s": "1 second",
  "1m": "1 minute",
  "5m": "5 minutes",
  "15m": "15 minutes",
  "1h": "1 hour",
  "4h": "4 hours",
  "1d": "1 day",
};

/**
 * The chart's title bar: the symbol and asset name, the last price (or "Market closed"),
 * the platform clock, and the chart's controls (type, bar interval, indicators), which
 * wrap onto their own line on a narrow screen.
 */
export function PriceChartHeader({
  symbol,
  label,
  assetName,
  market,
  price,
  barInterval,
  onBarInterval,
  chartType,
  onChartType,
  indicators,
  onIndicators,
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
  chartType: ChartType;
  onChartType: (type: ChartType) => void;
  indicators: IndicatorSettings;
  onIndicators: (indicators: IndicatorSettings) => void;
  now: number;
}) {
  const source = price?.source ?? market?.source ?? null;
  return (
    <div className="relative border-b border-slate-200 px-4 py-3 dark:border-navy-700">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
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
        <div className="ml-auto">
          <PlatformClock now={now} />
        </div>
      </div>
      <div
        role="toolbar"
        aria-label="Chart settings"
        className="mt-2 flex flex-wrap items-center gap-2"
      >
        <ChartTypePicker value={chartType} onChange={onChartType} />
        <BarIntervalPicker value={barInterval} onChange={onBarInterval} />
        <BarIntervalSelect value={barInterval} onChange={onBarInterval} />
        <ChartIndicatorMenu value={indicators} onChange={onIndicators} />
      </div>
    </div>
  );
}

const select_classes =
  "h-8 rounded-lg border border-slate-200 bg-slate-100 py-0 pr-7 pl-2.5 text-xs font-semibold text-slate-700 hover:text-slate-900 dark:border-navy-700 dark:bg-navy-800 dark:text-slate-200";

function ChartTypePicker({
  value,
  onChange,
}: {
  value: ChartType;
  onChange: (type: ChartType) => void;
}) {
  return (
    <label className="relative">
      <span className="sr-only">Chart type</span>
      <select
        data-testid="chart-type"
        value={value}
        onChange={(event) => onChange(event.target.value as ChartType)}
        className={select_classes}
      >
        {chartTypes.map((option) => (
          <option key={option} value={option}>
            {chartTypeLabels[option]}
          </option>
        ))}
      </select>
    </label>
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
    <fieldset className="hidden h-8 items-center rounded-lg bg-slate-100 p-0.5 sm:flex dark:bg-navy-800">
      <legend className="sr-only">Bar interval</legend>
      {candleIntervals.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`h-7 min-w-7 rounded-md px-1.5 text-xs font-semibold transition-colors sm:px-2.5 ${
            value === option
              ? "bg-white text-navy-900 shadow-sm dark:bg-navy-600 dark:text-white"
              : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
          }`}
        >
          {/* The name starts with what the button shows (WCAG 2.5.3: a speech user says
              "1m"), and the full words follow for a screen reader. */}
          {intervalLabels[option]}
          <span className="sr-only"> ({intervalNames[option]})</span>
        </button>
      ))}
    </fieldset>
  );
}

/** Below 640 px the seven interval buttons do not fit beside the other controls: a list. */
function BarIntervalSelect({
  value,
  onChange,
}: {
  value: CandleInterval;
  onChange: (interval: CandleInterval) => void;
}) {
  return (
    <label className="sm:hidden">
      <span className="sr-only">Bar interval</span>
      <select
        data-testid="chart-interval"
        value={value}
        onChange={(event) => onChange(event.target.value as CandleInterval)}
        className={select_classes}
      >
        {candleIntervals.map((option) => (
          <option key={option} value={option} aria-label={intervalNames[option]}>
            {intervalLabels[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

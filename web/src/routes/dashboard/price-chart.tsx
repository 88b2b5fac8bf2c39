import type { TradeView } from "@tp/domain/api";
import { chartSymbol, findAsset } from "@tp/domain/catalogue";
import { formatUsd } from "@tp/domain/money";
import type {
  CandlestickData,
  IChartApi,
  IPriceLine,
  ISeriesApi,
  UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef, useState } from "react";
import {
  type Candle,
  type CandleInterval,
  candle_interval_ms,
  candleIntervals,
  fetchCandles,
} from "../../api/candles.ts";
import type { MarketView } from "../../api/markets.ts";
import { SpinnerIcon } from "../../components/icons.tsx";
import { directionLabel, formatCountdown, formatPrice } from "../../components/trade-format.ts";
import { useNow } from "../../components/use-now.ts";
import type { LivePrice } from "../../stream/live-prices.ts";
import { useLivePrices, useStream } from "../../stream/stream-context.ts";
import { useDocumentTheme } from "../../theme/use-document-theme.ts";
import { baseOptions, candle_down_color, candle_up_color, themeOptions } from "./chart-options.ts";
import { PlatformClock } from "./platform-clock.tsx";
import { SimulatedPricesLabel } from "./simulated-prices-label.tsx";

/** SPEC §4: the chart is re-created this long after the asset changes. */
export const chart_recreate_delay_ms = 300;
/** SPEC §4: "Default symbol EURUSD, interval 1" — one-minute bars. */
export const default_chart_interval: CandleInterval = "1m";

/**
 * lightweight-charts draws on canvas and sizes itself with a ResizeObserver; a browser
 * without one (jsdom in the component tests) gets the frame of the chart without the canvas.
 */
export function chartsSupported(): boolean {
  return typeof window !== "undefined" && typeof window.ResizeObserver === "function";
}

interface BuiltChart {
  chart: IChartApi;
  series: ISeriesApi<"Candlestick">;
  lastBar: CandlestickData<UTCTimestamp> | null;
  lines: Map<number, IPriceLine>;
}

function barOf(candle: Candle): CandlestickData<UTCTimestamp> {
  return {
    time: Math.floor(candle.time / 1000) as UTCTimestamp,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
  };
}

/** Folds one price into the newest bar, or opens the next bar when its interval began. */
function applyPrice(built: BuiltChart, price: LivePrice, interval: CandleInterval): void {
  const size = candle_interval_ms[interval];
  const time = (Math.floor(price.atMs / size) * (size / 1000)) as UTCTimestamp;
  const last = built.lastBar;
  if (last !== null && time < last.time) return;
  const bar =
    last !== null && time === last.time
      ? {
          time,
          open: last.open,
          high: Math.max(last.high, price.price),
          low: Math.min(last.low, price.price),
          close: price.price,
        }
      : { time, open: price.price, high: price.price, low: price.price, close: price.price };
  built.series.update(bar);
  built.lastBar = bar;
}

const intervalLabels: Record<CandleInterval, string> = { "1s": "1s", "1m": "1m" };

/**
 * The live chart (SPEC §4 "Chart", PRODUCT.md D3): candles from GET /candles, then every
 * tick of the platform's own stream, so what is drawn is what settles. The trader's open
 * trades on this asset are entry-price lines with the time left.
 */
export function PriceChart({
  symbol,
  market,
  openTrades,
  switching,
}: {
  symbol: string;
  market: MarketView | undefined;
  openTrades: readonly TradeView[];
  switching: boolean;
}) {
  const { prices } = useStream();
  const price = useLivePrices([symbol])(symbol);
  const theme = useDocumentTheme();
  const themeRef = useRef(theme);
  themeRef.current = theme;
  const containerRef = useRef<HTMLDivElement>(null);
  const builtRef = useRef<BuiltChart | null>(null);
  const [barInterval, setBarInterval] = useState<CandleInterval>(default_chart_interval);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  /** Drawn, but nothing to draw: no history and no price yet (a closed or new market). */
  const [empty, setEmpty] = useState(false);
  const supported = chartsSupported();
  const now = useNow();
  const asset = findAsset(symbol);
  const label = asset ? chartSymbol(asset) : symbol;
  const chartKey = `${symbol}/${barInterval}`;
  const source = price?.source ?? market?.source ?? null;

  useEffect(() => {
    if (!supported) return;
    let cancelled = false;
    let stopTicks: (() => void) | null = null;
    const controller = new AbortController();
    setFailed(false);
    // SPEC §4: re-created 300 ms after the asset changes (a quick run of clicks builds once).
    const timer = setTimeout(async () => {
      try {
        const lib = await import("lightweight-charts");
        const container = containerRef.current;
        if (cancelled || container === null) return;
        const chart = lib.createChart(
          container,
          baseOptions(themeRef.current, barInterval === "1s"),
        );
        const precision = asset?.precision ?? 2;
        const series = chart.addSeries(lib.CandlestickSeries, {
          upColor: candle_up_color,
          downColor: candle_down_color,
          borderUpColor: candle_up_color,
          borderDownColor: candle_down_color,
          wickUpColor: candle_up_color,
          wickDownColor: candle_down_color,
          priceFormat: { type: "price", precision, minMove: 10 ** -precision },
        });
        const built: BuiltChart = { chart, series, lastBar: null, lines: new Map() };
        builtRef.current = built;
        let candles: Candle[] = [];
        try {
          candles = await fetchCandles(symbol, barInterval, controller.signal);
        } catch {
          // No history (yet): the chart starts from the live ticks.
        }
        if (cancelled) return;
        const bars = candles.map(barOf);
        series.setData(bars);
        built.lastBar = bars[bars.length - 1] ?? null;
        const known = prices.get(symbol);
        if (known) applyPrice(built, known, barInterval);
        setEmpty(built.lastBar === null);
        stopTicks = prices.onSymbol(symbol, (next) => {
          applyPrice(built, next, barInterval);
          setEmpty(false);
        });
        chart.timeScale().scrollToRealTime();
        setLoadedFor(`${symbol}/${barInterval}`);
      } catch {
        if (!cancelled) setFailed(true);
      }
    }, chart_recreate_delay_ms);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      controller.abort();
      stopTicks?.();
      builtRef.current?.chart.remove();
      builtRef.current = null;
      setLoadedFor(null);
    };
  }, [symbol, barInterval, supported, prices, asset?.precision]);

  useEffect(() => {
    builtRef.current?.chart.applyOptions(themeOptions(theme));
  }, [theme]);

  // Open trades as entry lines, their titles counting down each second.
  const ready = loadedFor === chartKey;
  useEffect(() => {
    const built = builtRef.current;
    if (!ready || built === null) return;
    const wanted = new Set<number>();
    for (const trade of openTrades) {
      if (trade.asset !== symbol || trade.status !== "open") continue;
      wanted.add(trade.id);
      const left = Date.parse(trade.expires_at) - now;
      const title = `${directionLabel(trade.type).toUpperCase()} ${formatUsd(trade.amount)} · ${
        left > 0 ? formatCountdown(left) : "settling"
      }`;
      const line = built.lines.get(trade.id);
      if (line) {
        line.applyOptions({ title });
      } else {
        const color = trade.type === "call" ? candle_up_color : candle_down_color;
        built.lines.set(
          trade.id,
          built.series.createPriceLine({
            price: trade.entry_price,
            color,
            lineWidth: 2,
            lineStyle: 2,
            axisLabelVisible: true,
            title,
          }),
        );
      }
    }
    for (const [id, line] of built.lines) {
      if (wanted.has(id)) continue;
      built.series.removePriceLine(line);
      built.lines.delete(id);
    }
  }, [ready, openTrades, symbol, now]);

  const busy = switching || (supported && !ready && !failed);
  const lineTrades = openTrades.filter(
    (trade) => trade.asset === symbol && trade.status === "open",
  );

  return (
    <section
      aria-labelledby="price-chart-title"
      className="flex min-w-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-navy-700 dark:bg-navy-900"
    >
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
            {asset?.name ?? symbol}
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
          <fieldset className="flex rounded-lg bg-slate-100 p-0.5 dark:bg-navy-800">
            <legend className="sr-only">Bar interval</legend>
            {candleIntervals.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={barInterval === option}
                onClick={() => setBarInterval(option)}
                className={`rounded-md px-2.5 py-1 text-xs font-semibold transition-colors ${
                  barInterval === option
                    ? "bg-white text-navy-900 shadow-sm dark:bg-navy-600 dark:text-white"
                    : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
                }`}
              >
                {intervalLabels[option]}
              </button>
            ))}
          </fieldset>
          <PlatformClock now={now} />
        </div>
      </div>
      <div className="relative h-[360px] sm:h-[460px] lg:h-[600px]">
        <div
          ref={containerRef}
          data-testid="price-chart"
          data-chart-theme={theme}
          className={`absolute inset-0 ${busy ? "invisible" : ""}`}
        />
        {!supported || failed ? (
          <div className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-slate-500 dark:text-slate-400">
            {failed
              ? "The chart could not be drawn. Prices and trading still work."
              : "This browser cannot draw the chart. Prices and trading still work."}
          </div>
        ) : null}
        {empty && ready && !busy ? (
          <div className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-slate-500 dark:text-slate-400">
            No prices for {label} yet: the market may be closed. The chart starts with the first
            price.
          </div>
        ) : null}
        {busy ? (
          <div
            role="status"
            className="absolute inset-0 flex items-center justify-center gap-3 text-sm font-medium text-slate-500 dark:text-slate-400"
          >
            <SpinnerIcon className="size-6 text-brand-500" />
            <span>Loading {label} chart</span>
          </div>
        ) : null}
        {lineTrades.length > 0 ? (
          <p className="sr-only">
            {lineTrades
              .map(
                (trade) =>
                  `${directionLabel(trade.type)} at ${formatPrice(symbol, trade.entry_price)}, ${formatCountdown(
                    Date.parse(trade.expires_at) - now,
                  )} left`,
              )
              .join("; ")}
          </p>
        ) : null}
      </div>
      <p className="border-t border-slate-200 px-4 py-2 text-[11px] text-slate-500 dark:border-navy-700 dark:text-slate-400">
        Prices from this platform's own feed: the chart shows the prices trades settle at. Charting
        by{" "}
        <a
          href="https://www.tradingview.com/"
          target="_blank"
          rel="noopener noreferrer"
          className="underline underline-offset-2 hover:text-slate-700 dark:hover:text-slate-200"
        >
          TradingView Lightweight Charts™
        </a>
        .
      </p>
    </section>
  );
}

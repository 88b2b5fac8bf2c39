import type {
  CandlestickData,
  IChartApi,
  IPriceLine,
  ISeriesApi,
  UTCTimestamp,
} from "lightweight-charts";
import { type RefObject, useEffect, useRef, useState } from "react";
import {
  type Candle,
  type CandleInterval,
  candle_interval_ms,
  fetchCandles,
} from "../../api/candles.ts";
import type { LivePrice } from "../../stream/live-prices.ts";
import { useStream } from "../../stream/stream-context.ts";
import type { Theme } from "../../theme/theme-context.ts";
import { baseOptions, candle_down_color, candle_up_color, themeOptions } from "./chart-options.ts";

/** SPEC §4: the chart is re-created this long after the asset changes. */
export const chart_recreate_delay_ms = 300;

/**
 * lightweight-charts draws on canvas and sizes itself with a ResizeObserver; a browser
 * without one (jsdom in the component tests) gets the frame of the chart without the canvas.
 */
export function chartsSupported(): boolean {
  return typeof window !== "undefined" && typeof window.ResizeObserver === "function";
}

/** The drawn chart: its candle series, the newest bar, and the open trades' entry lines. */
export interface BuiltChart {
  chart: IChartApi;
  series: ISeriesApi<"Candlestick">;
  lastBar: CandlestickData<UTCTimestamp> | null;
  lines: Map<number, IPriceLine>;
}

export interface CandleChart {
  /** The element the chart draws into. */
  containerRef: RefObject<HTMLDivElement | null>;
  /** The chart once built, null before and after. */
  builtRef: RefObject<BuiltChart | null>;
  supported: boolean;
  /** Built and filled for the symbol and interval asked for. */
  ready: boolean;
  failed: boolean;
  /** Drawn, but nothing to draw: no history and no price yet (a closed or new market). */
  empty: boolean;
}

type ChartsLibrary = typeof import("lightweight-charts");

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

/** An empty candlestick chart in the container, in our colours and the asset's precision. */
function createCandleChart(
  lib: ChartsLibrary,
  container: HTMLDivElement,
  theme: Theme,
  interval: CandleInterval,
  precision: number,
): BuiltChart {
  const chart = lib.createChart(container, baseOptions(theme, interval === "1s"));
  const series = chart.addSeries(lib.CandlestickSeries, {
    upColor: candle_up_color,
    downColor: candle_down_color,
    borderUpColor: candle_up_color,
    borderDownColor: candle_down_color,
    wickUpColor: candle_up_color,
    wickDownColor: candle_down_color,
    priceFormat: { type: "price", precision, minMove: 10 ** -precision },
  });
  return { chart, series, lastBar: null, lines: new Map() };
}

/**
 * The candles of one symbol and interval: history from GET /candles, then every tick of the
 * platform's own stream, so what is drawn is what settles. Follows the page's theme.
 */
export function useCandleChart(
  symbol: string,
  barInterval: CandleInterval,
  assetPrecision: number | undefined,
  theme: Theme,
): CandleChart {
  const { prices } = useStream();
  const themeRef = useRef(theme);
  themeRef.current = theme;
  const containerRef = useRef<HTMLDivElement>(null);
  const builtRef = useRef<BuiltChart | null>(null);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [empty, setEmpty] = useState(false);
  const supported = chartsSupported();

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
        const precision = assetPrecision ?? 2;
        const built = createCandleChart(lib, container, themeRef.current, barInterval, precision);
        builtRef.current = built;
        let candles: Candle[] = [];
        try {
          candles = await fetchCandles(symbol, barInterval, controller.signal);
        } catch {
          // No history (yet): the chart starts from the live ticks.
        }
        if (cancelled) return;
        const bars = candles.map(barOf);
        built.series.setData(bars);
        built.lastBar = bars[bars.length - 1] ?? null;
        const known = prices.get(symbol);
        if (known) applyPrice(built, known, barInterval);
        setEmpty(built.lastBar === null);
        stopTicks = prices.onSymbol(symbol, (next) => {
          applyPrice(built, next, barInterval);
          setEmpty(false);
        });
        built.chart.timeScale().scrollToRealTime();
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
  }, [symbol, barInterval, supported, prices, assetPrecision]);

  useEffect(() => {
    builtRef.current?.chart.applyOptions(themeOptions(theme));
  }, [theme]);

  const ready = loadedFor === `${symbol}/${barInterval}`;
  return { containerRef, builtRef, supported, ready, failed, empty };
}

import type { MouseEventParams, Time } from "lightweight-charts";
import { type RefObject, useEffect, useRef, useState } from "react";
import { type Candle, type CandleInterval, fetchCandles } from "../../api/candles.ts";
import type { LivePrice } from "../../stream/live-prices.ts";
import { useStream, useStreamResync } from "../../stream/stream-context.ts";
import type { Theme } from "../../theme/theme-context.ts";
import { barOf, ChartDrawing, type LegendValues } from "./chart-drawing.ts";
import { themeOptions } from "./chart-options.ts";
import type { ChartType, IndicatorSettings } from "./chart-settings.ts";

/** SPEC §4: the chart is re-created this long after the asset changes. */
export const chart_recreate_delay_ms = 300;

/** GET /candles answers at most this many: a full reply may have left older ones out. */
const candles_reply_max = 1_000;

/**
 * lightweight-charts draws on canvas and sizes itself with a ResizeObserver; a browser
 * without one (jsdom in the component tests) gets the frame of the chart without the canvas.
 */
export function chartsSupported(): boolean {
  return typeof window !== "undefined" && typeof window.ResizeObserver === "function";
}

export interface CandleChart {
  /** The element the chart draws into. */
  containerRef: RefObject<HTMLDivElement | null>;
  /** The chart once built, null before and after. */
  drawingRef: RefObject<ChartDrawing | null>;
  supported: boolean;
  /** Built and filled for the symbol and interval asked for. */
  ready: boolean;
  /**
   * Changes each time the price series is drawn anew (built, or its type changed): what
   * hangs on the series, like the trades' entry lines, is put back then. Null until ready.
   */
  drawnKey: string | null;
  failed: boolean;
  /** Drawn, but nothing to draw: no history and no price yet (a closed or new market). */
  empty: boolean;
  /** The bar under the cursor, or the newest one; null before the first bar. */
  legend: LegendValues | null;
  /** What is drawn, for the page's tests and screen readers: series and panes. */
  shape: { series: number; panes: number } | null;
}

function timeOf(param: MouseEventParams<Time>): number | null {
  return typeof param.time === "number" ? param.time : null;
}

/**
 * The bars of one symbol and interval: history from GET /candles, then every tick of the
 * platform's own stream, so what is drawn is what settles. Drawn in the chosen type with
 * the chosen indicators; follows the page's theme; after the socket may have missed ticks,
 * reads the candles from its newest bar to now and merges them in.
 */
export function useCandleChart(options: {
  symbol: string;
  interval: CandleInterval;
  type: ChartType;
  indicators: IndicatorSettings;
  precision: number | undefined;
  theme: Theme;
}): CandleChart {
  const { symbol, interval, type, indicators, precision, theme } = options;
  const { prices } = useStream();
  const resyncEpoch = useStreamResync();
  // Read when the chart is built; later changes restyle it in place.
  const styleRef = useRef({ type, indicators, theme });
  styleRef.current = { type, indicators, theme };
  const containerRef = useRef<HTMLDivElement>(null);
  const drawingRef = useRef<ChartDrawing | null>(null);
  /** The cursor's bar (epoch seconds), null when the cursor is away. */
  const hoverRef = useRef<number | null>(null);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [drawCount, setDrawCount] = useState(0);
  const [failed, setFailed] = useState(false);
  const [empty, setEmpty] = useState(false);
  const [legend, setLegend] = useState<LegendValues | null>(null);
  const [shape, setShape] = useState<CandleChart["shape"]>(null);
  const loadedEpochRef = useRef(resyncEpoch);
  const resyncEpochRef = useRef(resyncEpoch);
  resyncEpochRef.current = resyncEpoch;
  const supported = chartsSupported();
  const key = `${symbol}/${interval}`;

  useEffect(() => {
    if (!supported) return;
    let cancelled = false;
    let stopTicks: (() => void) | null = null;
    const controller = new AbortController();
    setFailed(false);
    setLegend(null);
    // SPEC §4: re-created 300 ms after the asset changes (a quick run of clicks builds once).
    const timer = setTimeout(async () => {
      try {
        const lib = await import("lightweight-charts");
        const container = containerRef.current;
        if (cancelled || container === null) return;
        const style = styleRef.current;
        const drawing = new ChartDrawing(lib, container, {
          theme: style.theme,
          interval,
          precision: precision ?? 2,
          type: style.type,
          indicators: style.indicators,
        });
        drawingRef.current = drawing;
        const showLegend = () => setLegend(drawing.legendAt(hoverRef.current));
        drawing.chart.subscribeCrosshairMove((param) => {
          hoverRef.current = timeOf(param);
          showLegend();
        });
        // Ticks that arrive while the history loads are kept and applied after it, so the
        // switch to another symbol or interval loses none.
        const waiting: LivePrice[] = [];
        const known = prices.get(symbol);
        if (known) waiting.push(known);
        let historyDrawn = false;
        stopTicks = prices.onSymbol(symbol, (next) => {
          if (!historyDrawn) {
            waiting.push(next);
            return;
          }
          if (!drawing.applyPrice(next)) return;
          setEmpty(false);
          // The legend follows the newest bar unless the cursor rests on an older one.
          if (hoverRef.current === null || hoverRef.current >= (drawing.lastBar()?.time ?? 0)) {
            showLegend();
          }
        });
        const epoch = resyncEpochRef.current;
        let candles: Candle[] = [];
        try {
          candles = await fetchCandles(symbol, interval, controller.signal);
        } catch {
          // No history (yet): the chart starts from the live ticks.
        }
        if (cancelled) return;
        drawing.setBars(candles.map(barOf));
        for (const price of waiting) drawing.applyPrice(price);
        historyDrawn = true;
        loadedEpochRef.current = epoch;
        setEmpty(drawing.lastBar() === null);
        drawing.showNewest();
        showLegend();
        setShape({ series: drawing.seriesCount(), panes: drawing.paneCount() });
        setDrawCount((count) => count + 1);
        setLoadedFor(`${symbol}/${interval}`);
      } catch {
        if (!cancelled) setFailed(true);
      }
    }, chart_recreate_delay_ms);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      controller.abort();
      stopTicks?.();
      drawingRef.current?.remove();
      drawingRef.current = null;
      hoverRef.current = null;
      setLoadedFor(null);
      setShape(null);
    };
  }, [symbol, interval, supported, prices, precision]);

  const ready = loadedFor === key;

  // A new type or indicator: the series are drawn again from the bars held, no reload.
  const indicatorsKey = JSON.stringify(indicators);
  useEffect(() => {
    const drawing = drawingRef.current;
    if (!ready || drawing === null) return;
    const wanted = JSON.parse(indicatorsKey) as IndicatorSettings;
    if (drawing.hasStyle(type, wanted)) return;
    const typeChanged = drawing.type !== type;
    drawing.restyle(type, wanted);
    setLegend(drawing.legendAt(hoverRef.current));
    setShape({ series: drawing.seriesCount(), panes: drawing.paneCount() });
    if (typeChanged) setDrawCount((count) => count + 1);
  }, [ready, type, indicatorsKey]);

  useEffect(() => {
    drawingRef.current?.chart.applyOptions(themeOptions(theme));
  }, [theme]);

  // Live ticks may have been missed: read from the newest bar held to now and merge.
  useEffect(() => {
    const drawing = drawingRef.current;
    if (!ready || drawing === null || resyncEpoch === loadedEpochRef.current) return;
    loadedEpochRef.current = resyncEpoch;
    const controller = new AbortController();
    const newest = drawing.lastBar();
    fetchCandles(
      symbol,
      interval,
      controller.signal,
      newest === null ? {} : { fromMs: newest.time * 1000 },
    )
      .then((candles) => {
        if (drawingRef.current !== drawing) return;
        drawing.mergeCandles(candles, candles.length >= candles_reply_max);
        setEmpty(drawing.lastBar() === null);
        setLegend(drawing.legendAt(hoverRef.current));
      })
      .catch(() => {
        // Still offline: the next resync (the socket coming back) reads again.
        if (!controller.signal.aborted && drawingRef.current === drawing) {
          loadedEpochRef.current = -1;
        }
      });
    return () => controller.abort();
  }, [ready, resyncEpoch, symbol, interval]);

  return {
    containerRef,
    drawingRef,
    supported,
    ready,
    drawnKey: ready ? `${key}#${drawCount}` : null,
    failed,
    empty,
    legend,
    shape,
  };
}

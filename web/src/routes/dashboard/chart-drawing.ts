import type {
  IChartApi,
  IPriceLine,
  ISeriesApi,
  LogicalRange,
  SeriesType,
  UTCTimestamp,
} from "lightweight-charts";
import { bucketStartMs, type Candle, type CandleInterval } from "../../api/candles.ts";
import type { LivePrice } from "../../stream/live-prices.ts";
import type { Theme } from "../../theme/theme-context.ts";
import {
  baseOptions,
  candle_down_color,
  candle_up_color,
  indicatorColors,
  price_line_color,
} from "./chart-options.ts";
import type { ChartType, IndicatorKey, IndicatorSettings } from "./chart-settings.ts";
import {
  bollingerBands,
  exponentialMovingAverage,
  relativeStrengthIndex,
  type Series,
  simpleMovingAverage,
} from "./indicators.ts";

type ChartsLibrary = typeof import("lightweight-charts");

/** One bar as the chart draws it: UTC epoch seconds and the four prices. */
export interface Bar {
  time: UTCTimestamp;
  open: number;
  high: number;
  low: number;
  close: number;
}

export function barOf(candle: Candle): Bar {
  return {
    time: Math.floor(candle.time / 1000) as UTCTimestamp,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
  };
}

/** RSI's guide lines: above 70 overbought, below 30 oversold (Wilder's levels). */
export const rsi_guide_levels = [70, 30] as const;
/** The RSI pane's share of the chart's height, the price pane keeping the rest. */
const rsi_pane_stretch = 1;
const price_pane_stretch = 3;

/** One indicator drawn: its legend name and its lines (Bollinger has three), in one pane. */
export interface IndicatorPlot {
  key: IndicatorKey;
  label: string;
  pane: 0 | 1;
  lines: { name: string; color: string; values: Series }[];
}

/** The indicators switched on, computed over the closes. */
export function indicatorPlots(closes: readonly number[], settings: IndicatorSettings) {
  const plots: IndicatorPlot[] = [];
  const { sma, ema, bollinger, rsi } = settings;
  if (sma.on) {
    plots.push({
      key: "sma",
      label: `SMA ${sma.period}`,
      pane: 0,
      lines: [
        {
          name: "SMA",
          color: indicatorColors.sma,
          values: simpleMovingAverage(closes, sma.period),
        },
      ],
    });
  }
  if (ema.on) {
    plots.push({
      key: "ema",
      label: `EMA ${ema.period}`,
      pane: 0,
      lines: [
        {
          name: "EMA",
          color: indicatorColors.ema,
          values: exponentialMovingAverage(closes, ema.period),
        },
      ],
    });
  }
  if (bollinger.on) {
    const bands = bollingerBands(closes, bollinger.period, bollinger.deviations);
    plots.push({
      key: "bollinger",
      label: `BB ${bollinger.period} ${bollinger.deviations}`,
      pane: 0,
      lines: [
        { name: "Upper", color: indicatorColors.bollinger, values: bands.upper },
        { name: "Middle", color: indicatorColors.bollingerMiddle, values: bands.middle },
        { name: "Lower", color: indicatorColors.bollinger, values: bands.lower },
      ],
    });
  }
  if (rsi.on) {
    plots.push({
      key: "rsi",
      label: `RSI ${rsi.period}`,
      pane: 1,
      lines: [
        {
          name: "RSI",
          color: indicatorColors.rsi,
          values: relativeStrengthIndex(closes, rsi.period),
        },
      ],
    });
  }
  return plots;
}

/** What the legend shows: one bar and the indicators' values at it. */
export interface LegendValues {
  bar: Bar;
  /** True when this is the newest bar (no cursor over the chart, or over the newest bar). */
  latest: boolean;
  indicators: {
    key: IndicatorKey;
    label: string;
    values: { name: string; color: string; value: number | null }[];
  }[];
}

/**
 * The drawn chart of one symbol and interval: the bars it holds, the price series in the
 * chosen type and the indicators' series, kept in step as live ticks change the last bar.
 * Not React: the hook (use-candle-chart.ts) owns when it is built, styled and removed.
 */
export class ChartDrawing {
  readonly chart: IChartApi;
  /** The price series; replaced when the type changes (its price lines go with it). */
  series: ISeriesApi<SeriesType>;
  /** The open trades' entry lines on `series`, by trade id (use-trade-price-lines.ts). */
  readonly lines = new Map<number, IPriceLine>();
  bars: Bar[] = [];
  readonly #lib: ChartsLibrary;
  readonly #interval: CandleInterval;
  readonly #precision: number;
  #type: ChartType;
  #indicators: IndicatorSettings;
  #plots: IndicatorPlot[] = [];
  #indicatorSeries: ISeriesApi<"Line">[][] = [];

  constructor(
    lib: ChartsLibrary,
    container: HTMLElement,
    options: {
      theme: Theme;
      interval: CandleInterval;
      precision: number;
      type: ChartType;
      indicators: IndicatorSettings;
    },
  ) {
    this.#lib = lib;
    this.#interval = options.interval;
    this.#precision = options.precision;
    this.#type = options.type;
    this.#indicators = options.indicators;
    this.chart = lib.createChart(container, baseOptions(options.theme, options.interval === "1s"));
    this.series = this.#addPriceSeries();
    this.#addIndicatorSeries();
  }

  get type(): ChartType {
    return this.#type;
  }

  hasStyle(type: ChartType, indicators: IndicatorSettings): boolean {
    return type === this.#type && JSON.stringify(indicators) === JSON.stringify(this.#indicators);
  }

  /** Panes drawn: 1, or 2 with the RSI below the price. */
  paneCount(): number {
    return this.chart.panes().length;
  }

  /** Series drawn: the price and each indicator line. */
  seriesCount(): number {
    return 1 + this.#indicatorSeries.reduce((count, lines) => count + lines.length, 0);
  }

  lastBar(): Bar | null {
    return this.bars[this.bars.length - 1] ?? null;
  }

  /** Draws `bars` (oldest first) in place of what was held. */
  setBars(bars: Bar[]): void {
    this.bars = bars;
    this.series.setData(this.#priceData(bars));
    this.#plots = indicatorPlots(this.#closes(), this.#indicators);
    this.#setIndicatorData();
  }

  /**
   * Folds one price into the newest bar, or opens the bar of its interval when that began
   * (a day bar at 00:00 UTC); a price older than the newest bar is one the bars hold already.
   */
  applyPrice(price: LivePrice): boolean {
    const time = (bucketStartMs(price.atMs, this.#interval) / 1000) as UTCTimestamp;
    const last = this.lastBar();
    if (last !== null && time < last.time) return false;
    const bar: Bar =
      last !== null && time === last.time
        ? {
            time,
            open: last.open,
            high: Math.max(last.high, price.price),
            low: Math.min(last.low, price.price),
            close: price.price,
          }
        : { time, open: price.price, high: price.price, low: price.price, close: price.price };
    this.#putBars([bar]);
    return true;
  }

  /**
   * Merges candles read after a gap (from the newest bar held to now): the server's bar
   * replaces the one held for the same time, newer ones are appended, and only what
   * changed is redrawn. When the gap was longer than one reply holds, the bars are drawn
   * again as merged (what the server did not send stays a gap in time, not a wrong bar).
   */
  mergeCandles(candles: readonly Candle[], replyWasFull: boolean): void {
    const last = this.lastBar();
    const fresh = candles.map(barOf).filter((bar) => last === null || bar.time >= last.time);
    if (fresh.length === 0) return;
    if (replyWasFull || last === null) {
      const older = this.bars.filter((bar) => bar.time < (fresh[0] as Bar).time);
      this.setBars([...older, ...fresh]);
      return;
    }
    this.#putBars(fresh);
  }

  /**
   * Shows the newest bars: all of them, spread over the width, when they are fewer than the
   * width holds at the usual spacing (a day chart of a young history), else the newest at
   * the usual spacing with the live edge in view.
   */
  showNewest(): void {
    const timeScale = this.chart.timeScale();
    const { barSpacing } = timeScale.options();
    if (this.bars.length > 0 && this.bars.length * barSpacing < timeScale.width()) {
      timeScale.fitContent();
    } else {
      timeScale.scrollToRealTime();
    }
  }

  /** Changes the type and the indicators: the series are drawn again from the bars held. */
  restyle(type: ChartType, indicators: IndicatorSettings): void {
    const range = this.chart.timeScale().getVisibleLogicalRange();
    if (type !== this.#type) {
      this.chart.removeSeries(this.series);
      this.lines.clear();
      this.#type = type;
      this.series = this.#addPriceSeries();
      this.series.setData(this.#priceData(this.bars));
    }
    for (const lines of this.#indicatorSeries) {
      for (const series of lines) this.chart.removeSeries(series);
    }
    this.#indicatorSeries = [];
    // An emptied indicator pane would stay as blank space.
    while (this.chart.panes().length > 1) this.chart.removePane(this.chart.panes().length - 1);
    this.#indicators = indicators;
    this.#addIndicatorSeries();
    this.#plots = indicatorPlots(this.#closes(), indicators);
    this.#setIndicatorData();
    if (range !== null) this.chart.timeScale().setVisibleLogicalRange(range as LogicalRange);
  }

  /** The bar at `time` (epoch seconds) with the indicators' values, else the newest. */
  legendAt(time: number | null): LegendValues | null {
    let index = this.bars.length - 1;
    if (time !== null) {
      const found = indexOfTime(this.bars, time);
      if (found >= 0) index = found;
    }
    const bar = this.bars[index];
    if (bar === undefined) return null;
    return {
      bar,
      latest: index === this.bars.length - 1,
      indicators: this.#plots.map((plot) => ({
        key: plot.key,
        label: plot.label,
        values: plot.lines.map((line) => ({
          name: line.name,
          color: line.color,
          value: line.values[index] ?? null,
        })),
      })),
    };
  }

  remove(): void {
    this.chart.remove();
  }

  /** Puts bars at or after the newest held (in time order) and redraws the changed points. */
  #putBars(bars: readonly Bar[]): void {
    const firstChanged = Math.max(0, this.bars.length - 1);
    for (const bar of bars) {
      const last = this.lastBar();
      if (last !== null && bar.time === last.time) this.bars[this.bars.length - 1] = bar;
      else this.bars.push(bar);
      this.series.update(this.#pricePoint(bar));
    }
    this.#plots = indicatorPlots(this.#closes(), this.#indicators);
    this.#plots.forEach((plot, plotIndex) => {
      plot.lines.forEach((line, lineIndex) => {
        const series = this.#indicatorSeries[plotIndex]?.[lineIndex];
        if (series === undefined) return;
        for (let index = firstChanged; index < this.bars.length; index += 1) {
          const value = line.values[index];
          const bar = this.bars[index] as Bar;
          if (value !== null && value !== undefined) series.update({ time: bar.time, value });
        }
      });
    });
  }

  #closes(): number[] {
    return this.bars.map((bar) => bar.close);
  }

  #priceFormat() {
    return {
      type: "price" as const,
      precision: this.#precision,
      minMove: 10 ** -this.#precision,
    };
  }

  #addPriceSeries(): ISeriesApi<SeriesType> {
    const lib = this.#lib;
    const priceFormat = this.#priceFormat();
    switch (this.#type) {
      case "candles":
      case "hollow": {
        const hollow = this.#type === "hollow";
        return this.chart.addSeries(lib.CandlestickSeries, {
          // Hollow candles: a rising bar is drawn as its outline only.
          upColor: hollow ? "rgba(0, 0, 0, 0)" : candle_up_color,
          downColor: candle_down_color,
          borderVisible: true,
          borderUpColor: candle_up_color,
          borderDownColor: candle_down_color,
          wickUpColor: candle_up_color,
          wickDownColor: candle_down_color,
          priceFormat,
        });
      }
      case "bars":
        return this.chart.addSeries(lib.BarSeries, {
          upColor: candle_up_color,
          downColor: candle_down_color,
          thinBars: false,
          priceFormat,
        });
      case "line":
        return this.chart.addSeries(lib.LineSeries, {
          color: price_line_color,
          lineWidth: 2,
          priceFormat,
        });
      case "area":
        return this.chart.addSeries(lib.AreaSeries, {
          lineColor: price_line_color,
          topColor: "rgba(59, 130, 246, 0.35)",
          bottomColor: "rgba(59, 130, 246, 0.02)",
          lineWidth: 2,
          priceFormat,
        });
    }
  }

  #addIndicatorSeries(): void {
    // The plots' shape (which indicators, how many lines each) without their values.
    const plots = indicatorPlots([], this.#indicators);
    this.#indicatorSeries = plots.map((plot) =>
      plot.lines.map((line) => {
        const series = this.chart.addSeries(
          this.#lib.LineSeries,
          plot.key === "rsi"
            ? {
                color: line.color,
                lineWidth: 2,
                priceLineVisible: false,
                priceFormat: { type: "price", precision: 0, minMove: 1 },
                autoscaleInfoProvider: () => ({ priceRange: { minValue: 0, maxValue: 100 } }),
              }
            : {
                color: line.color,
                lineWidth: line.name === "Middle" ? 1 : 2,
                lineStyle: line.name === "Middle" ? 2 : 0,
                priceLineVisible: false,
                lastValueVisible: false,
                crosshairMarkerVisible: false,
                priceFormat: this.#priceFormat(),
              },
          plot.pane,
        );
        if (plot.key === "rsi") {
          // 0-100 filling the pane: the default margins leave room for a 120 that RSI never is.
          series.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.08 } });
          for (const level of rsi_guide_levels) {
            series.createPriceLine({
              price: level,
              color: indicatorColors.rsiGuide,
              lineWidth: 1,
              lineStyle: 2,
              // The scale's own ticks already read 70 and 30 nearby; a label would cover them.
              axisLabelVisible: false,
              title: String(level),
            });
          }
        }
        return series;
      }),
    );
    const panes = this.chart.panes();
    if (panes.length > 1) {
      panes[0]?.setStretchFactor(price_pane_stretch);
      panes[1]?.setStretchFactor(rsi_pane_stretch);
    }
  }

  #setIndicatorData(): void {
    this.#plots.forEach((plot, plotIndex) => {
      plot.lines.forEach((line, lineIndex) => {
        const points: { time: UTCTimestamp; value: number }[] = [];
        line.values.forEach((value, index) => {
          if (value !== null) points.push({ time: (this.bars[index] as Bar).time, value });
        });
        this.#indicatorSeries[plotIndex]?.[lineIndex]?.setData(points);
      });
    });
  }

  #pricePoint(bar: Bar) {
    return this.#type === "line" || this.#type === "area"
      ? { time: bar.time, value: bar.close }
      : bar;
  }

  #priceData(bars: readonly Bar[]) {
    return bars.map((bar) => this.#pricePoint(bar));
  }
}

/** Binary search over bars in time order; -1 when no bar starts at `time`. */
function indexOfTime(bars: readonly Bar[], time: number): number {
  let low = 0;
  let high = bars.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = (bars[middle] as Bar).time;
    if (at === time) return middle;
    if (at < time) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

import { z } from "zod";
import { type CandleInterval, candleIntervals } from "../../api/candles.ts";
import { readStorage, storageKeys, writeStorage } from "../../storage.ts";

/** How the price is drawn. */
export const chartTypes = ["candles", "hollow", "bars", "line", "area"] as const;
export type ChartType = (typeof chartTypes)[number];

export const chartTypeLabels: Record<ChartType, string> = {
  candles: "Candles",
  hollow: "Hollow candles",
  bars: "OHLC bars",
  line: "Line",
  area: "Area",
};

/** The bounds a setting input accepts: a period longer than the bars held draws nothing. */
export const period_min = 2;
export const period_max = 200;
export const deviations_min = 0.5;
export const deviations_max = 5;

const period = z.number().int().min(period_min).max(period_max);

const indicatorSettingsSchema = z.object({
  sma: z.object({ on: z.boolean(), period }),
  ema: z.object({ on: z.boolean(), period }),
  bollinger: z.object({
    on: z.boolean(),
    period,
    deviations: z.number().min(deviations_min).max(deviations_max),
  }),
  rsi: z.object({ on: z.boolean(), period }),
});
export type IndicatorSettings = z.infer<typeof indicatorSettingsSchema>;
export type IndicatorKey = keyof IndicatorSettings;

export const indicatorKeys = ["sma", "ema", "bollinger", "rsi"] as const satisfies IndicatorKey[];

export const indicatorLabels: Record<IndicatorKey, string> = {
  sma: "Moving average (SMA)",
  ema: "Exponential moving average (EMA)",
  bollinger: "Bollinger bands",
  rsi: "Relative strength index (RSI)",
};

/** SPEC §4 "Default symbol EURUSD, interval 1": one-minute candles, no indicator shown. */
export const default_chart_settings = {
  type: "candles",
  interval: "1m",
  indicators: {
    sma: { on: false, period: 20 },
    ema: { on: false, period: 50 },
    bollinger: { on: false, period: 20, deviations: 2 },
    rsi: { on: false, period: 14 },
  },
} as const satisfies ChartSettings;

const chartSettingsSchema = z.object({
  type: z.enum(chartTypes),
  interval: z.enum(candleIntervals),
  indicators: indicatorSettingsSchema,
});
export interface ChartSettings {
  type: ChartType;
  interval: CandleInterval;
  indicators: IndicatorSettings;
}

/**
 * The trader's chart as they left it in this browser. Each part is read on its own: an
 * interval this version no longer offers, or a hand-edited value, falls back to its default
 * without losing the other choices.
 */
export function readChartSettings(): ChartSettings {
  const defaults = structuredClone(default_chart_settings) as ChartSettings;
  let stored: unknown;
  try {
    stored = JSON.parse(readStorage(storageKeys.chartSettings) ?? "null");
  } catch {
    return defaults;
  }
  if (typeof stored !== "object" || stored === null) return defaults;
  const raw = stored as Record<string, unknown>;
  const whole = chartSettingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  const type = chartSettingsSchema.shape.type.safeParse(raw.type);
  const interval = chartSettingsSchema.shape.interval.safeParse(raw.interval);
  const indicators = (raw.indicators ?? {}) as Record<string, unknown>;
  const settings = defaults;
  if (type.success) settings.type = type.data;
  if (interval.success) settings.interval = interval.data;
  for (const key of indicatorKeys) {
    const one = indicatorSettingsSchema.shape[key].safeParse(indicators[key]);
    // Each indicator's own schema: the union of shapes is checked key by key.
    if (one.success) (settings.indicators as Record<IndicatorKey, unknown>)[key] = one.data;
  }
  return settings;
}

export function writeChartSettings(settings: ChartSettings): void {
  writeStorage(storageKeys.chartSettings, JSON.stringify(settings));
}

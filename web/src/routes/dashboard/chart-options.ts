import type { ChartOptions, DeepPartial, Time } from "lightweight-charts";
import type { Theme } from "../../theme/theme-context.ts";

/** Canvas colours per theme: the same navy and slate as the Tailwind theme (styles.css). */
export const chartPalettes = {
  light: {
    background: "#ffffff",
    text: "#334155",
    grid: "#f1f5f9",
    border: "#e2e8f0",
    crosshair: "#93a7cf",
  },
  dark: {
    background: "#0f1d38",
    text: "#c3d0e8",
    grid: "#152646",
    border: "#1f335b",
    crosshair: "#6079ad",
  },
} as const satisfies Record<Theme, Record<string, string>>;

export const candle_up_color = "#10b981";
export const candle_down_color = "#ef4444";
/** The line and area types' price line: the brand blue (brand-500). */
export const price_line_color = "#3b82f6";

/**
 * Indicator lines: hues apart from the candles' green and red and the brand blue, readable
 * on both the white and the navy background.
 */
export const indicatorColors = {
  sma: "#f59e0b",
  ema: "#d946ef",
  bollinger: "#0ea5e9",
  bollingerMiddle: "#64748b",
  rsi: "#8b5cf6",
  rsiGuide: "#94a3b8",
} as const;

export function themeOptions(theme: Theme): DeepPartial<ChartOptions> {
  const palette = chartPalettes[theme];
  return {
    layout: {
      background: { color: palette.background },
      textColor: palette.text,
      // The logo is drawn with an injected <style>, which the CSP forbids; the page
      // credits the library in text under the chart instead (licence NOTICE).
      attributionLogo: false,
      // The line between the price and the RSI pane, in the border colour of each theme.
      panes: { separatorColor: palette.border, separatorHoverColor: palette.grid },
    },
    grid: {
      vertLines: { color: palette.grid },
      horzLines: { color: palette.grid },
    },
    rightPriceScale: { borderColor: palette.border },
    timeScale: { borderColor: palette.border },
    crosshair: {
      vertLine: { color: palette.crosshair, labelBackgroundColor: palette.crosshair },
      horzLine: { color: palette.crosshair, labelBackgroundColor: palette.crosshair },
    },
  };
}

const clockFormat = new Intl.DateTimeFormat("en-US", {
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});
const clockSecondsFormat = new Intl.DateTimeFormat("en-US", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const crosshairFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** Bars carry UTC epoch seconds; the axis and crosshair show the trader's own time zone. */
function dateOf(time: Time): Date {
  return new Date(typeof time === "number" ? time * 1000 : Date.parse(String(time)));
}

/** TickMarkType: 0 year, 1 month, 2 day of month, 3 time, 4 time with seconds. */
export function tickMarkLabel(time: Time, tickMarkType: number): string {
  const date = dateOf(time);
  if (tickMarkType >= 4) return clockSecondsFormat.format(date);
  if (tickMarkType === 3) return clockFormat.format(date);
  return dayFormat.format(date);
}

export function baseOptions(theme: Theme, showSeconds: boolean): DeepPartial<ChartOptions> {
  const themed = themeOptions(theme);
  return {
    ...themed,
    autoSize: true,
    localization: {
      locale: "en-US",
      timeFormatter: (time: Time) => crosshairFormat.format(dateOf(time)),
    },
    timeScale: {
      ...themed.timeScale,
      timeVisible: true,
      secondsVisible: showSeconds,
      rightOffset: 6,
      // A short history spread over the width stays a row of candles, not a few slabs.
      maxBarSpacing: 24,
      tickMarkFormatter: tickMarkLabel,
    },
  };
}

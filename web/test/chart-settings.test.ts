import { afterEach, describe, expect, it } from "vitest";
import { bucketStartMs } from "../src/api/candles.ts";
import {
  default_chart_settings,
  readChartSettings,
  writeChartSettings,
} from "../src/routes/dashboard/chart-settings.ts";

afterEach(() => window.localStorage.clear());

describe("the chart's remembered choices", () => {
  it("reads back what was written", () => {
    const chosen = {
      type: "hollow",
      interval: "4h",
      indicators: {
        sma: { on: true, period: 5 },
        ema: { on: false, period: 50 },
        bollinger: { on: true, period: 10, deviations: 2.5 },
        rsi: { on: true, period: 7 },
      },
    } as const;
    writeChartSettings(structuredClone(chosen) as never);
    expect(window.localStorage.getItem("chart_settings")).not.toBeNull();
    expect(readChartSettings()).toEqual(chosen);
  });

  it("starts on one-minute candles without indicators, and survives unreadable storage", () => {
    expect(readChartSettings()).toEqual(default_chart_settings);
    window.localStorage.setItem("chart_settings", "{not json");
    expect(readChartSettings()).toEqual(default_chart_settings);
  });

  it("keeps each valid part when another is not (an interval no longer offered, a bad period)", () => {
    window.localStorage.setItem(
      "chart_settings",
      JSON.stringify({
        type: "area",
        interval: "3m",
        indicators: { sma: { on: true, period: 1 }, rsi: { on: true, period: 21 } },
      }),
    );
    const settings = readChartSettings();
    expect(settings.type).toBe("area");
    expect(settings.interval).toBe("1m");
    expect(settings.indicators.sma).toEqual(default_chart_settings.indicators.sma);
    expect(settings.indicators.rsi).toEqual({ on: true, period: 21 });
  });
});

describe("a live tick's bar", () => {
  const at = Date.UTC(2026, 10, 23, 22, 47, 31, 250);
  it("starts on the interval's grid, counted from 00:00 UTC", () => {
    expect(bucketStartMs(at, "1s")).toBe(Date.UTC(2026, 10, 23, 22, 47, 31));
    expect(bucketStartMs(at, "1m")).toBe(Date.UTC(2026, 10, 23, 22, 47));
    expect(bucketStartMs(at, "15m")).toBe(Date.UTC(2026, 10, 23, 22, 45));
    expect(bucketStartMs(at, "4h")).toBe(Date.UTC(2026, 10, 23, 20));
    expect(bucketStartMs(at, "1d")).toBe(Date.UTC(2026, 10, 23));
  });
});

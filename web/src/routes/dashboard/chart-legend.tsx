import type { CandleInterval } from "../../api/candles.ts";
import { formatPrice } from "../../components/trade-format.ts";
import type { LegendValues } from "./chart-drawing.ts";

const minuteFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});
const secondFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
/** Day bars start at 00:00 UTC: their date is the UTC one, whatever the trader's zone. */
const dayFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** The bar's start in the trader's time zone, like the time axis (a day bar by its UTC date). */
export function legendTime(timeSeconds: number, interval: CandleInterval): string {
  const date = new Date(timeSeconds * 1000);
  if (interval === "1d") return dayFormat.format(date);
  return (interval === "1s" ? secondFormat : minuteFormat).format(date);
}

/**
 * The crosshair legend over the chart's top left: the time and open, high, low and close
 * of the bar under the cursor (the newest when the cursor is away), and each indicator's
 * value at that bar. It changes with the pointer, so it is not a live region.
 */
export function ChartLegend({
  symbol,
  interval,
  legend,
}: {
  symbol: string;
  interval: CandleInterval;
  legend: LegendValues | null;
}) {
  if (legend === null) return null;
  const { bar } = legend;
  // The candles' green and red, a shade darker (lighter on navy) to be readable as text.
  const tone =
    bar.close >= bar.open
      ? "text-emerald-700 dark:text-emerald-400"
      : "text-red-600 dark:text-red-400";
  const fields = [
    ["O", "Open", bar.open],
    ["H", "High", bar.high],
    ["L", "Low", bar.low],
    ["C", "Close", bar.close],
  ] as const;
  return (
    <div
      data-testid="chart-legend"
      data-time={bar.time}
      className="pointer-events-none absolute top-1.5 left-2 z-10 max-w-[calc(100%-4.5rem)] rounded-md bg-white/85 px-1.5 py-0.5 text-[10px] leading-[14px] sm:leading-4 tabular-nums text-slate-600 sm:text-xs dark:bg-navy-900/85 dark:text-slate-300"
    >
      <p className="flex flex-wrap gap-x-2">
        <span className="font-semibold text-slate-800 dark:text-slate-100">
          <span className="sr-only">{legend.latest ? "Newest bar, " : "Bar at "}</span>
          {legendTime(bar.time, interval)}
        </span>
        {fields.map(([short, name, value]) => (
          <span key={short} data-testid={`chart-legend-${name.toLowerCase()}`}>
            <abbr title={name} className="no-underline">
              {short}
            </abbr>{" "}
            <span className={tone}>{formatPrice(symbol, value)}</span>
          </span>
        ))}
      </p>
      {legend.indicators.map((indicator) => (
        <p
          key={indicator.key}
          data-testid={`chart-legend-${indicator.key}`}
          data-label={indicator.label}
          className="flex flex-wrap gap-x-2"
        >
          <span className="font-medium">{indicator.label}</span>
          {indicator.values.map((line) => (
            <span
              key={line.name}
              data-value={line.value ?? ""}
              className="inline-flex items-center gap-1"
            >
              {/* The line's own colour as a swatch: as text most of them would be too faint. */}
              <span
                aria-hidden="true"
                className="inline-block h-0.5 w-2.5 rounded-full"
                style={{ backgroundColor: line.color }}
              />
              {indicator.values.length > 1 ? <span className="sr-only">{line.name} </span> : null}
              {line.value === null
                ? "—"
                : indicator.key === "rsi"
                  ? line.value.toFixed(2)
                  : formatPrice(symbol, line.value)}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}

import type { TradeView } from "@tp/domain/api";
import { chartSymbol, findAsset } from "@tp/domain/catalogue";
import { useState } from "react";
import type { MarketView } from "../../api/markets.ts";
import { SpinnerIcon } from "../../components/icons.tsx";
import { directionLabel, formatCountdown, formatPrice } from "../../components/trade-format.ts";
import { useNow } from "../../components/use-now.ts";
import { useLivePrices } from "../../stream/stream-context.ts";
import { useDocumentTheme } from "../../theme/use-document-theme.ts";
import { ChartLegend } from "./chart-legend.tsx";
import { type ChartSettings, readChartSettings, writeChartSettings } from "./chart-settings.ts";
import { PriceChartHeader } from "./price-chart-header.tsx";
import { useCandleChart } from "./use-candle-chart.ts";
import { useTradePriceLines } from "./use-trade-price-lines.ts";

/**
 * The live chart (SPEC §4 "Chart", PRODUCT.md D3, issue 11): candles from GET /candles, then
 * every tick of the platform's own stream, so what is drawn is what settles. The trader
 * picks the type, the interval and indicators (remembered in this browser); a legend shows
 * the bar under the cursor. The trader's open trades on this asset are entry-price lines
 * with the time left.
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
  const price = useLivePrices([symbol])(symbol);
  const theme = useDocumentTheme();
  const [settings, setSettings] = useState<ChartSettings>(readChartSettings);
  const choose = (next: Partial<ChartSettings>) => {
    setSettings((was) => {
      const merged = { ...was, ...next };
      writeChartSettings(merged);
      return merged;
    });
  };
  const now = useNow();
  const asset = findAsset(symbol);
  // Honest label: the venue prefix only when a real provider priced it (issue 11).
  const label = asset ? chartSymbol(asset, price?.source ?? market?.source) : symbol;
  const { containerRef, drawingRef, supported, ready, drawnKey, failed, empty, legend, shape } =
    useCandleChart({
      symbol,
      interval: settings.interval,
      type: settings.type,
      indicators: settings.indicators,
      precision: asset?.precision,
      theme,
    });
  useTradePriceLines(drawingRef, drawnKey, openTrades, symbol, now);

  const busy = switching || (supported && !ready && !failed);

  return (
    <section
      aria-labelledby="price-chart-title"
      className="flex min-w-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-navy-700 dark:bg-navy-900"
    >
      <PriceChartHeader
        symbol={symbol}
        label={label}
        assetName={asset?.name ?? symbol}
        market={market}
        price={price}
        barInterval={settings.interval}
        onBarInterval={(interval) => choose({ interval })}
        chartType={settings.type}
        onChartType={(type) => choose({ type })}
        indicators={settings.indicators}
        onIndicators={(indicators) => choose({ indicators })}
        now={now}
      />
      <div className="relative h-[360px] sm:h-[460px] lg:h-[600px]">
        <div
          ref={containerRef}
          data-testid="price-chart"
          data-chart-theme={theme}
          data-chart-type={settings.type}
          data-chart-interval={settings.interval}
          data-series-count={shape?.series}
          data-pane-count={shape?.panes}
          className={`absolute inset-0 ${busy ? "invisible" : ""}`}
        />
        {ready && !busy ? (
          <ChartLegend symbol={symbol} interval={settings.interval} legend={legend} />
        ) : null}
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
        <OpenTradesText symbol={symbol} openTrades={openTrades} now={now} />
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

/** The entry lines in words, for screen readers (the canvas says nothing to them). */
function OpenTradesText({
  symbol,
  openTrades,
  now,
}: {
  symbol: string;
  openTrades: readonly TradeView[];
  now: number;
}) {
  const lineTrades = openTrades.filter(
    (trade) => trade.asset === symbol && trade.status === "open",
  );
  if (lineTrades.length === 0) return null;
  return (
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
  );
}

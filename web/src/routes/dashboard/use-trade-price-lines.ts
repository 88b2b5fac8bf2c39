import type { TradeView } from "@tp/domain/api";
import { formatUsd } from "@tp/domain/money";
import { type RefObject, useEffect } from "react";
import { directionLabel, formatCountdown } from "../../components/trade-format.ts";
import { candle_down_color, candle_up_color } from "./chart-options.ts";
import type { BuiltChart } from "./use-candle-chart.ts";

/**
 * The trader's open trades on this symbol as entry-price lines on the chart, their titles
 * counting down each second; a line goes when its trade is no longer open.
 */
export function useTradePriceLines(
  builtRef: RefObject<BuiltChart | null>,
  ready: boolean,
  openTrades: readonly TradeView[],
  symbol: string,
  now: number,
): void {
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
  }, [builtRef, ready, openTrades, symbol, now]);
}

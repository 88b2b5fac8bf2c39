import type { TradeView } from "@tp/domain/api";
import { formatUsd } from "@tp/domain/money";
import { type RefObject, useEffect } from "react";
import { directionLabel, formatCountdown } from "../../components/trade-format.ts";
import type { ChartDrawing } from "./chart-drawing.ts";
import { candle_down_color, candle_up_color } from "./chart-options.ts";

/**
 * The trader's open trades on this symbol as entry-price lines on the chart, their titles
 * counting down each second; a line goes when its trade is no longer open. `drawnKey`
 * changes when the price series is drawn anew (another type): the lines are put back on it.
 */
export function useTradePriceLines(
  drawingRef: RefObject<ChartDrawing | null>,
  drawnKey: string | null,
  openTrades: readonly TradeView[],
  symbol: string,
  now: number,
): void {
  useEffect(() => {
    const drawing = drawingRef.current;
    if (drawnKey === null || drawing === null) return;
    const wanted = new Set<number>();
    for (const trade of openTrades) {
      if (trade.asset !== symbol || trade.status !== "open") continue;
      wanted.add(trade.id);
      const left = Date.parse(trade.expires_at) - now;
      const title = `${directionLabel(trade.type).toUpperCase()} ${formatUsd(trade.amount)} · ${
        left > 0 ? formatCountdown(left) : "settling"
      }`;
      const line = drawing.lines.get(trade.id);
      if (line) {
        line.applyOptions({ title });
      } else {
        const color = trade.type === "call" ? candle_up_color : candle_down_color;
        drawing.lines.set(
          trade.id,
          drawing.series.createPriceLine({
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
    for (const [id, line] of drawing.lines) {
      if (wanted.has(id)) continue;
      drawing.series.removePriceLine(line);
      drawing.lines.delete(id);
    }
  }, [drawingRef, drawnKey, openTrades, symbol, now]);
}

import { findAsset } from "@tp/domain/catalogue";
import type { MarketView } from "../../api/markets.ts";
import { useNow } from "../../components/use-now.ts";
import { marketStateLine } from "./market-block.ts";

/**
 * Over the chart while the shown market does not trade (issue 11): "Market closed — opens
 * in 2 h 14 min", counting down each second, or "Prices delayed — trading paused". Nothing
 * while it is open.
 */
export function MarketStateBanner({
  symbol,
  market,
}: {
  symbol: string;
  market: MarketView | undefined;
}) {
  const now = useNow();
  const line = marketStateLine(market, now);
  if (line === null || market === undefined) return null;
  const halted = market.state === "halted";
  return (
    <div
      // A note, not a live region: the countdown changes every second.
      role="note"
      aria-label={`${findAsset(symbol)?.name ?? symbol} market state`}
      className={`flex items-center gap-2 rounded-xl border px-4 py-2.5 text-sm font-semibold ${
        halted
          ? "border-amber-400/50 bg-amber-50 text-amber-950 dark:bg-amber-400/10 dark:text-amber-100"
          : "border-slate-300 bg-slate-100 text-slate-800 dark:border-navy-600 dark:bg-navy-800 dark:text-slate-100"
      }`}
    >
      <span
        aria-hidden="true"
        className={`size-2 shrink-0 rounded-full ${halted ? "bg-amber-500" : "bg-slate-400"}`}
      />
      <span className="min-w-0">
        <span className="tabular-nums">{line}</span>
        <span className="font-normal text-slate-600 dark:text-slate-300">
          {" "}
          · {findAsset(symbol)?.name ?? symbol}
        </span>
      </span>
    </div>
  );
}

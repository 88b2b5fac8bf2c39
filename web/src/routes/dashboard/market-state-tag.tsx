import { marketStateMessages } from "@tp/domain/market-state";
import type { MarketView } from "../../api/markets.ts";

/**
 * The short mark of a market that does not trade now, for the market panel and the ticker:
 * "Closed" (outside its hours) or "Delayed" (feed stale, trading paused). Nothing when open.
 */
export function MarketStateTag({ market }: { market: MarketView | undefined }) {
  if (market === undefined || market.state === "open") return null;
  const halted = market.state === "halted";
  return (
    <span
      title={halted ? marketStateMessages.halted : marketStateMessages.closed}
      className={`inline-flex shrink-0 items-center rounded px-1.5 py-px text-[10px] font-semibold uppercase tracking-wide ${
        halted
          ? "bg-amber-100 text-amber-900 dark:bg-amber-400/15 dark:text-amber-300"
          : "bg-slate-200 text-slate-700 dark:bg-navy-700 dark:text-slate-200"
      }`}
    >
      {halted ? "Delayed" : "Closed"}
    </span>
  );
}

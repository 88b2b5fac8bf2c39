import { formatOpensIn } from "@tp/domain/market-hours";
import type { MarketState } from "@tp/domain/market-state";
import { marketStateMessages } from "@tp/domain/market-state";

/**
 * "Market closed — opens in 2 h 14 min" while a closed market's next opening is known and
 * ahead; "Market closed" alone otherwise (the countdown never shows a time gone by).
 */
export function closedMessage(nextOpenAt: string | null, nowMs: number): string {
  const opensAtMs = nextOpenAt === null ? Number.NaN : Date.parse(nextOpenAt);
  if (!Number.isFinite(opensAtMs) || opensAtMs <= nowMs) return marketStateMessages.closed;
  return `${marketStateMessages.closed} — opens in ${formatOpensIn(opensAtMs - nowMs)}`;
}

/**
 * One sentence for an asset's state (domain/src/market-state.ts): "Open", "Market closed —
 * opens in 2 h 14 min" (or without the opening when it is unknown), "Prices delayed — trading
 * paused".
 */
export function marketStateText(
  state: MarketState,
  nextOpenAt: string | null,
  nowMs: number,
): string {
  if (state === "open") return "Open";
  if (state === "halted") return marketStateMessages.halted;
  return closedMessage(nextOpenAt, nowMs);
}

export function marketStateTone(state: MarketState): string {
  switch (state) {
    case "open":
      return "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300";
    case "halted":
      return "bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300";
    default:
      return "bg-slate-200 text-slate-700 dark:bg-slate-500/20 dark:text-slate-300";
  }
}

import type { MarketView } from "../../api/markets.ts";
import type { LivePrice } from "../../stream/live-prices.ts";

/**
 * The 24 h change at the live price: GET /markets gives the change at its own price, which
 * fixes the reference close (price / (1 + change)); a newer tick is compared with that.
 */
export function liveChangePercent(
  market: MarketView | undefined,
  live: LivePrice | undefined,
): number | null {
  if (!market || market.change_24h_percent === null || market.price === null) return null;
  const reference = market.price / (1 + market.change_24h_percent / 100);
  if (!(reference > 0)) return null;
  const price = live?.price ?? market.price;
  return ((price - reference) / reference) * 100;
}

export function formatChange(percent: number | null): string {
  if (percent === null) return "—";
  const rounded = Math.round(percent * 100) / 100;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "";
  return `${sign}${Math.abs(rounded).toFixed(2)}%`;
}

export function changeTone(percent: number | null): string {
  if (percent === null || Math.round(percent * 100) === 0) {
    return "text-slate-500 dark:text-slate-400";
  }
  return percent > 0 ? "text-emerald-600 dark:text-emerald-400" : "text-red-600 dark:text-red-400";
}

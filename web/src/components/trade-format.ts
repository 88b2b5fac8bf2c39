import type { TradeView } from "@tp/domain/api";
import { findAsset } from "@tp/domain/catalogue";
import { formatUsd } from "@tp/domain/money";

/** How trades read on the dashboard, the history pages and in the audit. */

/**
 * SPEC §4 "Trade status in history": won shows as profits, lost as loss, anything else as
 * open; a tie (PRODUCT.md D1, the stake comes back) shows as refund.
 */
export function tradeStatusLabel(status: TradeView["status"]): string {
  switch (status) {
    case "won":
      return "profits";
    case "lost":
      return "loss";
    case "tie":
      return "refund";
    default:
      return "open";
  }
}

export function tradeStatusTone(status: TradeView["status"]): string {
  switch (status) {
    case "won":
      return "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300";
    case "lost":
      return "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300";
    case "tie":
      return "bg-slate-200 text-slate-700 dark:bg-slate-500/20 dark:text-slate-300";
    default:
      return "bg-brand-600/10 text-brand-700 dark:bg-brand-500/25 dark:text-brand-200";
  }
}

export function directionLabel(type: TradeView["type"]): string {
  return type === "call" ? "Call" : "Put";
}

/** SPEC §4: profit_loss null shows N/A; otherwise a signed en-US dollar amount. */
export function formatProfitLoss(profitLoss: number | null): string {
  if (profitLoss === null) return "N/A";
  if (profitLoss > 0) return `+${formatUsd(profitLoss)}`;
  if (profitLoss < 0) return `-${formatUsd(-profitLoss)}`;
  return formatUsd(0);
}

export function profitLossTone(profitLoss: number | null): string {
  if (profitLoss === null || profitLoss === 0) return "text-slate-600 dark:text-slate-300";
  return profitLoss > 0
    ? "text-emerald-700 dark:text-emerald-400"
    : "text-red-700 dark:text-red-400";
}

/** A price with its asset's quoted decimals (5 for EURUSD, 3 for JPY pairs and metals, …). */
export function formatPrice(symbol: string, price: number | null | undefined): string {
  if (price === null || price === undefined) return "—";
  const precision = findAsset(symbol)?.precision ?? 2;
  return price.toLocaleString("en-US", {
    minimumFractionDigits: precision,
    maximumFractionDigits: precision,
  });
}

const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

const timeFormat = new Intl.DateTimeFormat("en-US", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** "Jan 15, 2026, 12:00:05" in the trader's time zone. */
export function formatDateTime(iso: string | null): string {
  if (iso === null) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "—" : dateTimeFormat.format(date);
}

/** "12:00:05.250": the audit tells ticks apart to the millisecond. */
export function formatTimeMs(iso: string | null): string {
  if (iso === null) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return `${timeFormat.format(date)}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

/** Remaining time as m:ss (h:mm:ss past an hour); 0:00 once expired. */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `${minutes}:${seconds}`;
}

export type Moneyness = "in" | "out" | "at";

/** Whether an open trade would win (in), lose (out) or tie (at) at `price`. */
export function moneyness(
  trade: Pick<TradeView, "type" | "entry_price">,
  price: number,
): Moneyness {
  if (price === trade.entry_price) return "at";
  return price > trade.entry_price === (trade.type === "call") ? "in" : "out";
}

export const moneynessLabels: Record<Moneyness, string> = {
  in: "In the money",
  out: "Out of the money",
  at: "At the money",
};

/** The toast a settled trade gets (PRODUCT.md D1): its result and what it did to the balance. */
export function settlementMessage(trade: TradeView): string {
  const what = `${trade.asset} ${directionLabel(trade.type)}${trade.is_practice ? " (practice)" : ""}`;
  switch (trade.status) {
    case "won":
      return `Trade won: ${formatProfitLoss(trade.profit_loss ?? trade.profit)} on ${what}`;
    case "lost":
      return `Trade lost: ${formatProfitLoss(trade.profit_loss ?? -trade.amount)} on ${what}`;
    case "tie":
      return `Trade tie: ${formatUsd(trade.amount)} refunded on ${what}`;
    default:
      return `Trade open: ${formatUsd(trade.amount)} on ${what}`;
  }
}

import type { TradeView } from "@tp/domain/api";
import { formatUsd } from "@tp/domain/money";
import {
  directionLabel,
  formatCountdown,
  formatPrice,
  formatProfitLoss,
  moneyness,
  moneynessLabels,
  tradeStatusLabel,
  tradeStatusTone,
} from "../../components/trade-format.ts";
import { useLivePrices } from "../../stream/stream-context.ts";

/** A settled trade stays in the list this long, showing its result, before it leaves. */
export const settled_visible_ms = 8_000;

const moneynessTone = {
  in: "text-emerald-700 dark:text-emerald-400",
  out: "text-red-700 dark:text-red-400",
  at: "text-slate-600 dark:text-slate-300",
} as const;

/** Open trades and the ones that settled a moment ago, newest first. */
export function visibleOpenTrades(trades: readonly TradeView[], now: number): TradeView[] {
  return trades.filter(
    (trade) =>
      trade.status === "open" ||
      (trade.settled_at !== null && now - Date.parse(trade.settled_at) < settled_visible_ms),
  );
}

/**
 * The trader's open trades (of the chosen account): time left, and whether each would win
 * right now — the live price against the entry. The result replaces both when the
 * settlement arrives, without a reload.
 */
export function OpenTrades({
  trades,
  now,
  onOpen,
}: {
  trades: readonly TradeView[];
  now: number;
  onOpen: (trade: TradeView) => void;
}) {
  const livePrice = useLivePrices(
    trades.filter((trade) => trade.status === "open").map((trade) => trade.asset),
  );
  return (
    <section
      aria-labelledby="open-trades-title"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-navy-700 dark:bg-navy-900"
    >
      <h2 id="open-trades-title" className="text-sm font-semibold text-slate-900 dark:text-white">
        Open trades
      </h2>
      {trades.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">No open trades</p>
      ) : (
        <ul className="mt-2 grid grid-cols-1 gap-2">
          {trades.map((trade) => {
            const left = Date.parse(trade.expires_at) - now;
            const price = livePrice(trade.asset)?.price;
            const state = price === undefined ? null : moneyness(trade, price);
            return (
              <li key={trade.id}>
                <button
                  type="button"
                  onClick={() => onOpen(trade)}
                  className="w-full rounded-xl border border-slate-200 p-3 text-left transition-colors hover:bg-slate-50 dark:border-navy-700 dark:hover:bg-navy-800"
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="text-sm font-semibold text-slate-900 dark:text-white">
                      {trade.asset}{" "}
                      <span
                        className={
                          trade.type === "call"
                            ? "text-emerald-700 dark:text-emerald-400"
                            : "text-red-700 dark:text-red-400"
                        }
                      >
                        {directionLabel(trade.type)}
                      </span>
                    </span>
                    <span className="text-sm font-semibold tabular-nums text-slate-900 dark:text-white">
                      {formatUsd(trade.amount)}
                    </span>
                  </span>
                  <span className="mt-1 flex items-center justify-between gap-2 text-xs tabular-nums">
                    <span className="text-slate-500 dark:text-slate-400">
                      Entry {formatPrice(trade.asset, trade.entry_price)}
                      {trade.status === "open" && price !== undefined
                        ? ` · Now ${formatPrice(trade.asset, price)}`
                        : ""}
                      {trade.status !== "open"
                        ? ` · Exit ${formatPrice(trade.asset, trade.exit_price)}`
                        : ""}
                    </span>
                    {trade.status === "open" ? (
                      <span
                        className="font-semibold text-slate-900 dark:text-white"
                        data-testid="countdown"
                      >
                        {left > 0 ? formatCountdown(left) : "Settling…"}
                      </span>
                    ) : null}
                  </span>
                  <span className="mt-1.5 flex items-center justify-between gap-2 text-xs">
                    {trade.status === "open" ? (
                      <span className={`font-semibold ${state ? moneynessTone[state] : ""}`}>
                        {state ? moneynessLabels[state] : "Waiting for a price"}
                      </span>
                    ) : (
                      <>
                        <span
                          className={`inline-flex rounded-full px-2 py-0.5 font-semibold ${tradeStatusTone(trade.status)}`}
                        >
                          {tradeStatusLabel(trade.status)}
                        </span>
                        <span className="font-semibold tabular-nums">
                          {formatProfitLoss(trade.profit_loss)}
                        </span>
                      </>
                    )}
                    {trade.is_practice ? (
                      <span className="ml-auto text-slate-500 dark:text-slate-400">Practice</span>
                    ) : null}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

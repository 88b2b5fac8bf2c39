import type { TradeView } from "@tp/domain/api";
import { formatUsd } from "@tp/domain/money";
import { TableScroller } from "./table-scroller.tsx";
import {
  directionLabel,
  formatDateTime,
  formatPrice,
  formatProfitLoss,
  profitLossTone,
  tradeStatusLabel,
  tradeStatusTone,
} from "./trade-format.ts";
import { narrow_screen_query, useMediaQuery } from "./use-media-query.ts";

const cell = "whitespace-nowrap px-3 py-2.5";
const head = `${cell} text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400`;

/**
 * Trades as SPEC §2 "History pages" lists them: Timestamp, Asset, Call/Put, Amount,
 * Profit/Loss, Status (the dashboard adds entry and exit price). A row opens the trade's
 * audit; its first cell holds the button that does it, for keyboards and screen readers.
 * Loading and failure are the caller's (QueryStates): here the trades are known.
 */
export function TradesTable({
  caption,
  trades,
  showPrices = false,
  onOpen,
}: {
  caption: string;
  trades: readonly TradeView[];
  showPrices?: boolean;
  onOpen: (trade: TradeView) => void;
}) {
  const columns = showPrices ? 8 : 6;
  const narrow = useMediaQuery(narrow_screen_query);
  if (narrow) {
    return <TradeCards caption={caption} trades={trades} showPrices={showPrices} onOpen={onOpen} />;
  }
  return (
    <TableScroller label={caption}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 dark:border-navy-700">
          <tr>
            <th scope="col" className={head}>
              Timestamp
            </th>
            <th scope="col" className={head}>
              Asset
            </th>
            <th scope="col" className={head}>
              Call/Put
            </th>
            <th scope="col" className={`${head} text-right`}>
              Amount
            </th>
            {showPrices ? (
              <>
                <th scope="col" className={`${head} text-right`}>
                  Entry
                </th>
                <th scope="col" className={`${head} text-right`}>
                  Exit
                </th>
              </>
            ) : null}
            <th scope="col" className={`${head} text-right`}>
              Profit/Loss
            </th>
            <th scope="col" className={head}>
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-navy-800">
          {trades.length === 0 ? (
            <tr>
              <td colSpan={columns} className="px-3 py-8 text-center text-slate-500">
                No tradings found
              </td>
            </tr>
          ) : (
            trades.map((trade) => (
              <tr
                key={trade.id}
                data-trade-id={trade.id}
                onClick={() => onOpen(trade)}
                className="cursor-pointer transition-colors hover:bg-slate-50 dark:hover:bg-navy-800/60"
              >
                <td className={cell}>
                  <button
                    type="button"
                    aria-label={`Audit of trade ${trade.id}: ${trade.asset} ${directionLabel(trade.type)}, ${formatDateTime(trade.start_time)}`}
                    className="rounded text-left text-slate-700 underline-offset-2 hover:underline dark:text-slate-200"
                    onClick={(event) => {
                      event.stopPropagation();
                      onOpen(trade);
                    }}
                  >
                    {formatDateTime(trade.start_time)}
                  </button>
                </td>
                <td className={`${cell} font-semibold`}>{trade.asset}</td>
                <td className={cell}>
                  <span
                    className={
                      trade.type === "call"
                        ? "font-semibold text-emerald-700 dark:text-emerald-400"
                        : "font-semibold text-red-700 dark:text-red-400"
                    }
                  >
                    {directionLabel(trade.type)}
                  </span>
                </td>
                <td className={`${cell} text-right`}>{formatUsd(trade.amount)}</td>
                {showPrices ? (
                  <>
                    <td className={`${cell} text-right`}>
                      {formatPrice(trade.asset, trade.entry_price)}
                    </td>
                    <td className={`${cell} text-right`}>
                      {formatPrice(trade.asset, trade.exit_price)}
                    </td>
                  </>
                ) : null}
                <td
                  className={`${cell} text-right font-semibold ${profitLossTone(trade.profit_loss)}`}
                >
                  {formatProfitLoss(trade.profit_loss)}
                </td>
                <td className={cell}>
                  <span
                    className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${tradeStatusTone(trade.status)}`}
                  >
                    {tradeStatusLabel(trade.status)}
                  </span>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** The same trades on a phone: one card each, the whole card opening the audit. */
function TradeCards({
  caption,
  trades,
  showPrices,
  onOpen,
}: {
  caption: string;
  trades: readonly TradeView[];
  showPrices: boolean;
  onOpen: (trade: TradeView) => void;
}) {
  if (trades.length === 0) {
    return <p className="py-8 text-center text-sm text-slate-500">No tradings found</p>;
  }
  return (
    <ul aria-label={caption} className="grid grid-cols-1 gap-2">
      {trades.map((trade) => (
        <li key={trade.id}>
          <button
            type="button"
            data-trade-id={trade.id}
            onClick={() => onOpen(trade)}
            className="grid w-full grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 rounded-xl border border-slate-200 p-3 text-left text-sm tabular-nums transition-colors hover:bg-slate-50 dark:border-navy-700 dark:hover:bg-navy-800"
          >
            <span className="font-semibold text-slate-900 dark:text-white">
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
            <span
              className={`justify-self-end rounded-full px-2 py-0.5 text-xs font-semibold ${tradeStatusTone(trade.status)}`}
            >
              {tradeStatusLabel(trade.status)}
            </span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {formatDateTime(trade.start_time)}
            </span>
            <span className="justify-self-end font-medium text-slate-900 dark:text-slate-100">
              {formatUsd(trade.amount)}
            </span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {showPrices
                ? `Entry ${formatPrice(trade.asset, trade.entry_price)} · Exit ${formatPrice(trade.asset, trade.exit_price)}`
                : "Profit/Loss"}
            </span>
            <span className={`justify-self-end font-semibold ${profitLossTone(trade.profit_loss)}`}>
              {formatProfitLoss(trade.profit_loss)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

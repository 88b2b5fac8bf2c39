import type { TradeView } from "@tp/domain/api";
import { formatUsd } from "@tp/domain/money";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../api/client.ts";
import { downloadFile } from "../api/download-file.ts";
import { useTradeAudit } from "../api/trade-audit.ts";
import { paths } from "../paths.ts";
import { Button } from "./button.tsx";
import { Modal } from "./modal.tsx";
import { FailureState, failureDetails } from "./query-states.tsx";
import { TextLink } from "./text-link.tsx";
import {
  directionLabel,
  formatDateTime,
  formatPrice,
  formatProfitLoss,
  formatTimeMs,
  profitLossTone,
  tradeStatusLabel,
  tradeStatusTone,
} from "./trade-format.ts";

/** Why a trade ended as it did, in the words of PRODUCT.md D1. */
const settlementRule =
  "A Call wins when the exit price is above the entry price, a Put when it is below; equal prices refund the stake. The entry price is the price in force when the trade was accepted; the exit price is the last price at or before the expiry instant.";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words tabular-nums text-slate-900 dark:text-slate-100">
        {children}
      </dd>
    </div>
  );
}

function TickTable({
  caption,
  symbol,
  ticks,
  mark,
}: {
  caption: string;
  symbol: string;
  ticks: ReadonlyArray<{ price: number; at: string }>;
  /** The tick the settlement used: highlighted, and scrolled to the middle of the box. */
  mark: { price: number | null; at: string | null; label: string };
}) {
  const captionId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const markedRef = useRef<HTMLTableRowElement>(null);
  const markedAtMs = mark.at === null ? null : Date.parse(mark.at);
  useEffect(() => {
    const box = boxRef.current;
    const row = markedRef.current;
    if (!box || !row) return;
    box.scrollTop = row.offsetTop - box.clientHeight / 2 + row.clientHeight / 2;
  });
  return (
    <div className="min-w-0">
      <h3
        id={captionId}
        className="mb-1.5 text-sm font-semibold text-slate-800 dark:text-slate-100"
      >
        {caption}
      </h3>
      <div
        ref={boxRef}
        className="relative max-h-64 overflow-y-auto rounded-lg border border-slate-200 dark:border-navy-700"
      >
        <table aria-labelledby={captionId} className="w-full text-left text-xs">
          <thead className="sticky top-0 bg-slate-50 text-slate-500 dark:bg-navy-800 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-2.5 py-1.5 font-medium">
                Time
              </th>
              <th scope="col" className="px-2.5 py-1.5 text-right font-medium">
                Price
              </th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {ticks.length === 0 ? (
              <tr>
                <td colSpan={2} className="px-2.5 py-2 text-slate-500 dark:text-slate-400">
                  No ticks recorded
                </td>
              </tr>
            ) : (
              ticks.map((tick) => {
                const marked = markedAtMs === Date.parse(tick.at) && tick.price === mark.price;
                return (
                  <tr
                    key={`${tick.at}-${tick.price}`}
                    ref={marked ? markedRef : undefined}
                    className={
                      marked
                        ? "bg-brand-600/10 font-semibold text-brand-800 dark:text-brand-300"
                        : "border-t border-slate-100 dark:border-navy-800"
                    }
                  >
                    <td className="px-2.5 py-1">
                      {formatTimeMs(tick.at)}
                      {marked ? (
                        <span className="ml-1.5 text-[10px] uppercase">{mark.label}</span>
                      ) : null}
                    </td>
                    <td className="px-2.5 py-1 text-right">{formatPrice(symbol, tick.price)}</td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The audit of one trade (PRODUCT.md D1): entry and exit price and time, the feed, the
 * payout, how long settlement took after expiry, and the ticks around entry and expiry.
 */
/**
 * The trade's signed receipt (issue 15 item 1) as a file: what the platform states about the
 * trade, signed with its published key, for the trader to keep or have checked.
 */
function ReceiptDownload({ tradeId, settled }: { tradeId: number; settled: boolean }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const name = await downloadFile(
        `/trades/${tradeId}/receipt`,
        `trade-${tradeId}-receipt.json`,
      );
      toast.success(`Downloaded ${name}`);
    } catch (error) {
      toast.error(errorMessage(error, "Could not download the receipt"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 dark:border-navy-700">
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {settled
          ? "A signed settlement receipt: the prices, outcome and payout, signed with the platform's published key."
          : "A signed placement receipt: the entry price and times, signed with the platform's published key. Download again once settled for the outcome."}
      </p>
      <Button variant="secondary" size="sm" onClick={() => void download()} disabled={busy}>
        {busy ? "Downloading..." : "Download receipt"}
      </Button>
    </div>
  );
}

export function TradeAuditDialog({ trade, onClose }: { trade: TradeView; onClose: () => void }) {
  const audit = useTradeAudit(trade.id);
  const current = audit.data?.trade ?? trade;
  return (
    <Modal
      title={`Trade #${current.id} · ${current.asset} ${directionLabel(current.type)}`}
      onClose={onClose}
      size="lg"
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        <Fact label="Account">{current.is_practice ? "Practice" : "Real"}</Fact>
        <Fact label="Amount">{formatUsd(current.amount)}</Fact>
        <Fact label="Status">
          <span
            className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${tradeStatusTone(current.status)}`}
          >
            {tradeStatusLabel(current.status)}
          </span>
        </Fact>
        <Fact label="Entry price">{formatPrice(current.asset, current.entry_price)}</Fact>
        <Fact label="Entry time">{formatTimeMs(current.entry_at)}</Fact>
        <Fact label="Feed">{current.feed}</Fact>
        <Fact label="Exit price">{formatPrice(current.asset, current.exit_price)}</Fact>
        <Fact label="Exit time">{formatTimeMs(current.exit_at)}</Fact>
        <Fact label="Expiry">{formatTimeMs(current.expires_at)}</Fact>
        <Fact label="Payout">
          {current.payout_percent}% ({formatUsd(current.profit)})
        </Fact>
        <Fact label="Profit/Loss">
          <span className={profitLossTone(current.profit_loss)}>
            {formatProfitLoss(current.profit_loss)}
          </span>
        </Fact>
        <Fact label="Settlement lag">
          {audit.data?.audit.settlement_lag_ms === null || audit.data === undefined
            ? "—"
            : `${audit.data.audit.settlement_lag_ms} ms`}
        </Fact>
        <Fact label="Opened">{formatDateTime(current.start_time)}</Fact>
        <Fact label="Order received">{formatTimeMs(current.received_at)}</Fact>
        <Fact label="Accepted">
          {formatTimeMs(current.start_time)}
          {current.received_at === null
            ? null
            : ` (${Date.parse(current.start_time) - Date.parse(current.received_at)} ms after)`}
        </Fact>
        <Fact label="Settled">{formatDateTime(current.settled_at)}</Fact>
        <Fact label="Duration">{current.duration} seconds</Fact>
        <Fact label="Rules">
          {current.rule_version === null ? (
            "Before the rulebook"
          ) : (
            <TextLink to={paths.rules}>Version {current.rule_version}</TextLink>
          )}
        </Fact>
      </dl>

      {audit.data?.audit.note ? (
        <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
          {audit.data.audit.note}
        </p>
      ) : null}

      <div className="mt-5 border-t border-slate-200 pt-4 dark:border-navy-700">
        {audit.isPending ? (
          <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
            Loading...
          </p>
        ) : audit.isError ? (
          <FailureState
            title="The ticks of this trade could not be loaded."
            details={failureDetails(audit.error)}
            onRetry={() => void audit.refetch()}
            retrying={audit.isFetching}
          />
        ) : (
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <TickTable
              caption="Ticks around entry"
              symbol={current.asset}
              ticks={audit.data.audit.entry_ticks}
              mark={{ price: current.entry_price, at: current.entry_at, label: "entry" }}
            />
            <TickTable
              caption="Ticks around expiry"
              symbol={current.asset}
              ticks={audit.data.audit.exit_ticks}
              mark={{ price: current.exit_price, at: current.exit_at, label: "exit" }}
            />
          </div>
        )}
      </div>
      <p className="mt-4 text-xs leading-relaxed text-slate-500 dark:text-slate-400">
        {settlementRule}
      </p>
      <ReceiptDownload tradeId={current.id} settled={current.status !== "open"} />
    </Modal>
  );
}

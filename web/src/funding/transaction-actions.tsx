import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  fundingMessages as m,
  type TransactionRow,
  type WithdrawalView,
  withdrawalTimelineLabels,
} from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { useState } from "react";
import toast from "react-hot-toast/headless";
import { cancelDeposit } from "../api/cancel-deposit.ts";
import { cancelWithdrawal, fetchWithdrawal, withdrawalQueryKey } from "../api/cashier.ts";
import { errorMessage } from "../api/client.ts";
import { newIdempotencyKey } from "../api/place-trade.ts";
import { transactionHistoryRootKey } from "../api/transaction-history.ts";
import { Button, ButtonLink } from "../components/button.tsx";
import { Modal } from "../components/modal.tsx";
import { formatDateTime } from "../components/trade-format.ts";
import { paths } from "../paths.ts";

/** The deposit flow's address that resumes this deposit at its payment-proof step. */
export function continueDepositPath(depositId: number): string {
  return `${paths.user.fundWallet}?deposit=${depositId}`;
}

/**
 * What the trader can do with a row of the transaction history (issue 13, no dead ends):
 * continue or cancel a deposit awaiting payment; open a withdrawal's timeline, and cancel
 * it there while it is pending.
 */
export function TransactionActions({ row }: { row: TransactionRow }) {
  if (row.type === "deposit") {
    return row.status === "awaiting_payment" ? <UnpaidDepositActions row={row} /> : null;
  }
  return <WithdrawalTimelineButton row={row} />;
}

function useRefreshHistory() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: transactionHistoryRootKey });
}

function UnpaidDepositActions({ row }: { row: TransactionRow }) {
  const refresh = useRefreshHistory();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      await cancelDeposit(row.id, newIdempotencyKey());
      toast.success(m.depositCancelled);
    } catch (error) {
      toast.error(errorMessage(error, m.cancelFailed));
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <div className="mt-1.5 flex flex-wrap gap-1.5">
      <ButtonLink
        to={continueDepositPath(row.id)}
        size="sm"
        variant="secondary"
        aria-label={`Continue deposit ${row.transactionId}: upload the payment proof`}
      >
        Continue
      </ButtonLink>
      <Button
        size="sm"
        variant="ghost"
        busy={busy}
        onClick={() => void cancel()}
        aria-label={`Cancel deposit ${row.transactionId}`}
      >
        Cancel
      </Button>
    </div>
  );
}

function WithdrawalTimelineButton({ row }: { row: TransactionRow }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="mt-1 -ml-3"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={`Timeline of withdrawal ${row.transactionId}`}
      >
        Timeline
      </Button>
      {open ? <WithdrawalTimelineDialog row={row} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function WithdrawalTimelineDialog({ row, onClose }: { row: TransactionRow; onClose: () => void }) {
  const refresh = useRefreshHistory();
  const queryClient = useQueryClient();
  const withdrawal = useQuery({
    queryKey: withdrawalQueryKey(row.id),
    queryFn: ({ signal }) => fetchWithdrawal(row.id, signal),
  });
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    setCancelling(true);
    try {
      const after = await cancelWithdrawal(row.id, newIdempotencyKey());
      queryClient.setQueryData(withdrawalQueryKey(row.id), after);
      toast.success(m.withdrawalCancelled);
    } catch (error) {
      toast.error(errorMessage(error, m.withdrawalNotPending));
      void withdrawal.refetch();
    } finally {
      setCancelling(false);
      refresh();
    }
  };
  const pending = withdrawal.data?.status === "pending";
  return (
    <Modal
      title={`Withdrawal ${row.transactionId}`}
      onClose={onClose}
      dismissible={!cancelling}
      footer={
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={cancelling}>
            Close
          </Button>
          {pending ? (
            <Button variant="danger" busy={cancelling} onClick={() => void cancel()}>
              Cancel withdrawal
            </Button>
          ) : null}
        </div>
      }
    >
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        {formatUsd(row.amount)} via {row.method}
        {pending
          ? ". While it is pending you can cancel it; the amount returns to your balance."
          : "."}
      </p>
      {withdrawal.isPending ? (
        <p role="status" className="py-4 text-sm text-slate-500">
          Loading...
        </p>
      ) : withdrawal.isError ? (
        <p role="alert" className="py-4 text-sm text-red-600 dark:text-red-400">
          The timeline could not be loaded.{" "}
          <button
            type="button"
            className="font-semibold underline"
            onClick={() => void withdrawal.refetch()}
          >
            Try again
          </button>
        </p>
      ) : (
        <WithdrawalTimeline withdrawal={withdrawal.data} />
      )}
    </Modal>
  );
}

/** The steps of a withdrawal: done ones with their time, the next one with its expected time. */
export function WithdrawalTimeline({ withdrawal }: { withdrawal: WithdrawalView }) {
  return (
    <ol
      aria-label="Withdrawal timeline"
      className="relative ml-2 border-l border-slate-200 dark:border-navy-700"
    >
      {withdrawal.timeline.map((entry) => {
        const done = entry.at !== null;
        const failed = entry.step === "rejected" || entry.step === "cancelled";
        return (
          <li
            key={`${entry.step}-${done ? "done" : "next"}`}
            data-step={entry.step}
            data-done={done}
            className="relative mb-4 pl-5 last:mb-0"
          >
            <span
              aria-hidden="true"
              className={`absolute top-1 -left-[7px] size-3.5 rounded-full border-2 ${
                !done
                  ? "border-slate-400 bg-white dark:bg-navy-900"
                  : failed
                    ? "border-red-600 bg-red-600"
                    : "border-emerald-600 bg-emerald-600"
              }`}
            />
            <p className="text-sm font-semibold text-slate-900 dark:text-white">
              {withdrawalTimelineLabels[entry.step]}
              {done ? null : (
                <span className="ml-2 text-xs font-medium text-slate-600 dark:text-slate-300">
                  next
                </span>
              )}
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {done
                ? formatDateTime(entry.at)
                : entry.expected_by
                  ? `Expected by ${formatDateTime(entry.expected_by)}`
                  : "Time not known yet"}
            </p>
            {entry.note ? (
              <p className="mt-0.5 break-words text-xs text-slate-600 dark:text-slate-300">
                {entry.note}
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

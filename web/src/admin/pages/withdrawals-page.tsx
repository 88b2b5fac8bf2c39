import { useQuery } from "@tanstack/react-query";
import { type AdminWithdrawalView, adminMessages } from "@tp/domain/admin-api";
import {
  approveWithdrawalSchema,
  rejectSchema,
  type WithdrawalStatus,
  withdrawalStatuses,
} from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { withdrawalQueueQuery } from "../api/queues.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import { displayName, formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { TextDecisionDialog } from "../components/decision-dialogs.tsx";
import {
  Facts,
  NothingSelected,
  nextSelection,
  QueueColumns,
  QueueList,
  StatusFilter,
  useQueueParams,
} from "../components/queue-layout.tsx";
import { StatusBadge } from "../components/status-badge.tsx";
import { TraderRef } from "../components/trader-ref.tsx";

const getId = (withdrawal: AdminWithdrawalView) => withdrawal.id;

/** Withdrawals queue (PRODUCT.md D4, D7): pay out and record the reference, or reject (hold released). */
export function WithdrawalsPage() {
  const params = useQueueParams<WithdrawalStatus>(withdrawalStatuses, "pending");
  const query = useQuery(withdrawalQueueQuery({ status: params.status, page: params.page }));
  const items = query.data?.data;
  const selected = items?.find((withdrawal) => withdrawal.id === params.selectedId) ?? null;

  const afterDecision = (id: number) => {
    if (params.status !== undefined) params.select(nextSelection(items, getId, id));
  };

  return (
    <>
      <PageTitle
        title="Withdrawals"
        description="Pay the trader outside the platform, then mark the withdrawal paid with the payout reference. Rejecting releases the held amount."
      />
      <StatusFilter
        label="Withdrawal status"
        statuses={withdrawalStatuses}
        current={params.status}
        onChange={params.setStatus}
      />
      <QueueColumns
        selectedId={selected ? selected.id : null}
        list={
          <QueueList
            label="Withdrawals"
            items={items}
            isLoading={query.isLoading}
            error={query.error}
            isFetching={query.isFetching}
            emptyText="No withdrawals here."
            getId={getId}
            selectedId={params.selectedId}
            onSelect={params.select}
            page={params.page}
            lastPage={query.data?.pagination.last_page ?? 1}
            total={query.data?.pagination.total ?? 0}
            onPage={params.setPage}
            renderRow={(withdrawal) => <WithdrawalRow withdrawal={withdrawal} />}
          />
        }
        detail={
          selected ? (
            <WithdrawalDetail key={selected.id} withdrawal={selected} onDecided={afterDecision} />
          ) : (
            <NothingSelected text="Select a withdrawal to see where to pay and decide." />
          )
        }
      />
    </>
  );
}

function WithdrawalRow({ withdrawal }: { withdrawal: AdminWithdrawalView }) {
  return (
    <div className="flex items-start gap-3">
      <div className="min-w-0 flex-1">
        <TraderRef trader={withdrawal.trader} link={false} />
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          #{withdrawal.id} · {withdrawal.method} · {formatDateTime(withdrawal.created_at)}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span className="font-semibold tabular-nums">{formatUsd(withdrawal.amount)}</span>
        <StatusBadge status={withdrawal.status} />
      </div>
    </div>
  );
}

/** Where the money goes: the details the trader gave, without the repeated amount. */
function payoutDetails(withdrawal: AdminWithdrawalView): Array<[string, string]> {
  return Object.entries(withdrawal.withdrawal_details)
    .filter(([key]) => key !== "amount")
    .map(([key, value]) => [humanizeKey(key), String(value)]);
}

function PayoutDetails({ withdrawal }: { withdrawal: AdminWithdrawalView }) {
  const details = payoutDetails(withdrawal);
  return (
    <div className="rounded-xl border border-slate-200 p-3 dark:border-navy-700">
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        Pay to ({withdrawal.method})
      </h3>
      {details.length > 0 ? (
        <dl className="grid gap-1.5 text-sm">
          {details.map(([term, value]) => (
            <div key={term}>
              <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
              <dd className="break-all font-mono text-[13px] font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-slate-500">No payout details.</p>
      )}
    </div>
  );
}

type Dialog = "approve" | "reject" | null;

function WithdrawalDetail({
  withdrawal,
  onDecided,
}: {
  withdrawal: AdminWithdrawalView;
  onDecided: (id: number) => void;
}) {
  const run = useRunAdminAction();
  const [dialog, setDialog] = useState<Dialog>(null);
  const amount = formatUsd(withdrawal.amount);
  const name = displayName(withdrawal.trader.name, withdrawal.trader.email);
  const pending = withdrawal.status === "pending";

  const approve = async (payoutReference: string) => {
    const outcome = await run(
      {
        method: "POST",
        path: `/admin/withdrawals/${withdrawal.id}/approve`,
        body: { payout_reference: payoutReference },
      },
      { success: adminMessages.withdrawalPaid, failure: "The withdrawal could not be approved" },
    );
    if (outcome === true) onDecided(withdrawal.id);
    return outcome;
  };
  const reject = async (reason: string) => {
    const outcome = await run(
      { method: "POST", path: `/admin/withdrawals/${withdrawal.id}/reject`, body: { reason } },
      {
        success: adminMessages.withdrawalRejected,
        failure: "The withdrawal could not be rejected",
      },
    );
    if (outcome === true) onDecided(withdrawal.id);
    return outcome;
  };

  return (
    <Card aria-labelledby={`withdrawal-${withdrawal.id}-title`}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2
            id={`withdrawal-${withdrawal.id}-title`}
            className="flex items-center gap-2 font-semibold"
          >
            Withdrawal #{withdrawal.id} <StatusBadge status={withdrawal.status} />
          </h2>
          <p className="mt-1 text-2xl font-bold tabular-nums">{amount}</p>
        </div>
        {pending ? (
          <div className="flex gap-2">
            <Button variant="danger" size="sm" onClick={() => setDialog("reject")}>
              Reject
            </Button>
            <Button size="sm" onClick={() => setDialog("approve")}>
              Mark as paid
            </Button>
          </div>
        ) : null}
      </div>
      <div className="mb-4 rounded-xl bg-slate-50 p-3 dark:bg-navy-950/60">
        <TraderRef trader={withdrawal.trader} />
      </div>
      <PayoutDetails withdrawal={withdrawal} />
      <div className="mt-4">
        <Facts
          items={[
            ["Reference", withdrawal.transaction_hash],
            ["Requested", formatDateTime(withdrawal.created_at)],
            ...(withdrawal.reviewed_at
              ? ([
                  [
                    "Reviewed",
                    `${formatDateTime(withdrawal.reviewed_at)}${withdrawal.reviewed_by ? ` by ${withdrawal.reviewed_by.email}` : ""}`,
                  ],
                ] as Array<[string, string]>)
              : []),
            ...(withdrawal.payout_reference
              ? ([["Payout reference", withdrawal.payout_reference]] as Array<[string, string]>)
              : []),
            ...(withdrawal.rejection_reason
              ? ([["Reason", withdrawal.rejection_reason]] as Array<[string, string]>)
              : []),
          ]}
        />
      </div>

      {dialog === "approve" ? (
        <TextDecisionDialog
          title={`Mark withdrawal #${withdrawal.id} as paid`}
          fieldLabel="Payout reference"
          fieldName="payout_reference"
          hint="The transaction id or bank reference of the payment you made."
          schema={approveWithdrawalSchema.shape.payout_reference}
          submitLabel={`Confirm ${amount} paid`}
          onSubmit={approve}
          onClose={() => setDialog(null)}
        >
          <p className="mb-3">
            Confirm that you have paid <strong>{amount}</strong> to <strong>{name}</strong> (
            {withdrawal.trader.email}). The held amount leaves their balance for good.
          </p>
          <PayoutDetails withdrawal={withdrawal} />
        </TextDecisionDialog>
      ) : null}
      {dialog === "reject" ? (
        <TextDecisionDialog
          title={`Reject withdrawal #${withdrawal.id}`}
          fieldLabel="Reason"
          fieldName="reason"
          hint="The trader sees this reason in their transaction history."
          schema={rejectSchema.shape.reason}
          submitLabel="Reject and release the hold"
          variant="danger"
          onSubmit={reject}
          onClose={() => setDialog(null)}
        >
          <p>
            {amount} held for {name} ({withdrawal.trader.email}) goes back to their available
            balance.
          </p>
        </TextDecisionDialog>
      ) : null}
    </Card>
  );
}

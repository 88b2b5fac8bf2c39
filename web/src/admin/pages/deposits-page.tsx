import { useQuery } from "@tanstack/react-query";
import { type AdminDepositView, adminMessages } from "@tp/domain/admin-api";
import { type DepositStatus, depositStatuses, rejectSchema } from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { depositQueueQuery, depositReceiptPath } from "../api/queues.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import { displayName, formatDateTime } from "../components/admin-format.ts";
import { ConfirmDialog, TextDecisionDialog } from "../components/decision-dialogs.tsx";
import { FilePreview } from "../components/file-preview.tsx";
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

const getId = (deposit: AdminDepositView) => deposit.id;

/** Deposits queue (PRODUCT.md D7): see the receipt, approve (credits the real balance) or reject. */
export function DepositsPage() {
  const params = useQueueParams<DepositStatus>(depositStatuses, "under_review");
  const query = useQuery(depositQueueQuery({ status: params.status, page: params.page }));
  const items = query.data?.data;
  const selected = items?.find((deposit) => deposit.id === params.selectedId) ?? null;

  const afterDecision = (id: number) => {
    // The decided deposit leaves a filtered list: move on to the next one.
    if (params.status !== undefined) params.select(nextSelection(items, getId, id));
  };

  return (
    <>
      <PageTitle
        title="Deposits"
        description="Check each receipt against the payment, then approve to credit the trader's real balance, or reject with a reason."
      />
      <StatusFilter
        label="Deposit status"
        statuses={depositStatuses}
        current={params.status}
        onChange={params.setStatus}
      />
      <QueueColumns
        selectedId={selected ? selected.id : null}
        list={
          <QueueList
            label="Deposits"
            items={items}
            isLoading={query.isLoading}
            error={query.error}
            isFetching={query.isFetching}
            emptyText="No deposits here."
            getId={getId}
            selectedId={params.selectedId}
            onSelect={params.select}
            page={params.page}
            lastPage={query.data?.pagination.last_page ?? 1}
            total={query.data?.pagination.total ?? 0}
            onPage={params.setPage}
            renderRow={(deposit) => <DepositRow deposit={deposit} />}
          />
        }
        detail={
          selected ? (
            <DepositDetail key={selected.id} deposit={selected} onDecided={afterDecision} />
          ) : (
            <NothingSelected text="Select a deposit to see its receipt and decide." />
          )
        }
      />
    </>
  );
}

function DepositRow({ deposit }: { deposit: AdminDepositView }) {
  return (
    <div className="flex items-start gap-3">
      <div className="min-w-0 flex-1">
        <TraderRef trader={deposit.trader} link={false} />
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          #{deposit.id} · {deposit.method} · {formatDateTime(deposit.created_at)}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span className="font-semibold tabular-nums">{formatUsd(deposit.amount)}</span>
        <StatusBadge status={deposit.status} />
      </div>
    </div>
  );
}

type Dialog = "approve" | "reject" | null;

function DepositDetail({
  deposit,
  onDecided,
}: {
  deposit: AdminDepositView;
  onDecided: (id: number) => void;
}) {
  const run = useRunAdminAction();
  const [dialog, setDialog] = useState<Dialog>(null);
  const amount = formatUsd(deposit.amount);
  const name = displayName(deposit.trader.name, deposit.trader.email);
  const reviewable = deposit.status === "under_review";

  const approve = async () => {
    const outcome = await run(
      { method: "POST", path: `/admin/deposits/${deposit.id}/approve` },
      { success: adminMessages.depositApproved, failure: "The deposit could not be approved" },
    );
    if (outcome === true) onDecided(deposit.id);
  };
  const reject = async (reason: string) => {
    const outcome = await run(
      { method: "POST", path: `/admin/deposits/${deposit.id}/reject`, body: { reason } },
      { success: adminMessages.depositRejected, failure: "The deposit could not be rejected" },
    );
    if (outcome === true) onDecided(deposit.id);
    return outcome;
  };

  return (
    <Card aria-labelledby={`deposit-${deposit.id}-title`}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`deposit-${deposit.id}-title`} className="flex items-center gap-2 font-semibold">
            Deposit #{deposit.id} <StatusBadge status={deposit.status} />
          </h2>
          <p className="mt-1 text-2xl font-bold tabular-nums">{amount}</p>
        </div>
        {reviewable ? (
          <div className="flex gap-2">
            <Button variant="danger" size="sm" onClick={() => setDialog("reject")}>
              Reject
            </Button>
            <Button size="sm" onClick={() => setDialog("approve")}>
              Approve
            </Button>
          </div>
        ) : null}
      </div>
      <div className="mb-4 rounded-xl bg-slate-50 p-3 dark:bg-navy-950/60">
        <TraderRef trader={deposit.trader} />
      </div>
      <Facts
        items={[
          ["Method", deposit.method],
          [
            "Reference",
            <code key="hash" className="break-all text-xs">
              {deposit.transaction_hash}
            </code>,
          ],
          ["Created", formatDateTime(deposit.created_at)],
          ["Receipt uploaded", formatDateTime(deposit.receipt_uploaded_at)],
          ...(deposit.reviewed_at
            ? ([
                [
                  "Reviewed",
                  `${formatDateTime(deposit.reviewed_at)}${deposit.reviewed_by ? ` by ${deposit.reviewed_by.email}` : ""}`,
                ],
              ] as Array<[string, string]>)
            : []),
          ...(deposit.rejection_reason
            ? ([["Reason", deposit.rejection_reason]] as Array<[string, string]>)
            : []),
        ]}
      />
      <div className="mt-5">
        <h3 className="mb-2 text-sm font-semibold">Receipt</h3>
        {deposit.has_receipt ? (
          <FilePreview
            path={depositReceiptPath(deposit.id)}
            contentType={deposit.receipt_content_type}
            label={`Receipt of deposit #${deposit.id}`}
            downloadName={`receipt-${deposit.id}`}
          />
        ) : (
          <p className="text-sm text-slate-500">{adminMessages.noReceipt}.</p>
        )}
      </div>

      {dialog === "approve" ? (
        <ConfirmDialog
          title={`Approve deposit #${deposit.id}?`}
          confirmLabel={`Approve and credit ${amount}`}
          onConfirm={approve}
          onClose={() => setDialog(null)}
        >
          <p>
            This credits <strong>{amount}</strong> to the real balance of <strong>{name}</strong> (
            {deposit.trader.email}). Approve only when the payment has arrived.
          </p>
        </ConfirmDialog>
      ) : null}
      {dialog === "reject" ? (
        <TextDecisionDialog
          title={`Reject deposit #${deposit.id}`}
          fieldLabel="Reason"
          fieldName="reason"
          hint="The trader sees this reason in their transaction history."
          schema={rejectSchema.shape.reason}
          submitLabel="Reject deposit"
          variant="danger"
          onSubmit={reject}
          onClose={() => setDialog(null)}
        >
          <p>
            {amount} from {name} ({deposit.trader.email}). Nothing is credited.
          </p>
        </TextDecisionDialog>
      ) : null}
    </Card>
  );
}

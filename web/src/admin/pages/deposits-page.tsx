import { type AdminDepositView, adminMessages } from "@tp/domain/admin-api";
import { depositStatuses, rejectSchema } from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { depositQueueQuery, depositReceiptPath } from "../api/queues.ts";
import { useQueueDecision } from "../api/use-queue-decision.ts";
import { displayName, formatDateTime } from "../components/admin-format.ts";
import { ConfirmDialog, TextDecisionDialog } from "../components/decision-dialogs.tsx";
import { FilePreview } from "../components/file-preview.tsx";
import {
  AwaitingSecondBadge,
  approvalStep,
  awaitingSecondApproval,
  fourEyesFacts,
} from "../components/four-eyes.tsx";
import { factIfSet, QueueDetail, QueueRow, reviewedFacts } from "../components/queue-item.tsx";
import { Facts } from "../components/queue-layout.tsx";
import { QueuePage } from "../components/queue-page.tsx";
import { StaffExport } from "../components/staff-export.tsx";
import { useSignedInUserId, useStaffCan } from "../use-staff-role.ts";

/** Deposits queue (PRODUCT.md D7): see the receipt, approve (credits the real balance) or reject. */
export function DepositsPage() {
  return (
    <QueuePage
      title="Deposits"
      footer={<StaffExport kinds={["deposits"]} />}
      description="Check each receipt against the payment, then approve to credit the trader's real balance, or reject with a reason."
      statuses={depositStatuses}
      statusLabel="Deposit status"
      defaultStatus="under_review"
      listLabel="Deposits"
      emptyText="No deposits here."
      nothingSelectedText="Select a deposit to see its receipt and decide."
      query={depositQueueQuery}
      renderRow={(deposit) => (
        <QueueRow
          item={deposit}
          facts={[deposit.method, formatDateTime(deposit.created_at)]}
          amount={formatUsd(deposit.amount)}
          badge={
            awaitingSecondApproval(deposit, deposit.status === "under_review") ? (
              <AwaitingSecondBadge />
            ) : null
          }
        />
      )}
      renderDetail={(deposit, onDecided) => (
        <DepositDetail deposit={deposit} onDecided={onDecided} />
      )}
    />
  );
}

type Dialog = "approve" | "reject" | null;

function DepositDetail({
  deposit,
  onDecided,
}: {
  deposit: AdminDepositView;
  onDecided: () => void;
}) {
  const decide = useQueueDecision("deposits", deposit.id, onDecided);
  const [dialog, setDialog] = useState<Dialog>(null);
  const amount = formatUsd(deposit.amount);
  // The fee was fixed when the deposit was made: the trader is credited the rest.
  const credit = formatUsd(deposit.net_amount);
  const name = displayName(deposit.trader.name, deposit.trader.email);
  const reviewable = deposit.status === "under_review";
  const canDecide = useStaffCan("reviewer");
  const step = approvalStep(deposit.four_eyes, useSignedInUserId());

  const approve = () =>
    decide("approve", undefined, {
      success:
        step === "first" ? adminMessages.depositFirstApproval : adminMessages.depositApproved,
      failure: "The deposit could not be approved",
    });
  const reject = (reason: string) =>
    decide(
      "reject",
      { reason },
      { success: adminMessages.depositRejected, failure: "The deposit could not be rejected" },
    );

  return (
    <QueueDetail
      item={deposit}
      titleId={`deposit-${deposit.id}-title`}
      title={<>Deposit #{deposit.id}</>}
      summary={
        <>
          <p className="mt-1 text-2xl font-bold tabular-nums">{amount}</p>
          {deposit.fee > 0 ? (
            <p className="text-sm text-slate-600 tabular-nums dark:text-slate-400">
              Fee {formatUsd(deposit.fee)} · credits {credit}
            </p>
          ) : null}
        </>
      }
      actions={
        reviewable && canDecide ? (
          <>
            <Button variant="danger" size="sm" onClick={() => setDialog("reject")}>
              Reject
            </Button>
            <Button size="sm" disabled={step === "own"} onClick={() => setDialog("approve")}>
              {step === "first"
                ? "Approve (1 of 2)"
                : step === "second"
                  ? "Give second approval"
                  : step === "own"
                    ? "Awaiting another reviewer"
                    : "Approve"}
            </Button>
          </>
        ) : null
      }
    >
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
          ...fourEyesFacts(deposit.four_eyes, reviewable),
          ...reviewedFacts(deposit),
          ...factIfSet("Reason", deposit.rejection_reason),
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
          confirmLabel={step === "first" ? "Give first approval" : `Approve and credit ${credit}`}
          onConfirm={approve}
          onClose={() => setDialog(null)}
        >
          {step === "first" ? (
            <p>
              {amount} is above the four-eyes threshold: your approval is recorded and nothing is
              credited to <strong>{name}</strong> ({deposit.trader.email}) until a second reviewer
              approves too. Approve only when the payment has arrived.
            </p>
          ) : (
            <p>
              This credits <strong>{credit}</strong> to the real balance of <strong>{name}</strong>{" "}
              ({deposit.trader.email})
              {deposit.fee > 0 ? `: ${amount} less the ${formatUsd(deposit.fee)} fee` : ""}. Approve
              only when the payment of {amount} has arrived.
            </p>
          )}
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
    </QueueDetail>
  );
}

import { type AdminWithdrawalView, adminMessages } from "@tp/domain/admin-api";
import { approveWithdrawalSchema, rejectSchema, withdrawalStatuses } from "@tp/domain/funding";
import { formatUsd } from "@tp/domain/money";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { withdrawalQueueQuery } from "../api/queues.ts";
import { useQueueDecision } from "../api/use-queue-decision.ts";
import { displayName, formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { ConfirmDialog, TextDecisionDialog } from "../components/decision-dialogs.tsx";
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

/** Withdrawals queue (PRODUCT.md D4, D7): pay out and record the reference, or reject (hold released). */
export function WithdrawalsPage() {
  return (
    <QueuePage
      title="Withdrawals"
      footer={<StaffExport kinds={["withdrawals"]} />}
      description="Pay the trader outside the platform, then mark the withdrawal paid with the payout reference. Rejecting releases the held amount."
      statuses={withdrawalStatuses}
      statusLabel="Withdrawal status"
      defaultStatus="pending"
      listLabel="Withdrawals"
      emptyText="No withdrawals here."
      nothingSelectedText="Select a withdrawal to see where to pay and decide."
      query={withdrawalQueueQuery}
      renderRow={(withdrawal) => (
        <QueueRow
          item={withdrawal}
          facts={[withdrawal.method, formatDateTime(withdrawal.created_at)]}
          amount={formatUsd(withdrawal.amount)}
          badge={
            awaitingSecondApproval(withdrawal, withdrawal.status === "pending") ? (
              <AwaitingSecondBadge />
            ) : null
          }
        />
      )}
      renderDetail={(withdrawal, onDecided) => (
        <WithdrawalDetail withdrawal={withdrawal} onDecided={onDecided} />
      )}
    />
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
  onDecided: () => void;
}) {
  const decide = useQueueDecision("withdrawals", withdrawal.id, onDecided);
  const [dialog, setDialog] = useState<Dialog>(null);
  const amount = formatUsd(withdrawal.amount);
  // The fee was fixed at the request and stays with the platform: staff send the rest.
  const payout = formatUsd(withdrawal.net_amount);
  const name = displayName(withdrawal.trader.name, withdrawal.trader.email);
  const pending = withdrawal.status === "pending";
  const canDecide = useStaffCan("reviewer");
  const step = approvalStep(withdrawal.four_eyes, useSignedInUserId());

  const approve = (payoutReference: string) =>
    decide(
      "approve",
      { payout_reference: payoutReference },
      { success: adminMessages.withdrawalPaid, failure: "The withdrawal could not be approved" },
    );
  // Above the threshold the first approval pays nothing, so it carries no payout reference.
  const approveFirst = () =>
    decide("approve", undefined, {
      success: adminMessages.withdrawalFirstApproval,
      failure: "The withdrawal could not be approved",
    });
  const reject = (reason: string) =>
    decide(
      "reject",
      { reason },
      {
        success: adminMessages.withdrawalRejected,
        failure: "The withdrawal could not be rejected",
      },
    );

  return (
    <QueueDetail
      item={withdrawal}
      titleId={`withdrawal-${withdrawal.id}-title`}
      title={<>Withdrawal #{withdrawal.id}</>}
      summary={
        <>
          <p className="mt-1 text-2xl font-bold tabular-nums">{amount}</p>
          {withdrawal.fee > 0 ? (
            <p className="text-sm text-slate-600 tabular-nums dark:text-slate-400">
              Fee {formatUsd(withdrawal.fee)} · pay out {payout}
            </p>
          ) : null}
        </>
      }
      actions={
        pending && canDecide ? (
          <>
            <Button variant="danger" size="sm" onClick={() => setDialog("reject")}>
              Reject
            </Button>
            <Button size="sm" disabled={step === "own"} onClick={() => setDialog("approve")}>
              {step === "first"
                ? "Approve (1 of 2)"
                : step === "own"
                  ? "Awaiting another reviewer"
                  : "Mark as paid"}
            </Button>
          </>
        ) : null
      }
    >
      <PayoutDetails withdrawal={withdrawal} />
      <div className="mt-4">
        <Facts
          items={[
            ["Reference", withdrawal.transaction_hash],
            ["Requested", formatDateTime(withdrawal.created_at)],
            ...fourEyesFacts(withdrawal.four_eyes, pending),
            ...reviewedFacts(withdrawal),
            ...factIfSet("Payout reference", withdrawal.payout_reference),
            ...factIfSet("Reason", withdrawal.rejection_reason),
          ]}
        />
      </div>

      {dialog === "approve" && step === "first" ? (
        <ConfirmDialog
          title={`Approve withdrawal #${withdrawal.id}?`}
          confirmLabel="Give first approval"
          onConfirm={approveFirst}
          onClose={() => setDialog(null)}
        >
          <p>
            {amount} is above the four-eyes threshold. Do not pay it yet: your approval is recorded,
            and a second reviewer pays <strong>{name}</strong> ({withdrawal.trader.email}) and
            records the payout reference.
          </p>
        </ConfirmDialog>
      ) : null}
      {dialog === "approve" && step !== "first" ? (
        <TextDecisionDialog
          title={`Mark withdrawal #${withdrawal.id} as paid`}
          fieldLabel="Payout reference"
          fieldName="payout_reference"
          hint="The transaction id or bank reference of the payment you made."
          schema={approveWithdrawalSchema.shape.payout_reference.unwrap()}
          submitLabel={`Confirm ${payout} paid`}
          onSubmit={approve}
          onClose={() => setDialog(null)}
        >
          <p className="mb-3">
            Confirm that you have paid <strong>{payout}</strong> to <strong>{name}</strong> (
            {withdrawal.trader.email}).
            {withdrawal.fee > 0
              ? ` That is ${amount} less the ${formatUsd(withdrawal.fee)} fee.`
              : ""}{" "}
            The held amount leaves their balance for good.
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
    </QueueDetail>
  );
}

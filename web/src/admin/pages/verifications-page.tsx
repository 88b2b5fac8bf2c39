import { type AdminVerificationView, adminMessages } from "@tp/domain/admin-api";
import { idTypeLabels, rejectSchema, verificationStatuses } from "@tp/domain/funding";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { verificationFilePath, verificationQueueQuery } from "../api/queues.ts";
import { useQueueDecision } from "../api/use-queue-decision.ts";
import { displayName, formatDateTime } from "../components/admin-format.ts";
import { TextDecisionDialog } from "../components/decision-dialogs.tsx";
import { FilePreview } from "../components/file-preview.tsx";
import { factIfSet, QueueDetail, QueueRow, reviewedFacts } from "../components/queue-item.tsx";
import { Facts } from "../components/queue-layout.tsx";
import { QueuePage } from "../components/queue-page.tsx";
import { useStaffCan } from "../use-staff-role.ts";

function idTypeLabel(verification: AdminVerificationView): string {
  return verification.id_type ? idTypeLabels[verification.id_type] : "ID type not given";
}

/** Identity queue (PRODUCT.md D7): view the document, approve (identity verified) or reject. */
export function VerificationsPage() {
  return (
    <QueuePage
      title="Identity documents"
      description="Compare the document with the trader's account; approving marks their identity verified."
      statuses={verificationStatuses}
      statusLabel="Document status"
      defaultStatus="pending"
      listLabel="Documents"
      emptyText="No documents here."
      nothingSelectedText="Select a document to view it and decide."
      query={verificationQueueQuery}
      renderRow={(verification) => (
        <QueueRow
          item={verification}
          facts={[idTypeLabel(verification), formatDateTime(verification.created_at)]}
        />
      )}
      renderDetail={(verification, onDecided) => (
        <VerificationDetail verification={verification} onDecided={onDecided} />
      )}
    />
  );
}

function VerificationDetail({
  verification,
  onDecided,
}: {
  verification: AdminVerificationView;
  onDecided: () => void;
}) {
  const decide = useQueueDecision("verifications", verification.id, onDecided);
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const name = displayName(verification.trader.name, verification.trader.email);
  const pending = verification.status === "pending";
  const canDecide = useStaffCan("reviewer");

  const approve = async () => {
    setApproving(true);
    try {
      await decide("approve", undefined, {
        success: adminMessages.verificationApproved,
        failure: "The documents could not be approved",
      });
    } finally {
      setApproving(false);
    }
  };
  const reject = (reason: string) =>
    decide(
      "reject",
      { reason },
      {
        success: adminMessages.verificationRejected,
        failure: "The documents could not be rejected",
      },
    );

  return (
    <QueueDetail
      item={verification}
      titleId={`verification-${verification.id}-title`}
      title={<>Document #{verification.id}</>}
      summary={
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {idTypeLabel(verification)}
        </p>
      }
      actions={
        pending && canDecide ? (
          <>
            <Button
              variant="danger"
              size="sm"
              onClick={() => setRejecting(true)}
              disabled={approving}
            >
              Reject
            </Button>
            <Button size="sm" onClick={approve} busy={approving}>
              Approve
            </Button>
          </>
        ) : null
      }
    >
      <Facts
        items={[
          ["Uploaded", formatDateTime(verification.created_at)],
          [
            "E-mail",
            verification.email_verified_at
              ? `Verified ${formatDateTime(verification.email_verified_at)}`
              : "Not verified",
          ],
          [
            "Identity",
            verification.kyc_verified_at
              ? `Verified ${formatDateTime(verification.kyc_verified_at)}`
              : "Not verified",
          ],
          ...reviewedFacts(verification),
          ...factIfSet("Reason", verification.rejection_reason),
        ]}
      />
      <div className="mt-5">
        <FilePreview
          path={verificationFilePath(verification.id)}
          contentType={verification.content_type}
          label={`Identity document #${verification.id} of ${name}`}
          downloadName={`identity-${verification.id}`}
        />
      </div>
      {rejecting ? (
        <TextDecisionDialog
          title={`Reject document #${verification.id}`}
          fieldLabel="Reason"
          fieldName="reason"
          hint="The trader sees this reason and can upload a new document."
          schema={rejectSchema.shape.reason}
          submitLabel="Reject document"
          variant="danger"
          onSubmit={reject}
          onClose={() => setRejecting(false)}
        >
          <p>
            {idTypeLabel(verification)} of {name} ({verification.trader.email}).
          </p>
        </TextDecisionDialog>
      ) : null}
    </QueueDetail>
  );
}

import { useQuery } from "@tanstack/react-query";
import { type AdminVerificationView, adminMessages } from "@tp/domain/admin-api";
import {
  idTypeLabels,
  rejectSchema,
  type VerificationStatus,
  verificationStatuses,
} from "@tp/domain/funding";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { verificationFilePath, verificationQueueQuery } from "../api/queues.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import { displayName, formatDateTime } from "../components/admin-format.ts";
import { TextDecisionDialog } from "../components/decision-dialogs.tsx";
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

const getId = (verification: AdminVerificationView) => verification.id;

function idTypeLabel(verification: AdminVerificationView): string {
  return verification.id_type ? idTypeLabels[verification.id_type] : "ID type not given";
}

/** Identity queue (PRODUCT.md D7): view the document, approve (identity verified) or reject. */
export function VerificationsPage() {
  const params = useQueueParams<VerificationStatus>(verificationStatuses, "pending");
  const query = useQuery(verificationQueueQuery({ status: params.status, page: params.page }));
  const items = query.data?.data;
  const selected = items?.find((verification) => verification.id === params.selectedId) ?? null;

  const afterDecision = (id: number) => {
    if (params.status !== undefined) params.select(nextSelection(items, getId, id));
  };

  return (
    <>
      <PageTitle
        title="Identity documents"
        description="Compare the document with the trader's account; approving marks their identity verified."
      />
      <StatusFilter
        label="Document status"
        statuses={verificationStatuses}
        current={params.status}
        onChange={params.setStatus}
      />
      <QueueColumns
        selectedId={selected ? selected.id : null}
        list={
          <QueueList
            label="Documents"
            items={items}
            isLoading={query.isLoading}
            error={query.error}
            isFetching={query.isFetching}
            emptyText="No documents here."
            getId={getId}
            selectedId={params.selectedId}
            onSelect={params.select}
            page={params.page}
            lastPage={query.data?.pagination.last_page ?? 1}
            total={query.data?.pagination.total ?? 0}
            onPage={params.setPage}
            renderRow={(verification) => (
              <div className="flex items-start gap-3">
                <div className="min-w-0 flex-1">
                  <TraderRef trader={verification.trader} link={false} />
                  <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                    #{verification.id} · {idTypeLabel(verification)} ·{" "}
                    {formatDateTime(verification.created_at)}
                  </p>
                </div>
                <StatusBadge status={verification.status} />
              </div>
            )}
          />
        }
        detail={
          selected ? (
            <VerificationDetail
              key={selected.id}
              verification={selected}
              onDecided={afterDecision}
            />
          ) : (
            <NothingSelected text="Select a document to view it and decide." />
          )
        }
      />
    </>
  );
}

function VerificationDetail({
  verification,
  onDecided,
}: {
  verification: AdminVerificationView;
  onDecided: (id: number) => void;
}) {
  const run = useRunAdminAction();
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const name = displayName(verification.trader.name, verification.trader.email);
  const pending = verification.status === "pending";

  const approve = async () => {
    setApproving(true);
    const outcome = await run(
      { method: "POST", path: `/admin/verifications/${verification.id}/approve` },
      {
        success: adminMessages.verificationApproved,
        failure: "The documents could not be approved",
      },
    ).finally(() => setApproving(false));
    if (outcome === true) onDecided(verification.id);
  };
  const reject = async (reason: string) => {
    const outcome = await run(
      { method: "POST", path: `/admin/verifications/${verification.id}/reject`, body: { reason } },
      {
        success: adminMessages.verificationRejected,
        failure: "The documents could not be rejected",
      },
    );
    if (outcome === true) onDecided(verification.id);
    return outcome;
  };

  return (
    <Card aria-labelledby={`verification-${verification.id}-title`}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2
            id={`verification-${verification.id}-title`}
            className="flex items-center gap-2 font-semibold"
          >
            Document #{verification.id} <StatusBadge status={verification.status} />
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {idTypeLabel(verification)}
          </p>
        </div>
        {pending ? (
          <div className="flex gap-2">
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
          </div>
        ) : null}
      </div>
      <div className="mb-4 rounded-xl bg-slate-50 p-3 dark:bg-navy-950/60">
        <TraderRef trader={verification.trader} />
      </div>
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
          ...(verification.reviewed_at
            ? ([
                [
                  "Reviewed",
                  `${formatDateTime(verification.reviewed_at)}${verification.reviewed_by ? ` by ${verification.reviewed_by.email}` : ""}`,
                ],
              ] as Array<[string, string]>)
            : []),
          ...(verification.rejection_reason
            ? ([["Reason", verification.rejection_reason]] as Array<[string, string]>)
            : []),
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
    </Card>
  );
}

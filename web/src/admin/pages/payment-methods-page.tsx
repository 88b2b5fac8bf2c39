import { useQuery } from "@tanstack/react-query";
import type { AdminPaymentMethod } from "@tp/domain/admin-api";
import { describeFee, feeScheduleOf } from "@tp/domain/fees";
import { usesWalletAddress } from "@tp/domain/funding";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { paymentMethodsQuery } from "../api/payment-methods.ts";
import { formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { Flag } from "../components/flag.tsx";
import { useStaffCan } from "../use-staff-role.ts";
import { EditPaymentMethodDialog } from "./edit-payment-method-dialog.tsx";
import { configurationNeeds, kindLabels } from "./payment-method-kinds.ts";
import { PendingPaymentMethodChanges } from "./pending-payment-method-changes.tsx";

/**
 * Payment methods (PRODUCT.md D7): what traders see on the funding page. An admin's edit is
 * a proposal that takes effect when a second admin confirms it (the list above the methods).
 */
export function PaymentMethodsPage() {
  const query = useQuery(paymentMethodsQuery());
  const canEdit = useStaffCan("admin");
  const [editing, setEditing] = useState<string | null>(null);
  const method = query.data?.find((item) => item.id === editing) ?? null;

  return (
    <>
      <PageTitle
        title="Payment methods"
        description="A method shows to traders as available once it is active and configured. A change takes effect when a second admin confirms it."
      />
      <PendingPaymentMethodChanges />
      {query.isLoading ? (
        <LoadingScreen />
      ) : !query.data ? (
        <FailureState
          title="The payment methods could not be loaded"
          details={failureDetails(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <div className="grid gap-3 md:grid-cols-2 2xl:grid-cols-3">
          {query.data.map((item) => (
            <MethodCard
              key={item.id}
              method={item}
              onEdit={canEdit ? () => setEditing(item.id) : null}
            />
          ))}
        </div>
      )}
      {method ? (
        <EditPaymentMethodDialog key={method.id} method={method} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}

function MethodCard({
  method,
  onEdit,
}: {
  method: AdminPaymentMethod;
  /** Null when the role cannot propose changes. */
  onEdit: (() => void) | null;
}) {
  const details = Object.entries(method.additional_details);
  return (
    <Card as="article" className="flex flex-col gap-3">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{method.name}</h2>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {method.id} · {kindLabels[method.kind]}
          </p>
        </div>
        {onEdit ? (
          <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${method.name}`}>
            Edit
          </Button>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-1">
        <Flag on={method.is_available} label={method.is_available ? "Available" : "Unavailable"} />
        <Flag on={method.is_active} label={method.is_active ? "Active" : "Inactive"} />
        {method.is_recommended ? <Flag on label="Recommended" /> : null}
      </div>
      {!method.is_available && method.is_active ? (
        <p className="text-xs text-amber-700 dark:text-amber-300">
          Needs {configurationNeeds[method.kind]} before traders can use it.
        </p>
      ) : null}
      <dl className="grid gap-1 text-xs">
        {usesWalletAddress(method.kind) ? (
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Wallet address</dt>
            <dd className="break-all font-mono">{method.wallet_address || "—"}</dd>
          </div>
        ) : null}
        {details.map(([key, value]) => (
          <div key={key}>
            <dt className="text-slate-500 dark:text-slate-400">{humanizeKey(key)}</dt>
            <dd className="break-words font-medium">{value}</dd>
          </div>
        ))}
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Fees</dt>
          <dd className="font-medium">
            Deposit: {describeFee(feeScheduleOf(method, "deposit"))} · Withdrawal:{" "}
            {describeFee(feeScheduleOf(method, "withdrawal"))}
          </dd>
        </div>
        {method.instructions.length > 0 ? (
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Instructions</dt>
            <dd>{method.instructions.length} lines</dd>
          </div>
        ) : null}
      </dl>
      <p className="mt-auto text-[11px] text-slate-500 dark:text-slate-400">
        Updated {formatDateTime(method.updated_at)}
      </p>
    </Card>
  );
}

import { useQuery } from "@tanstack/react-query";
import { adminMessages, type PaymentMethodChange } from "@tp/domain/admin-api";
import { formatBasisPoints } from "@tp/domain/fees";
import { formatUsdFromCents } from "@tp/domain/money";
import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import {
  paymentMethodChangePath,
  pendingPaymentMethodChangesQuery,
} from "../api/payment-methods.ts";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";
import { formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { useSignedInUserId, useStaffCan } from "../use-staff-role.ts";

/** One proposed field as text: lists and maps spelled out, an empty value as "(cleared)". */
/** The fee fields in words: a reviewer confirms "$3.00", not "300" cents. */
const feeFieldLabels: Record<string, string> = {
  deposit_fee_fixed_cents: "Deposit fee (fixed)",
  deposit_fee_basis_points: "Deposit fee (percentage)",
  withdrawal_fee_fixed_cents: "Withdrawal fee (fixed)",
  withdrawal_fee_basis_points: "Withdrawal fee (percentage)",
};

function fieldLabel(key: string): string {
  return feeFieldLabels[key] ?? humanizeKey(key);
}

function fieldValue(key: string, value: unknown): string {
  if (typeof value === "number" && key.endsWith("_fee_fixed_cents")) {
    return formatUsdFromCents(value);
  }
  if (typeof value === "number" && key.endsWith("_fee_basis_points")) {
    return formatBasisPoints(value);
  }
  return proposedValue(value);
}

function proposedValue(value: unknown): string {
  if (value === null || value === "") return "(cleared)";
  if (Array.isArray(value)) return value.join(" / ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${humanizeKey(key)}: ${String(item)}`)
      .join(", ");
  }
  return String(value);
}

/**
 * Four eyes on payment methods: the changes one admin proposed, waiting for a second admin
 * to confirm them (or anyone with the admin role to discard them). The proposer sees theirs
 * but cannot confirm it; support and reviewers see the list only.
 */
export function PendingPaymentMethodChanges() {
  const query = useQuery(pendingPaymentMethodChangesQuery());
  const canDecide = useStaffCan("admin");
  const userId = useSignedInUserId();
  const run = useRunAdminAction();
  const [busy, setBusy] = useState<number | null>(null);

  if (query.error) {
    return (
      <FailureState
        title="The pending changes could not be loaded"
        details={failureDetails(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const changes = query.data ?? [];
  if (changes.length === 0) return null;

  const decide = async (change: PaymentMethodChange, decision: "confirm" | "discard") => {
    setBusy(change.id);
    await run(
      { method: "POST", path: paymentMethodChangePath(change.id, decision) },
      decision === "confirm"
        ? {
            success: adminMessages.paymentMethodChangeConfirmed,
            failure: "The change could not be confirmed",
          }
        : {
            success: adminMessages.paymentMethodChangeDiscarded,
            failure: "The change could not be discarded",
          },
    ).finally(() => setBusy(null));
  };

  return (
    <section aria-labelledby="pending-changes-title" className="mb-5">
      <h2 id="pending-changes-title" className="mb-2 flex items-center gap-2 font-semibold">
        Awaiting second approval
        <span
          role="status"
          aria-label={`${changes.length} awaiting second approval`}
          className="rounded-full bg-amber-500 px-1.5 py-px text-[11px] font-bold tabular-nums text-white"
        >
          {changes.length}
        </span>
      </h2>
      <div className="grid gap-3 md:grid-cols-2">
        {changes.map((change) => {
          const own = change.proposed_by.id === userId;
          return (
            <Card
              as="article"
              key={change.id}
              aria-label={`Proposed change to ${change.payment_method_name}`}
            >
              <p className="font-semibold">{change.payment_method_name}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                Proposed by {change.proposed_by.email} · {formatDateTime(change.proposed_at)}
              </p>
              <dl className="mt-2 grid gap-1 text-xs">
                {Object.entries(change.changes).map(([key, value]) => (
                  <div key={key}>
                    <dt className="text-slate-500 dark:text-slate-400">{fieldLabel(key)}</dt>
                    <dd className="break-all font-medium">{fieldValue(key, value)}</dd>
                  </div>
                ))}
              </dl>
              {canDecide ? (
                <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
                  {own ? (
                    <span className="mr-auto text-xs text-slate-500">
                      Another admin must confirm your change.
                    </span>
                  ) : null}
                  <Button
                    variant="secondary"
                    size="sm"
                    busy={busy === change.id}
                    onClick={() => decide(change, "discard")}
                  >
                    Discard
                  </Button>
                  {own ? null : (
                    <Button
                      size="sm"
                      busy={busy === change.id}
                      onClick={() => decide(change, "confirm")}
                    >
                      Confirm change
                    </Button>
                  )}
                </div>
              ) : null}
            </Card>
          );
        })}
      </div>
    </section>
  );
}

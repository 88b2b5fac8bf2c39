import { useQuery } from "@tanstack/react-query";
import type { AdminPaymentMethod } from "@tp/domain/admin-api";
import { usesWalletAddress } from "@tp/domain/funding";
import { useState } from "react";
import { errorMessage } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { paymentMethodsQuery } from "../api/payment-methods.ts";
import { formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { Flag } from "../components/flag.tsx";
import { EditPaymentMethodDialog } from "./edit-payment-method-dialog.tsx";
import { configurationNeeds, kindLabels } from "./payment-method-kinds.ts";

/** Payment methods (PRODUCT.md D7): what traders see on the funding page, edited by staff. */
export function PaymentMethodsPage() {
  const query = useQuery(paymentMethodsQuery());
  const [editing, setEditing] = useState<string | null>(null);
  const method = query.data?.find((item) => item.id === editing) ?? null;

  return (
    <>
      <PageTitle
        title="Payment methods"
        description="A method shows to traders as available once it is active and configured."
      />
      {query.isLoading ? (
        <LoadingScreen />
      ) : !query.data ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errorMessage(query.error, "The payment methods could not be loaded")}
        </p>
      ) : (
        <div className="grid gap-3 md:grid-cols-2 2xl:grid-cols-3">
          {query.data.map((item) => (
            <MethodCard key={item.id} method={item} onEdit={() => setEditing(item.id)} />
          ))}
        </div>
      )}
      {method ? (
        <EditPaymentMethodDialog key={method.id} method={method} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}

function MethodCard({ method, onEdit }: { method: AdminPaymentMethod; onEdit: () => void }) {
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
        <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${method.name}`}>
          Edit
        </Button>
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
        {method.instructions.length > 0 ? (
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Instructions</dt>
            <dd>{method.instructions.length} lines</dd>
          </div>
        ) : null}
      </dl>
      <p className="mt-auto text-[11px] text-slate-400">
        Updated {formatDateTime(method.updated_at)}
      </p>
    </Card>
  );
}

import { formatUsd } from "@tp/domain/money";
import type { PlaceTradeRequest } from "@tp/domain/trade-form";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";
import { directionLabel } from "../../components/trade-format.ts";

/** SPEC §2: said in practice mode, word for word. */
export const practiceModeReminder =
  "Remember you are in practice mode, your profits and losses will not reflect in your main account.";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm font-semibold tabular-nums text-slate-900 dark:text-white">{value}</dd>
    </div>
  );
}

/**
 * SPEC §2 trade confirmation: Asset, Type, Amount (USD), Duration (seconds), Potential Profit,
 * Cancel and Confirm Trade. While the trade is in flight both buttons are disabled and
 * Confirm reads "Processing..." (SPEC §4).
 */
export function TradeConfirmModal({
  request,
  potentialProfit,
  isProcessing,
  onCancel,
  onConfirm,
}: {
  request: PlaceTradeRequest;
  potentialProfit: number;
  isProcessing: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      title={`Confirm ${directionLabel(request.type)} trade`}
      onClose={onCancel}
      dismissible={!isProcessing}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={isProcessing}>
            Cancel
          </Button>
          <Button
            variant={request.type === "call" ? "primary" : "danger"}
            onClick={onConfirm}
            disabled={isProcessing}
            aria-busy={isProcessing || undefined}
            data-autofocus
            className={request.type === "call" ? "bg-emerald-600 hover:bg-emerald-700" : ""}
          >
            {isProcessing ? "Processing..." : "Confirm Trade"}
          </Button>
        </>
      }
    >
      <dl className="divide-y divide-slate-100 dark:divide-navy-800">
        <Row label="Asset" value={request.asset} />
        <Row label="Type" value={directionLabel(request.type)} />
        <Row label="Amount (USD)" value={formatUsd(request.amount)} />
        <Row label="Duration (seconds)" value={String(request.duration)} />
        <Row label="Potential Profit" value={formatUsd(potentialProfit)} />
      </dl>
      {request.is_practice ? (
        <p className="mt-3 rounded-lg bg-brand-600/10 px-3 py-2 text-sm text-brand-800 dark:text-brand-200">
          {practiceModeReminder}
        </p>
      ) : (
        <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
          This trade uses your real balance.
        </p>
      )}
    </Modal>
  );
}

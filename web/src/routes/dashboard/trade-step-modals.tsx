import { RiskWarningModal } from "./risk-warning-modal.tsx";
import { TradeConfirmModal } from "./trade-confirm-modal.tsx";
import { potentialProfit } from "./trade-rules.ts";
import type { TradeFlow } from "./use-trade-flow.ts";

/** The modal of the step a chosen trade is at: the risk warning or the confirmation. */
export function TradeStepModals({ flow }: { flow: TradeFlow }) {
  const { step } = flow;
  return (
    <>
      {step?.kind === "risk" ? (
        <RiskWarningModal
          onCancel={flow.cancel}
          onAcknowledge={() => flow.acknowledgeRisk(step.request)}
        />
      ) : null}
      {step?.kind === "confirm" ? (
        <TradeConfirmModal
          request={step.request}
          potentialProfit={potentialProfit(
            String(step.request.amount),
            String(step.request.duration),
          )}
          isProcessing={flow.isPending}
          onCancel={flow.cancel}
          onConfirm={() => flow.confirm(step)}
        />
      ) : null}
    </>
  );
}

import { defaultRiskWarning } from "@tp/domain/site-content";
import { useSiteContent } from "../../api/site-content.ts";
import { Button } from "../../components/button.tsx";
import { LosingAccountsSentence } from "../../components/losing-accounts-sentence.tsx";
import { Modal } from "../../components/modal.tsx";

/**
 * PRODUCT.md D6: before the first real-account trade the trader acknowledges the risk
 * warning (the operator's text from the site content, as every footer shows it), with the
 * real share of losing accounts (issue 14 item 5) the footer states too.
 */
export function RiskWarningModal({
  onAcknowledge,
  onCancel,
}: {
  onAcknowledge: () => void;
  onCancel: () => void;
}) {
  const content = useSiteContent();
  const warning = content.data?.risk_warning ?? defaultRiskWarning;
  return (
    <Modal
      title="Risk warning"
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onAcknowledge} data-autofocus>
            I understand the risk
          </Button>
        </>
      }
    >
      <p className="text-sm font-semibold text-slate-900 dark:text-white">
        This is your first trade with real money.
      </p>
      <p className="mt-3 rounded-lg border border-amber-400/40 bg-amber-50 px-3 py-2.5 text-sm leading-relaxed text-amber-950 dark:bg-amber-400/10 dark:text-amber-100">
        <span>{warning}</span> <LosingAccountsSentence />
      </p>
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
        Confirm that you have read and understood this warning to continue. You are asked once.
      </p>
    </Modal>
  );
}

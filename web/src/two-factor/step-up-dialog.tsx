import { useCallback, useEffect, useRef, useState } from "react";
import { onStepUpRequired } from "../api/client.ts";
import { stepUp } from "../api/step-up.ts";
import { useTwoFactorStatus } from "../api/two-factor.ts";
import { Modal } from "../components/modal.tsx";
import { CodeForm } from "./code-form.tsx";

/**
 * The one "Confirm it is you" dialog (issue 12 step-up). Any call answering
 * STEP_UP_REQUIRED waits here (api/client.ts): a code when 2FA is on, the password when it
 * is off; after POST /step-up succeeds the call is retried, and cancelling fails it.
 */
export function StepUpDialogHost() {
  const [open, setOpen] = useState(false);
  const waiting = useRef<Array<(confirmed: boolean) => void>>([]);

  const settle = useCallback((confirmed: boolean) => {
    for (const resolve of waiting.current.splice(0)) resolve(confirmed);
    setOpen(false);
  }, []);

  useEffect(
    () =>
      onStepUpRequired(
        () =>
          new Promise<boolean>((resolve) => {
            waiting.current.push(resolve);
            setOpen(true);
          }),
      ),
    [],
  );

  if (!open) return null;
  return <StepUpDialog onConfirmed={() => settle(true)} onCancel={() => settle(false)} />;
}

function StepUpDialog({
  onConfirmed,
  onCancel,
}: {
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const status = useTwoFactorStatus();
  const withCode = status.data?.enabled ?? false;
  return (
    <Modal title="Confirm it is you" onClose={onCancel}>
      {status.isPending ? (
        <p className="text-sm">Loading…</p>
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {withCode
              ? "Enter the code from your authenticator app (or a recovery code) to continue."
              : "Enter your password to continue."}
          </p>
          <CodeForm
            label={withCode ? "Authentication code" : "Password"}
            password={!withCode}
            submitLabel="Confirm"
            onCode={async (value) => {
              await stepUp(withCode ? { code: value } : { password: value });
              onConfirmed();
            }}
          />
        </div>
      )}
    </Modal>
  );
}

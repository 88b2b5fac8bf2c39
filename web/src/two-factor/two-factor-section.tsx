import type { TotpEnrolment } from "@tp/domain/two-factor";
import { twoFactorMessages } from "@tp/domain/two-factor";
import { useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../api/client.ts";
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
  useStartTwoFactorEnrolment,
  useTwoFactorStatus,
} from "../api/two-factor.ts";
import { useAuth } from "../auth/auth-context.ts";
import { Button } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { ShieldIcon } from "../components/icons.tsx";
import { FailureState, failureDetails } from "../components/query-states.tsx";
import { CodeForm } from "./code-form.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";
import { TotpSetup } from "./totp-setup.tsx";

/**
 * The Security page's two-factor section (issue 12): turn TOTP on with a QR code and a
 * confirming code (recovery codes shown once), turn it off or make new recovery codes with
 * a current code. Staff keep it on: their sign-in requires it.
 */
export function TwoFactorSection() {
  return (
    <Card aria-labelledby="two-factor-title">
      <div className="mb-5 flex gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-600/10 text-brand-600 dark:text-brand-400">
          <ShieldIcon className="size-5" />
        </div>
        <div>
          <h2 id="two-factor-title" className="font-semibold">
            Two-factor authentication
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            A code from an authenticator app on your phone, asked for after your password and before
            money leaves your account.
          </p>
        </div>
      </div>
      <TwoFactorSettings />
    </Card>
  );
}

type View =
  | { kind: "status" }
  | { kind: "enrolling"; enrolment: TotpEnrolment }
  | { kind: "codes"; codes: string[] }
  | { kind: "disabling" }
  | { kind: "regenerating" };

function TwoFactorSettings() {
  const { user } = useAuth();
  const status = useTwoFactorStatus();
  const start = useStartTwoFactorEnrolment();
  const confirm = useConfirmTwoFactor();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const [view, setView] = useState<View>({ kind: "status" });

  if (view.kind === "enrolling") {
    return (
      <TotpSetup
        otpauthUri={view.enrolment.otpauth_uri}
        secret={view.enrolment.secret}
        onCode={async (code) => {
          const codes = await confirm.mutateAsync(code);
          toast.success(twoFactorMessages.enabled);
          setView({ kind: "codes", codes });
        }}
      />
    );
  }
  if (view.kind === "codes") {
    return <RecoveryCodes codes={view.codes} onDone={() => setView({ kind: "status" })} />;
  }
  if (view.kind === "disabling" || view.kind === "regenerating") {
    const disabling = view.kind === "disabling";
    return (
      <div className="flex max-w-sm flex-col gap-3">
        <CodeForm
          submitLabel={disabling ? "Turn off two-factor authentication" : "Make new recovery codes"}
          onCode={async (code) => {
            if (disabling) {
              await disable.mutateAsync(code);
              toast.success(twoFactorMessages.disabled);
              setView({ kind: "status" });
            } else {
              setView({ kind: "codes", codes: await regenerate.mutateAsync(code) });
            }
          }}
        />
        <Button variant="ghost" onClick={() => setView({ kind: "status" })}>
          Cancel
        </Button>
      </div>
    );
  }

  if (status.isPending) return <p className="text-sm">Loading…</p>;
  if (status.isError) {
    return (
      <FailureState
        title="Two-factor settings could not be loaded."
        details={failureDetails(status.error)}
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
      />
    );
  }
  if (!status.data.enabled) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p className="text-sm font-medium">Two-factor authentication is off.</p>
        <Button
          busy={start.isPending}
          onClick={async () => {
            try {
              setView({ kind: "enrolling", enrolment: await start.mutateAsync() });
            } catch (error) {
              toast.error(errorMessage(error, twoFactorMessages.noEnrolment));
            }
          }}
        >
          Set up two-factor authentication
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-sm font-medium">
        Two-factor authentication is on. {status.data.recovery_codes_left} recovery codes left.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setView({ kind: "regenerating" })}>
          New recovery codes
        </Button>
        {user?.role === "trader" ? (
          <Button variant="danger" onClick={() => setView({ kind: "disabling" })}>
            Turn off
          </Button>
        ) : null}
      </div>
    </div>
  );
}

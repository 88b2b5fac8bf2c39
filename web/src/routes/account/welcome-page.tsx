import { uiMessages } from "@tp/domain/messages";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { useResendVerificationEmailMutation } from "../../api/email-resend.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button, ButtonLink } from "../../components/button.tsx";
import { MailIcon } from "../../components/icons.tsx";
import { useProofOfWork } from "../../components/use-proof-of-work.tsx";
import { paths } from "../../paths.ts";
import { readStorage, storageKeys } from "../../storage.ts";

const resend_failed_text = "The verification email could not be resent. Please try again.";

/** SPEC §2 /welcome: registration success, with a resend-verification-email button. */
export function WelcomePage() {
  const email = readStorage(storageKeys.registrationEmail);
  const resend = useResendVerificationEmailMutation();
  const challenge = useProofOfWork();

  const onResend = async () => {
    if (email === null) return;
    try {
      await resend.mutateAsync(challenge.withPayload({ email }));
      toast.success(uiMessages.resendSuccess);
    } catch (error) {
      challenge.afterFailure(error);
      toast.error(errorMessage(error, resend_failed_text));
    }
  };

  return (
    <AuthCard title="Registration successful!">
      <div className="flex flex-col items-center text-center">
        <div className="flex size-14 items-center justify-center rounded-2xl bg-brand-600/10 text-brand-600 dark:text-brand-400">
          <MailIcon className="size-7" />
        </div>
        {email ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            We sent a verification link to <span className="font-semibold break-all">{email}</span>.
            Open it to verify your e-mail address, then sign in.
          </p>
        ) : (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            We sent a verification link to the e-mail address you registered with. Open it to verify
            your address, then sign in.
          </p>
        )}
        <div className="mt-6 flex w-full flex-col gap-3">
          {challenge.field}
          <Button
            variant="secondary"
            size="lg"
            onClick={onResend}
            busy={resend.isPending}
            disabled={email === null}
          >
            Resend verification email
          </Button>
          <ButtonLink to={paths.signIn} size="lg">
            Go to sign in
          </ButtonLink>
        </div>
      </div>
    </AuthCard>
  );
}

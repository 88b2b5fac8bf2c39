import { serverMessages } from "@tp/domain/messages";
import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { errorMessage } from "../../api/client.ts";
import { useVerifyEmailMutation } from "../../api/email-verify.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { ButtonLink } from "../../components/button.tsx";
import { AlertCircleIcon, CheckCircleIcon } from "../../components/icons.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { paths } from "../../paths.ts";

const verify_failed_text = "Your e-mail address could not be verified. Please try again.";

/** The page of the e-mailed link: ?token=&email= → POST /email/verify, once. */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const email = searchParams.get("email");
  const linkValid = Boolean(token && email);
  const verify = useVerifyEmailMutation();
  const { mutate } = verify;
  const { user } = useAuth();
  const started = useRef(false);

  useEffect(() => {
    if (!linkValid || started.current || token === null || email === null) return;
    started.current = true;
    mutate({ email, token });
  }, [linkValid, email, token, mutate]);

  const next = user ? (
    <ButtonLink to={paths.user.dashboard} size="lg" className="w-full">
      Go to dashboard
    </ButtonLink>
  ) : (
    <ButtonLink to={paths.signIn} size="lg" className="w-full">
      Sign in
    </ButtonLink>
  );

  if (!linkValid || verify.isError) {
    const message = linkValid
      ? errorMessage(verify.error, verify_failed_text)
      : serverMessages.verificationLinkInvalid;
    return (
      <AuthCard title="Email verification">
        <div
          role="alert"
          className="flex gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200"
        >
          <AlertCircleIcon className="size-5 shrink-0" />
          <p>{message}</p>
        </div>
        <div className="mt-6">{next}</div>
      </AuthCard>
    );
  }

  if (verify.isSuccess) {
    return (
      <AuthCard title="Email verification">
        <div
          role="status"
          className="flex gap-3 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 dark:bg-emerald-500/10 dark:text-emerald-200"
        >
          <CheckCircleIcon className="size-5 shrink-0" />
          <p>{verify.data.message ?? serverMessages.emailVerified}</p>
        </div>
        <div className="mt-6">{next}</div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Email verification">
      <LoadingScreen label="Verifying your email..." className="py-6" />
    </AuthCard>
  );
}

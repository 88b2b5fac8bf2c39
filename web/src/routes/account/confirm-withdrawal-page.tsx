import { fundingMessages } from "@tp/domain/funding";
import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { errorMessage } from "../../api/client.ts";
import { useConfirmWithdrawalMutation } from "../../api/confirm-withdrawal.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { ButtonLink } from "../../components/button.tsx";
import { AlertCircleIcon, CheckCircleIcon } from "../../components/icons.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { paths } from "../../paths.ts";

/**
 * The page of a withdrawal's e-mailed link (issue 12): ?token= → POST /withdrawals/confirm,
 * once. Public: the link proves the mailbox, whichever device opens it.
 */
export function ConfirmWithdrawalPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const confirm = useConfirmWithdrawalMutation();
  const { mutate } = confirm;
  const { user } = useAuth();
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutate({ token });
  }, [token, mutate]);

  const next = user ? (
    <ButtonLink to={paths.user.transactionHistory} size="lg" className="w-full">
      See your transactions
    </ButtonLink>
  ) : (
    <ButtonLink to={paths.signIn} size="lg" className="w-full">
      Sign in
    </ButtonLink>
  );

  if (!token || confirm.isError) {
    return (
      <AuthCard title="Withdrawal confirmation">
        <div
          role="alert"
          className="flex gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200"
        >
          <AlertCircleIcon className="size-5 shrink-0" />
          <p>{errorMessage(confirm.error, fundingMessages.withdrawalConfirmLinkInvalid)}</p>
        </div>
        <div className="mt-6">{next}</div>
      </AuthCard>
    );
  }
  if (confirm.isSuccess) {
    return (
      <AuthCard title="Withdrawal confirmation">
        <div
          role="status"
          className="flex gap-3 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 dark:bg-emerald-500/10 dark:text-emerald-200"
        >
          <CheckCircleIcon className="size-5 shrink-0" />
          <p>{confirm.data.message ?? fundingMessages.withdrawalConfirmed}</p>
        </div>
        <div className="mt-6">{next}</div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Withdrawal confirmation">
      <LoadingScreen label="Confirming your withdrawal..." className="py-6" />
    </AuthCard>
  );
}

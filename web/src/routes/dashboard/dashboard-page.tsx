import { uiMessages } from "@tp/domain/messages";
import { formatUsd } from "@tp/domain/money";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { usePracticeTopUpMutation } from "../../api/practice-top-up.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { AccountStatusBadge } from "../../components/account-status.tsx";
import { Button, ButtonLink } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ComingSoon } from "../../components/coming-soon.tsx";
import { ChartIcon, TargetIcon, WalletIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { paths } from "../../paths.ts";

export function DashboardPage() {
  const { user } = useAuth();
  const topUp = usePracticeTopUpMutation();
  if (user === null) throw new Error("DashboardPage rendered without a signed-in user");
  const { account } = user;

  const onTopUp = async () => {
    try {
      const reply = await topUp.mutateAsync();
      toast.success(reply.message ?? uiMessages.topUpSuccess);
    } catch (error) {
      toast.error(errorMessage(error, uiMessages.topUpFailed));
    }
  };

  return (
    <>
      <PageTitle title="Dashboard" description={`Welcome back, ${account.first_name}.`} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-1" aria-labelledby="trader-card-title">
          <h2 id="trader-card-title" className="sr-only">
            Your account
          </h2>
          <div className="flex items-center gap-4">
            <div
              aria-hidden="true"
              className="flex size-12 shrink-0 items-center justify-center rounded-full bg-navy-900 text-lg font-bold text-white dark:bg-brand-600"
            >
              {account.first_name.charAt(0)}
              {account.last_name.charAt(0)}
            </div>
            <div className="min-w-0">
              <p className="truncate text-lg font-semibold">
                {account.first_name} {account.last_name}
              </p>
              <p className="truncate text-sm text-slate-500 dark:text-slate-400">
                @{user.username}
              </p>
            </div>
          </div>
          <dl className="mt-6 grid grid-cols-2 gap-4 border-t border-slate-200 pt-5 text-sm dark:border-navy-700">
            <div>
              <dt className="text-slate-500 dark:text-slate-400">Account Status</dt>
              <dd className="mt-1">
                <AccountStatusBadge user={user} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-500 dark:text-slate-400">Account Level</dt>
              <dd className="mt-1 font-semibold capitalize">{account.plan}</dd>
            </div>
          </dl>
        </Card>

        <Card aria-labelledby="real-balance-title">
          <div className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
            <WalletIcon className="size-4" />
            <h2 id="real-balance-title">Real Account</h2>
          </div>
          <p className="mt-3 text-3xl font-bold tabular-nums tracking-tight">
            {formatUsd(account.account_balance)}
          </p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">USD · available balance</p>
          <ButtonLink to={paths.user.fundWallet} variant="danger" className="mt-5 w-full">
            Deposit
          </ButtonLink>
        </Card>

        <Card aria-labelledby="practice-balance-title">
          <div className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
            <TargetIcon className="size-4" />
            <h2 id="practice-balance-title">Practice Account</h2>
          </div>
          <p className="mt-3 text-3xl font-bold tabular-nums tracking-tight">
            {formatUsd(account.practice_balance)}
          </p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">USD · no real money</p>
          <Button
            variant="secondary"
            className="mt-5 w-full"
            onClick={onTopUp}
            busy={topUp.isPending}
          >
            Top-up
          </Button>
        </Card>
      </div>

      <div className="mt-6">
        <ComingSoon
          feature="Trading arrives soon"
          icon={<ChartIcon className="size-7" />}
          description="Live charts and fixed-time call and put trades on forex, commodities, stocks, indices and crypto will open on this dashboard. Your practice balance is ready for it."
        />
      </div>
    </>
  );
}

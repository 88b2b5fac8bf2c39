import type { UserView } from "@tp/domain/api";
import { stateMessages, uiMessages } from "@tp/domain/messages";
import { formatUsd } from "@tp/domain/money";
import { useId } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { usePracticeTopUpMutation } from "../../api/practice-top-up.ts";
import type { AccountKind } from "../../api/trade-history.ts";
import { useTradingConditions } from "../../api/trading-conditions.ts";
import { Button, ButtonLink } from "../../components/button.tsx";
import { paths } from "../../paths.ts";

const accountNames: Record<AccountKind, string> = {
  real: "Real Account",
  practice: "Practice Account",
};

/**
 * SPEC §2: Real Account (with a Deposit link) and Practice Account (with a Top-up button),
 * each with its name and USD balance. The balances follow the socket's balance events
 * through the user query; the chosen account is the one the form trades on.
 */
export function AccountSwitcher({
  user,
  account,
  onAccount,
}: {
  user: UserView;
  account: AccountKind;
  onAccount: (account: AccountKind) => void;
}) {
  const topUp = usePracticeTopUpMutation();
  // The server tops up only below its level (PRACTICE_BALANCE_DOLLARS): at or above it the
  // button is disabled and says why, instead of answering every press with an error.
  const topUpLevel = useTradingConditions().data?.practice_top_up_level;
  const topUpNotNeeded =
    topUpLevel !== undefined && user.account.practice_balance >= topUpLevel
      ? stateMessages.topUpAtLevel(formatUsd(topUpLevel))
      : null;
  const holder = `${user.account.first_name} ${user.account.last_name}`;
  const idPrefix = useId();

  const onTopUp = async () => {
    try {
      const reply = await topUp.mutateAsync();
      toast.success(reply.message ?? uiMessages.topUpSuccess);
    } catch (error) {
      // A 409 (already at the top-up level) says so in the server's words.
      toast.error(errorMessage(error, uiMessages.topUpFailed));
    }
  };

  const entries: ReadonlyArray<{ kind: AccountKind; balance: number }> = [
    { kind: "real", balance: user.account.account_balance },
    { kind: "practice", balance: user.account.practice_balance },
  ];

  return (
    <fieldset className="grid grid-cols-1 gap-2">
      <legend className="sr-only">Account</legend>
      {entries.map(({ kind, balance }) => {
        const selected = account === kind;
        const detailsId = `${idPrefix}-${kind}`;
        return (
          <div
            key={kind}
            className={`flex items-center gap-2 rounded-xl border p-2 pr-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${
              selected
                ? "border-brand-500 bg-brand-600/5 ring-1 ring-brand-500/40 dark:bg-brand-500/10"
                : "border-slate-200 dark:border-navy-700"
            }`}
          >
            <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2.5 rounded-lg p-1">
              <input
                type="radio"
                name={`${idPrefix}-account`}
                value={kind}
                checked={selected}
                onChange={() => onAccount(kind)}
                aria-label={accountNames[kind]}
                aria-describedby={detailsId}
                className="size-4 shrink-0 accent-brand-600 focus:outline-none"
              />
              <span className="min-w-0">
                <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">
                  {accountNames[kind]}
                </span>
                <span id={detailsId}>
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    {holder}
                  </span>
                  <span className="block text-base font-bold tabular-nums text-slate-900 dark:text-white">
                    <span data-testid={`${kind}-balance`}>{formatUsd(balance)}</span>
                    <span className="ml-1 text-[11px] font-medium text-slate-500 dark:text-slate-400">
                      USD
                    </span>
                  </span>
                </span>
              </span>
            </label>
            {kind === "real" ? (
              <ButtonLink to={paths.user.fundWallet} variant="danger" size="sm">
                Deposit
              </ButtonLink>
            ) : (
              <Button
                variant="secondary"
                size="sm"
                onClick={onTopUp}
                busy={topUp.isPending}
                disabled={topUpNotNeeded !== null}
                aria-describedby={topUpNotNeeded === null ? undefined : `${idPrefix}-top-up-reason`}
                title={topUpNotNeeded ?? undefined}
              >
                Top-up
              </Button>
            )}
          </div>
        );
      })}
      {topUpNotNeeded !== null ? (
        <p
          id={`${idPrefix}-top-up-reason`}
          className="px-1 text-xs text-slate-500 dark:text-slate-400"
        >
          {topUpNotNeeded}
        </p>
      ) : null}
    </fieldset>
  );
}

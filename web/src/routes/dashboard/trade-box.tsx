import { useQuery } from "@tanstack/react-query";
import type { UserView } from "@tp/domain/api";
import { expirations } from "@tp/domain/catalogue";
import { formatUsd } from "@tp/domain/money";
import { useId } from "react";
import type { MarketView } from "../../api/markets.ts";
import { exclusionQueryOptions } from "../../api/responsible-trading.ts";
import { useCountryRestricted } from "../../api/restricted-countries.ts";
import type { AccountKind } from "../../api/trade-history.ts";
import { useNow } from "../../components/use-now.ts";
import { useLivePrices } from "../../stream/stream-context.ts";
import { AccountSwitcher } from "./account-switcher.tsx";
import { countryBlock, exclusionBlock, marketBlock } from "./market-block.ts";
import { TradeDirectionButtons } from "./trade-direction-buttons.tsx";
import { TradeFields } from "./trade-fields.tsx";
import { potentialProfit } from "./trade-rules.ts";
import { TradeStepModals } from "./trade-step-modals.tsx";
import { useTradeFlow } from "./use-trade-flow.ts";
import type { TradeForm } from "./use-trade-form.ts";

/**
 * The right-hand trade box (SPEC §2, §4, §5): the account switcher, then option type,
 * asset, amount and expiration, the potential profit, and Call / Put. A valid choice opens
 * the confirmation; the first real-account trade asks for the risk warning first (D6).
 */
export function TradeBox({
  user,
  account,
  onAccount,
  form,
  markets,
}: {
  user: UserView;
  account: AccountKind;
  onAccount: (account: AccountKind) => void;
  form: TradeForm;
  markets: ReadonlyMap<string, MarketView>;
}) {
  const { values } = form;
  const isPractice = account === "practice";
  const flow = useTradeFlow(user, form, isPractice);
  const livePrice = useLivePrices(values.asset ? [values.asset] : []);
  const headingId = useId();
  const reasonId = useId();
  const now = useNow();
  const profit = potentialProfit(values.amount, values.expiration);
  const payout = expirations.find((option) => String(option.seconds) === values.expiration);
  // Said before anything is pressed (issue 11 item 7): closed, halted, or no real trading.
  // A restricted country comes first: no market makes the real account usable there.
  // A break the trader took comes before anything about the market: it pauses all of it.
  const countryRestricted = useCountryRestricted(user.account.country);
  const exclusion = useQuery(exclusionQueryOptions()).data;
  const block =
    exclusionBlock(exclusion, now) ??
    countryBlock(user.account.country, countryRestricted, isPractice) ??
    (values.asset ? marketBlock(markets.get(values.asset), isPractice, now) : null);
  const blockedOnReal = block?.kind === "real_unavailable" || block?.kind === "country_restricted";
  const lastPrice = values.asset
    ? (livePrice(values.asset)?.price ?? markets.get(values.asset)?.price)
    : undefined;

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-navy-700 dark:bg-navy-900"
    >
      <h2 id={headingId} className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">
        Trade
      </h2>
      <AccountSwitcher user={user} account={account} onAccount={onAccount} />
      {/* Where the real account was chosen: seen at once, before the form is filled. */}
      {blockedOnReal && block ? (
        <div
          id={reasonId}
          className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-400/10 dark:text-amber-100"
        >
          <p className="font-semibold">{block.message}</p>
          <p className="mt-1">
            <button
              type="button"
              onClick={() => onAccount("practice")}
              className="font-semibold underline underline-offset-2 hover:no-underline"
            >
              Use the Practice Account
            </button>{" "}
            {block.kind === "country_restricted"
              ? "to trade with practice money."
              : "to trade this market on simulated prices."}
          </p>
        </div>
      ) : null}

      <form
        className="mt-4 grid grid-cols-1 gap-3"
        noValidate
        onSubmit={(event) => event.preventDefault()}
        aria-label="Trade form"
      >
        <TradeFields form={form} refs={flow.refs} invalid={flow.invalid} lastPrice={lastPrice} />
        <div className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2.5 dark:bg-navy-800">
          <span className="text-sm text-slate-600 dark:text-slate-300">
            Potential profit{payout ? ` (${payout.payoutPercent}%)` : ""}
          </span>
          <output
            aria-label="Potential profit"
            className="text-base font-bold tabular-nums text-emerald-700 dark:text-emerald-400"
          >
            {formatUsd(profit)}
          </output>
        </div>
        {block && !blockedOnReal && block.kind !== "excluded" ? (
          <p
            id={reasonId}
            className={`rounded-lg px-3 py-2 text-sm font-semibold tabular-nums ${
              block.kind === "closed"
                ? "bg-slate-100 text-slate-800 dark:bg-navy-800 dark:text-slate-100"
                : "bg-amber-50 text-amber-950 dark:bg-amber-400/10 dark:text-amber-100"
            }`}
          >
            {block.message}
          </p>
        ) : null}
        {/* On a break, no Call or Put to press: a calm line in their place says until when. */}
        {block?.kind === "excluded" ? (
          <p
            role="note"
            aria-label="Break in force"
            className="rounded-lg bg-slate-100 px-3 py-3 text-sm font-medium text-slate-800 dark:bg-navy-800 dark:text-slate-100"
          >
            {block.message}
          </p>
        ) : (
          <TradeDirectionButtons
            onDirection={flow.choose}
            disabled={flow.isPending || block !== null}
            reasonId={block ? reasonId : undefined}
          />
        )}
        <p className="text-center text-xs text-slate-500 dark:text-slate-400">
          {isPractice ? "Trading on your practice balance" : "Trading on your real balance"}
        </p>
      </form>

      <TradeStepModals flow={flow} />
    </section>
  );
}

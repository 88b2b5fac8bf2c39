import type { RiskDisclosure } from "@tp/domain/losing-accounts";
import { useRiskDisclosure } from "../../api/risk-disclosure.ts";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PublicPage } from "../../components/public-page.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { formatDateTime } from "../../components/trade-format.ts";

const panelClass =
  "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-navy-700 dark:bg-navy-900";

function Figure({ disclosure }: { disclosure: RiskDisclosure }) {
  const snapshot = disclosure.snapshot;
  return (
    <section aria-labelledby="figure-title" className={panelClass}>
      <h2 id="figure-title" className="text-lg font-semibold text-navy-900 dark:text-white">
        The figure
      </h2>
      <p className="mt-2 text-base font-semibold text-slate-900 dark:text-white">
        {disclosure.sentence}
      </p>
      {snapshot ? (
        <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Period</dt>
            <dd className="text-slate-900 dark:text-white">
              {formatDateTime(snapshot.period_start)} to {formatDateTime(snapshot.period_end)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Computed</dt>
            <dd className="text-slate-900 dark:text-white">
              {formatDateTime(snapshot.computed_at)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">
              Real-money accounts that traded in the period
            </dt>
            <dd className="text-slate-900 dark:text-white">{snapshot.accounts_traded}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">
              Of those, accounts that lost money
            </dt>
            <dd className="text-slate-900 dark:text-white">{snapshot.accounts_lost}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">
              Accounts needed before a percentage is stated
            </dt>
            <dd className="text-slate-900 dark:text-white">{snapshot.min_accounts}</dd>
          </div>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          The first day's figure has not been computed yet.
        </p>
      )}
    </section>
  );
}

/**
 * Public (issue 14 item 5): the share of real-money accounts that lost money trading in
 * the last 12 months, the period, the counts behind it, and exactly how it is computed.
 */
export function RiskDisclosurePage() {
  const disclosure = useRiskDisclosure();
  return (
    <PublicPage
      title="Risk disclosure"
      intro="How many real-money accounts on this platform lost money trading, and how we count them."
    >
      {disclosure.isLoading ? (
        <LoadingScreen label="Loading the figure..." className="py-10" />
      ) : !disclosure.data ? (
        <FailureState
          title="The figure could not be loaded"
          details={failureDetails(disclosure.error)}
          onRetry={() => void disclosure.refetch()}
          retrying={disclosure.isFetching}
        />
      ) : (
        <div className="flex flex-col gap-8">
          <Figure disclosure={disclosure.data} />
          <section aria-labelledby="method-title" className={panelClass}>
            <h2 id="method-title" className="text-lg font-semibold text-navy-900 dark:text-white">
              How it is computed
            </h2>
            <p className="mt-2 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
              {disclosure.data.method}
            </p>
          </section>
        </div>
      )}
    </PublicPage>
  );
}

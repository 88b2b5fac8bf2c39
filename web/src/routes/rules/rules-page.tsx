import type { Rulebook } from "@tp/domain/rulebook";
import { useRulebook } from "../../api/rulebook.ts";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PublicPage } from "../../components/public-page.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";

const panelClass =
  "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-navy-700 dark:bg-navy-900";
const headingClass = "text-lg font-semibold text-navy-900 dark:text-white";
const cellClass = "border-t border-slate-200 px-3 py-2 dark:border-navy-700";

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

function Rules({ rulebook }: { rulebook: Rulebook }) {
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="rules-title" className={panelClass}>
        <h2 id="rules-title" className={headingClass}>
          Version {rulebook.version}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Every trade records the version it was placed under; its audit view names it.
        </p>
        <dl className="mt-4 flex flex-col gap-4">
          {rulebook.rules.map((rule) => (
            <div key={rule.id}>
              <dt className="font-semibold text-slate-900 dark:text-white">{rule.title}</dt>
              <dd className="mt-1 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
                {rule.text}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="payout-title" className={panelClass}>
        <h2 id="payout-title" className={headingClass}>
          Payout table
        </h2>
        <table className="mt-3 w-full text-left text-sm" aria-labelledby="payout-title">
          <thead>
            <tr className="text-slate-500 dark:text-slate-400">
              <th scope="col" className="px-3 py-2 font-medium">
                Duration
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Payout on a win
              </th>
            </tr>
          </thead>
          <tbody className="text-slate-900 dark:text-white">
            {rulebook.payout_table.map((row) => (
              <tr key={row.seconds}>
                <td className={cellClass}>{row.label}</td>
                <td className={cellClass}>{row.payout_percent}% of the stake</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="entry-age-title" className={panelClass}>
        <h2 id="entry-age-title" className={headingClass}>
          Entry-price age limit
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Set by the operator per asset class: a tick older than this is never an entry price.
        </p>
        <ul className="mt-3 grid gap-1 text-sm text-slate-900 sm:grid-cols-2 dark:text-white">
          {Object.entries(rulebook.entry_price_max_age_ms).map(([assetClass, ms]) => (
            <li key={assetClass}>
              {assetClass.charAt(0).toUpperCase()}
              {assetClass.slice(1)}: {seconds(ms)}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="changes-title" className={panelClass}>
        <h2 id="changes-title" className={headingClass}>
          Change log
        </h2>
        <ol className="mt-3 flex flex-col gap-3 text-sm">
          {[...rulebook.versions].reverse().map((version) => (
            <li key={version.version}>
              <p className="font-semibold text-slate-900 dark:text-white">
                Version {version.version}, in force from {version.effective_from}
              </p>
              <p className="text-slate-700 dark:text-slate-300">{version.summary}</p>
              <p className="text-slate-500 dark:text-slate-400">
                Payouts:{" "}
                {Object.entries(version.payout_percent_by_seconds)
                  .map(([s, percent]) => `${s} s ${percent}%`)
                  .join(", ")}
                ; late-tick grace {seconds(version.parameters.settlement_grace_ms)}; refund after{" "}
                {seconds(version.parameters.settlement_feed_wait_ms)} without a recorded price.
              </p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/**
 * Public (issue 15 item 4): the rules every trade is settled by, with their version and
 * change log, so a trader can check a settlement against the rule it was placed under.
 */
export function RulesPage() {
  const rulebook = useRulebook();
  return (
    <PublicPage
      title="Trading rules"
      intro="How every trade's entry, exit, outcome and payout are decided, and when a stake is refunded."
    >
      {rulebook.isLoading ? (
        <LoadingScreen label="Loading the rules..." className="py-10" />
      ) : !rulebook.data ? (
        <FailureState
          title="The rules could not be loaded"
          details={failureDetails(rulebook.error)}
          onRetry={() => void rulebook.refetch()}
          retrying={rulebook.isFetching}
        />
      ) : (
        <Rules rulebook={rulebook.data} />
      )}
    </PublicPage>
  );
}

import { useQuery } from "@tanstack/react-query";
import type { JournalProblem, JournalVerification } from "@tp/domain/journal";
import { formatUsd } from "@tp/domain/money";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { AlertCircleIcon, CheckCircleIcon } from "../../components/icons.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { journalVerifyQuery } from "../api/journal-verify.ts";
import { ledgerCheckQuery } from "../api/ledger-check.ts";
import { formatDateTime, humanizeKey } from "../components/admin-format.ts";
import { StaffExport } from "../components/staff-export.tsx";

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card as="div" className="!p-4">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {label}
      </p>
      <p className="mt-1 text-xl font-bold tabular-nums">{value}</p>
      {note ? <p className="text-xs text-slate-500 dark:text-slate-400">{note}</p> : null}
    </Card>
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The page's two verdicts: everything holds, or something does not. */
const successBanner =
  "flex items-center gap-3 rounded-2xl border border-emerald-300 bg-emerald-50 px-5 py-4 text-emerald-900 dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-200";
const dangerBanner =
  "rounded-2xl border border-red-300 bg-red-50 px-5 py-4 text-red-900 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200";

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

const recordLabels: Record<NonNullable<JournalProblem["record"]>, string> = {
  posting: "Posting",
  journal_entry: "Journal entry",
  trade_placed: "Trade placed",
  trade_settled: "Trade settled",
  audit: "Audit row",
};

const problemLabels: Record<JournalProblem["kind"], string> = {
  edited: "Edited",
  deleted: "Deleted",
  inserted: "Inserted out of place",
  checkpoint: "Checkpoint does not hold",
};

/** Where the first problem is: its kind, chain and record, as far as the server names them. */
function ProblemPlace({ problem }: { problem: JournalProblem }) {
  const record =
    problem.record === null
      ? null
      : `${recordLabels[problem.record]}${problem.id === null ? "" : ` ${problem.id}`}`;
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 pl-8 text-sm">
      <dt className="opacity-80">Problem</dt>
      <dd>{problemLabels[problem.kind]}</dd>
      {problem.chain !== null ? (
        <>
          <dt className="opacity-80">Chain</dt>
          <dd>
            <code className="break-all">{problem.chain}</code>
          </dd>
        </>
      ) : null}
      {record !== null ? (
        <>
          <dt className="opacity-80">Record</dt>
          <dd>{record}</dd>
        </>
      ) : problem.id !== null ? (
        <>
          <dt className="opacity-80">Record id</dt>
          <dd>{problem.id}</dd>
        </>
      ) : null}
    </dl>
  );
}

function JournalReport({ report }: { report: JournalVerification }) {
  // Anything short of ok with no problem named is taken as tampering: the safe reading.
  const tampered = !report.ok || report.problem !== null;
  const latest = report.latest_checkpoint;
  return (
    <div className="flex flex-col gap-4">
      {tampered ? (
        <div role="alert" className={dangerBanner}>
          <p className="flex items-center gap-2 font-semibold">
            <AlertCircleIcon className="size-6 shrink-0" />
            Tampering found
          </p>
          {report.problem ? (
            <>
              <p className="mt-2 break-words pl-8">{report.problem.message}</p>
              <ProblemPlace problem={report.problem} />
            </>
          ) : null}
          <p className="mt-2 pl-8 text-sm opacity-80">
            Checked {formatDateTime(report.checked_at)}
          </p>
        </div>
      ) : (
        <div role="status" className={successBanner}>
          <CheckCircleIcon className="size-6 shrink-0" />
          <div>
            <p className="font-semibold">All chains verify</p>
            <p className="text-sm opacity-80">Checked {formatDateTime(report.checked_at)}</p>
          </div>
        </div>
      )}
      <div>
        <h3 className="mb-2 text-sm font-semibold">Records recomputed</h3>
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          <Figure label="Postings" value={integer.format(report.records.postings)} />
          <Figure label="Trades placed" value={integer.format(report.records.trades_placed)} />
          <Figure label="Trades settled" value={integer.format(report.records.trades_settled)} />
          <Figure label="Audit rows" value={integer.format(report.records.audit)} />
        </div>
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Chains and checkpoints</h3>
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          <Figure label="Chains" value={integer.format(report.chains)} />
          <Figure label="Checkpoints" value={integer.format(report.checkpoints)} />
          <Figure
            label="Latest checkpoint"
            value={latest ? `#${latest.id}` : "None yet"}
            note={latest ? formatDateTime(latest.created_at) : "No checkpoint published yet"}
          />
        </div>
      </div>
    </div>
  );
}

/**
 * The tamper-evident journal (issue 15 item 3): every chain recomputed and every signed
 * checkpoint checked, with the first record edited, deleted or inserted out of place.
 */
function JournalIntegrity() {
  const query = useQuery(journalVerifyQuery());
  const report = query.data;
  return (
    <section aria-labelledby="journal-title" className="mt-8">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id="journal-title" className="text-lg font-semibold">
            Journal integrity
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Every posting, trade and staff action is hash-chained as it is written; signed
            checkpoints are published at <code>/api/v1/journal/checkpoints</code>. The same check
            runs as <code>npm run journal:verify</code>.
          </p>
        </div>
        <Button variant="secondary" busy={query.isFetching} onClick={() => void query.refetch()}>
          Run again
        </Button>
      </div>
      {query.isLoading ? (
        <LoadingScreen label="Verifying the journal..." className="py-8" />
      ) : !report ? (
        <FailureState
          title="The journal check could not run"
          details={failureDetails(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <JournalReport report={report} />
      )}
    </section>
  );
}

/** Reconciliation (issue 5): the ledger's invariants and where the money is. */
export function ReconciliationPage() {
  const query = useQuery(ledgerCheckQuery());
  const report = query.data;
  return (
    <>
      <PageTitle
        title="Reconciliation"
        description="The ledger's invariants, checked now, and the totals they reconcile."
        actions={
          <Button variant="secondary" busy={query.isFetching} onClick={() => void query.refetch()}>
            Check again
          </Button>
        }
      />
      {query.isLoading ? (
        <LoadingScreen label="Checking the ledger..." />
      ) : !report ? (
        <FailureState
          title="The ledger check could not run"
          details={failureDetails(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <div className="flex flex-col gap-6">
          {report.ok ? (
            <div role="status" className={successBanner}>
              <CheckCircleIcon className="size-6 shrink-0" />
              <div>
                <p className="font-semibold">The ledger balances: every invariant holds.</p>
                <p className="text-sm opacity-80">Checked {formatDateTime(report.checked_at)}</p>
              </div>
            </div>
          ) : (
            <div role="alert" className={dangerBanner}>
              <p className="flex items-center gap-2 font-semibold">
                <AlertCircleIcon className="size-6 shrink-0" />
                {count(report.violations.length, "invariant violation")}
              </p>
              <ul className="mt-2 list-disc space-y-1 pl-9 text-sm">
                {report.violations.map((violation) => (
                  <li key={violation} className="break-words">
                    {violation}
                  </li>
                ))}
              </ul>
              <p className="mt-2 text-sm opacity-80">Checked {formatDateTime(report.checked_at)}</p>
            </div>
          )}
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            <Figure
              label="Confirmed deposits"
              value={formatUsd(report.confirmed_deposits.amount)}
              note={count(report.confirmed_deposits.count, "deposit")}
            />
            <Figure
              label="Paid withdrawals"
              value={formatUsd(report.paid_withdrawals.amount)}
              note={count(report.paid_withdrawals.count, "withdrawal")}
            />
            <Figure
              label="Held withdrawals"
              value={formatUsd(report.held_withdrawals.amount)}
              note={`${count(report.held_withdrawals.count, "withdrawal")} pending`}
            />
            <Figure
              label="Trading results (real)"
              value={formatUsd(report.trading_results.real)}
              note={`Practice: ${formatUsd(report.trading_results.practice)}. Positive: traders lost more than they won.`}
            />
          </div>
          <Card aria-labelledby="balances-title">
            <h2 id="balances-title" className="mb-3 font-semibold">
              Balances by account kind ({report.currency})
            </h2>
            <table className="w-full text-sm">
              <caption className="sr-only">Balances by account kind</caption>
              <thead className="border-b border-slate-200 dark:border-navy-700">
                <tr>
                  <th scope="col" className="py-2 text-left text-xs uppercase text-slate-500">
                    Account kind
                  </th>
                  <th scope="col" className="py-2 text-right text-xs uppercase text-slate-500">
                    Balance
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-navy-800">
                {Object.entries(report.balances_by_kind).map(([kind, amount]) => (
                  <tr key={kind}>
                    <td className="py-2">
                      {humanizeKey(kind)}{" "}
                      <code className="ml-1 text-xs text-slate-500">{kind}</code>
                    </td>
                    <td className="py-2 text-right font-semibold">
                      {amount < 0 ? `-${formatUsd(-amount)}` : formatUsd(amount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </div>
      )}
      <JournalIntegrity />
      <StaffExport kinds={["ledger", "trades", "deposits", "withdrawals"]} />
    </>
  );
}

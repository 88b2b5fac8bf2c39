import { useQuery } from "@tanstack/react-query";
import { engagementMessages, type ReferralItem } from "@tp/domain/engagement";
import { useEffect } from "react";
import toast from "react-hot-toast/headless";
import { referralDetailsQueryOptions, referralsQueryOptions } from "../../api/referrals.ts";
import { Card } from "../../components/card.tsx";
import { UsersIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { CheckIcon, CopyIcon } from "../../funding/funding-icons.tsx";
import { useCopy } from "../../funding/use-copy.ts";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "—" : dateFormat.format(date);
}

/** SPEC §8: a failed load says so in a toast (once per failure, not once per render). */
function useErrorToast(failed: boolean, message: string) {
  useEffect(() => {
    if (failed) toast.error(message, { id: message });
  }, [failed, message]);
}

function ReferralLink() {
  const details = useQuery(referralDetailsQueryOptions());
  const { copied, copy } = useCopy(engagementMessages.copiedToClipboard);
  useErrorToast(details.isError, engagementMessages.referralDetailsFailed);

  return (
    <Card aria-labelledby="referral-link-title">
      <h2 id="referral-link-title" className="text-lg font-semibold">
        Your referral link
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Whoever signs up through it appears in your referrals.
      </p>
      {details.isPending ? (
        <p role="status" className="mt-4 text-sm text-slate-500">
          Loading...
        </p>
      ) : details.isError ? (
        <FailureState
          title={engagementMessages.referralDetailsFailed}
          details={failureDetails(details.error)}
          onRetry={() => void details.refetch()}
          retrying={details.isFetching}
        />
      ) : (
        <>
          <div className="mt-4 flex flex-col gap-2 sm:flex-row">
            <label htmlFor="referral-url" className="sr-only">
              Referral link
            </label>
            <input
              id="referral-url"
              readOnly
              value={details.data.referral_url}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2.5 font-mono text-sm text-slate-800 dark:border-navy-600 dark:bg-navy-950 dark:text-slate-100"
            />
            <button
              type="button"
              onClick={() => void copy(details.data.referral_url)}
              data-copied={copied || undefined}
              className={`inline-flex h-11 shrink-0 items-center justify-center gap-2 rounded-lg px-4 text-sm font-semibold transition-colors ${
                copied
                  ? "bg-emerald-600 text-white"
                  : "bg-brand-600 text-white shadow-sm hover:bg-brand-700"
              }`}
            >
              {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
              {copied ? "Copied" : "Copy link"}
            </button>
          </div>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Your referral code:{" "}
            <span className="font-mono font-semibold text-slate-900 dark:text-white">
              {details.data.referral_id}
            </span>
          </p>
        </>
      )}
    </Card>
  );
}

function ReferralRow({ referral }: { referral: ReferralItem }) {
  return (
    <li className="flex items-center gap-3 py-3">
      <span
        aria-hidden="true"
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-600/10 text-sm font-semibold text-brand-700 dark:bg-brand-500/15 dark:text-brand-300"
      >
        {referral.name.charAt(0).toUpperCase()}
      </span>
      <span className="min-w-0 flex-1 truncate font-medium text-slate-900 dark:text-white">
        {referral.name}
      </span>
      <span className="shrink-0 text-sm text-slate-500 dark:text-slate-400">
        <span className="sr-only">Registered </span>
        <time dateTime={referral.date_registered}>{formatDate(referral.date_registered)}</time>
      </span>
    </li>
  );
}

function ReferralList() {
  const referrals = useQuery(referralsQueryOptions());
  useErrorToast(referrals.isError, engagementMessages.referralsFailed);
  const list = referrals.data;

  return (
    <Card aria-labelledby="referral-list-title">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="referral-list-title" className="text-lg font-semibold">
          Your referrals
        </h2>
        {list && list.total > 0 ? (
          <span className="text-sm text-slate-500 dark:text-slate-400">
            {list.total === 1 ? "1 trader" : `${list.total} traders`}
          </span>
        ) : null}
      </div>
      {referrals.isPending ? (
        <p role="status" className="py-8 text-center text-sm text-slate-500">
          Loading...
        </p>
      ) : referrals.isError ? (
        <FailureState
          title={engagementMessages.referralsFailed}
          details={failureDetails(referrals.error)}
          onRetry={() => void referrals.refetch()}
          retrying={referrals.isFetching}
        />
      ) : list === undefined || list.data.length === 0 ? (
        <div className="flex flex-col items-center py-10 text-center">
          <UsersIcon className="size-8 text-slate-400 dark:text-slate-500" />
          <p className="mt-3 font-medium text-slate-700 dark:text-slate-200">
            {engagementMessages.noReferrals}
          </p>
        </div>
      ) : (
        <>
          <div className="mt-3 flex justify-between border-b border-slate-200 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:border-navy-700 dark:text-slate-400">
            <span>Name</span>
            <span>Date registered</span>
          </div>
          <ul aria-label="Referrals" className="divide-y divide-slate-100 dark:divide-navy-800">
            {list.data.map((referral) => (
              <ReferralRow key={referral.id} referral={referral} />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

/** SPEC §2 "Referrals": the referral link with a copy action, and the list of referrals. */
export function ReferralsPage() {
  return (
    <>
      <PageTitle title="My Referrals" description="Invite friends with your referral link." />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,4fr)] lg:items-start">
        <ReferralLink />
        <ReferralList />
      </div>
    </>
  );
}

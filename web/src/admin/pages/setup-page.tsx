import { useQuery } from "@tanstack/react-query";
import type { SetupItem, SetupItemId } from "@tp/domain/setup-checklist";
import { Link } from "react-router";
import { errorMessage } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { AlertCircleIcon, CheckCircleIcon } from "../../components/icons.tsx";
import { LoadingScreen } from "../../components/loading-screen.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { paths } from "../../paths.ts";
import { setupChecklistQuery } from "../api/setup.ts";

/**
 * Where each item is fixed: a back-office page, or a setting of the server (named, with the
 * README section that explains it, since settings live in the environment, not in a form).
 */
const fixes: Record<SetupItemId, { page?: { to: string; label: string }; setting?: string }> = {
  payment_methods: {
    page: { to: paths.admin.paymentMethods, label: "Configure payment methods" },
    setting: "A change takes effect once a second admin confirms it.",
  },
  prices: {
    page: { to: paths.admin.feeds, label: "See the price feeds" },
    setting: "FEED_SOURCES and FEED_API_KEY: README, “Real prices”.",
  },
  mail: { setting: "SMTP_URL and MAIL_FROM: README, “Configuration”." },
  site_content: { setting: "CONTENT_DIR/site.json: README, “Configuration” (CONTENT_DIR)." },
  staff_two_factor: {
    page: { to: paths.admin.users, label: "See users" },
    setting: "New staff are asked to enrol at their first sign-in: README, “Staff”.",
  },
};

function ChecklistItem({ item }: { item: SetupItem }) {
  const fix = fixes[item.id];
  return (
    <li
      data-setup-item={item.id}
      data-done={item.done}
      className="flex gap-3 border-b border-slate-100 py-4 last:border-b-0 dark:border-navy-800"
    >
      {item.done ? (
        <CheckCircleIcon className="mt-0.5 size-6 shrink-0 text-emerald-600 dark:text-emerald-400" />
      ) : (
        <AlertCircleIcon className="mt-0.5 size-6 shrink-0 text-red-600 dark:text-red-400" />
      )}
      <div className="min-w-0 flex-1">
        <h2 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900 dark:text-white">
          {item.title}
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
              item.done
                ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300"
                : "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300"
            }`}
          >
            {item.done ? "Done" : "To do"}
          </span>
        </h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{item.detail}</p>
        {!item.done || fix.page ? (
          <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
            {fix.page ? (
              <Link
                to={fix.page.to}
                className="font-semibold text-brand-700 underline dark:text-brand-400"
              >
                {fix.page.label}
              </Link>
            ) : null}
            {!item.done && fix.setting ? (
              <span className="text-slate-600 dark:text-slate-400">{fix.setting}</span>
            ) : null}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The back office's home (issue 13 item 2): a checklist of what a new platform needs before
 * traders can use it, read from the server's real state. An item turns done only when the
 * thing itself is done.
 */
export function SetupPage() {
  const query = useQuery(setupChecklistQuery());
  const items = query.data?.items ?? [];
  const done = items.filter((item) => item.done).length;

  return (
    <>
      <PageTitle
        title="Setup"
        description={
          query.data
            ? `${done} of ${items.length} done. Each item reads the platform's current state.`
            : "What this platform needs before traders can use it."
        }
      />
      {query.isPending ? (
        <LoadingScreen />
      ) : query.isError ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-2xl border border-slate-200 bg-white p-5 dark:border-navy-700 dark:bg-navy-900"
        >
          <p className="text-sm text-red-700 dark:text-red-400">
            {errorMessage(query.error, "The setup checklist could not be loaded.")}
          </p>
          <Button variant="secondary" onClick={() => void query.refetch()} busy={query.isFetching}>
            Try again
          </Button>
        </div>
      ) : (
        <Card className="max-w-3xl !py-1">
          <ul aria-label="Setup checklist">
            {items.map((item) => (
              <ChecklistItem key={item.id} item={item} />
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

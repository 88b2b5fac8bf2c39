import { useQuery } from "@tanstack/react-query";
import { type AuditEntry, auditActions } from "@tp/domain/admin-api";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { SelectField, TextField } from "../../components/form-fields.tsx";
import { SpinnerIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { type AuditFilter, auditLogQuery } from "../api/audit-log.ts";
import { formatDateTime } from "../components/admin-format.ts";

const filterKeys = ["actor", "action", "target", "from", "to"] as const;
type FilterKey = (typeof filterKeys)[number];

/** A day picked in the form → the ISO instant it starts, in the browser's zone. */
function dayStart(day: string | null, plusDays = 0): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date + plusDays).toISOString();
}

/** Audit log (PRODUCT.md D7): every staff action, newest first, filterable, append-only. */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const filter: AuditFilter = {
    actor: params.get("actor") || undefined,
    action: params.get("action") || undefined,
    target: params.get("target") || undefined,
    from: dayStart(params.get("from")),
    // The picked "to" day is included: the server's `to` is exclusive.
    to: dayStart(params.get("to"), 1),
    page,
  };
  const query = useQuery(auditLogQuery(filter));
  const [form, setForm] = useState<Record<FilterKey, string>>(() => ({
    actor: params.get("actor") ?? "",
    action: params.get("action") ?? "",
    target: params.get("target") ?? "",
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
  }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const key of filterKeys) if (form[key].trim()) next.set(key, form[key].trim());
    setParams(next, { replace: true });
  };
  const clear = () => {
    setForm({ actor: "", action: "", target: "", from: "", to: "" });
    setParams({}, { replace: true });
  };
  const setPage = (next: number) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        updated.set("page", String(next));
        return updated;
      },
      { replace: true },
    );
  const field = (key: FilterKey) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) =>
      setForm((previous) => ({ ...previous, [key]: event.target.value })),
  });

  const rows = query.data?.data;
  return (
    <>
      <PageTitle title="Audit log" description="Every staff action: who, what, when, from where." />
      <Card className="mb-4">
        <form
          onSubmit={apply}
          className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
        >
          <TextField label="Actor" placeholder="e-mail or user id" {...field("actor")} />
          <SelectField label="Action" {...field("action")}>
            <option value="">Any action</option>
            {auditActions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </SelectField>
          <TextField label="Target" placeholder="deposit or deposit:12" {...field("target")} />
          <TextField label="From" type="date" {...field("from")} />
          <TextField label="To" type="date" {...field("to")} />
          <div className="flex gap-2">
            <Button type="submit">Filter</Button>
            <Button variant="ghost" onClick={clear}>
              Clear
            </Button>
          </div>
        </form>
      </Card>
      <Card className="!p-0 overflow-hidden">
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2.5 text-xs text-slate-500 dark:border-navy-700 dark:text-slate-400">
          <span>Newest first</span>
          <span className="flex items-center gap-2">
            {query.isFetching ? <SpinnerIcon className="size-3.5" /> : null}
            {query.data ? `${query.data.pagination.total} entries` : null}
          </span>
        </div>
        {rows === undefined ? (
          query.isError ? (
            <FailureState
              title="The audit log could not be loaded"
              details={failureDetails(query.error)}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
            />
          ) : (
            <p role="status" className="px-4 py-10 text-center text-sm text-slate-500">
              Loading...
            </p>
          )
        ) : rows.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-slate-500">No entries match.</p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-navy-800">
            {rows.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
        <div className="px-4 pb-3">
          <Pagination
            current={page}
            last={query.data?.pagination.last_page ?? 1}
            onPage={setPage}
            label="Audit log pages"
          />
        </div>
      </Card>
    </>
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The fields an action changed, before → after (objects); the whole values otherwise. */
export function auditChanges(before: unknown, after: unknown): Array<[string, string, string]> {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      .map((key) => [key, show(before[key]), show(after[key])]);
  }
  if (before === null && isRecord(after)) {
    return Object.entries(after).map(([key, value]) => [key, "—", show(value)]);
  }
  return [["value", show(before ?? undefined), show(after ?? undefined)]];
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry.before, entry.after);
  return (
    <li className="grid gap-x-4 gap-y-1 px-4 py-3 text-sm lg:grid-cols-[11rem_14rem_minmax(0,1fr)]">
      <div className="text-slate-500 tabular-nums dark:text-slate-400">
        {formatDateTime(entry.created_at)}
        {entry.ip ? <div className="text-xs">{entry.ip}</div> : null}
      </div>
      <div className="min-w-0">
        <p className="truncate font-medium">{entry.actor?.email ?? entry.actor_label}</p>
        <p className="text-xs">
          <code className="rounded bg-slate-100 px-1 py-px dark:bg-navy-800">{entry.action}</code>{" "}
          <span className="text-slate-500">
            {entry.target_type}:{entry.target_id}
          </span>
        </p>
      </div>
      <details className="min-w-0">
        <summary className="cursor-pointer text-xs font-semibold text-slate-600 dark:text-slate-300">
          {changes.length} {changes.length === 1 ? "change" : "changes"}:{" "}
          <span className="font-normal text-slate-500">
            {changes
              .slice(0, 3)
              .map(([key]) => key)
              .join(", ")}
            {changes.length > 3 ? ", …" : ""}
          </span>
        </summary>
        <dl className="mt-2 grid gap-1 text-xs">
          {changes.map(([key, from, to]) => (
            <div key={key} className="grid gap-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
              <dt className="font-semibold text-slate-600 dark:text-slate-300">{key}</dt>
              <dd className="min-w-0 break-all font-mono">
                <span className="text-red-700 line-through decoration-red-300 dark:text-red-400">
                  {from}
                </span>{" "}
                → <span className="text-emerald-700 dark:text-emerald-400">{to}</span>
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </li>
  );
}

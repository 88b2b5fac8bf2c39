import { type ReactNode, useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { Card } from "../../components/card.tsx";
import { SpinnerIcon } from "../../components/icons.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { statusLabel } from "./admin-format.ts";

/**
 * A review queue: status filter, the items of one page, and the selected item's detail
 * with its actions beside them on a desktop (below on a phone). Status, page and selection
 * live in the address, so a link or a reload shows the same item.
 */

export const all_statuses = "all";

export function useQueueParams<Status extends string>(
  statuses: readonly Status[],
  defaultStatus: Status,
) {
  const [params, setParams] = useSearchParams();
  const raw = params.get("status");
  const status: Status | undefined =
    raw === all_statuses
      ? undefined
      : statuses.includes(raw as Status)
        ? (raw as Status)
        : defaultStatus;
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const selectedRaw = Number.parseInt(params.get("id") ?? "", 10);
  const selectedId = Number.isSafeInteger(selectedRaw) ? selectedRaw : null;

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  return {
    status,
    page,
    selectedId,
    setStatus: (next: Status | undefined) =>
      update({ status: next ?? all_statuses, page: null, id: null }),
    setPage: (next: number) => update({ page: String(next), id: null }),
    select: (id: number | null) => update({ id: id === null ? null : String(id) }),
  };
}

export function StatusFilter<Status extends string>({
  statuses,
  current,
  onChange,
  label,
}: {
  statuses: readonly Status[];
  current: Status | undefined;
  onChange: (status: Status | undefined) => void;
  label: string;
}) {
  const options: Array<{ value: Status | undefined; label: string }> = [
    ...statuses.map((status) => ({ value: status, label: statusLabel(status) })),
    { value: undefined, label: "All" },
  ];
  return (
    <fieldset className="mb-4 min-w-0">
      <legend className="sr-only">{label}</legend>
      <div className="flex gap-1 overflow-x-auto rounded-xl bg-slate-200/60 p-1 dark:bg-navy-900">
        {options.map((option) => {
          const active = option.value === current;
          return (
            <button
              key={option.label}
              type="button"
              aria-pressed={active}
              onClick={() => onChange(option.value)}
              className={`whitespace-nowrap rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors ${
                active
                  ? "bg-white text-navy-900 shadow-sm dark:bg-navy-700 dark:text-white"
                  : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
              }`}
            >
              {option.label}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

interface QueueListProps<Item> {
  label: string;
  items: readonly Item[] | undefined;
  isLoading: boolean;
  error: unknown;
  isFetching: boolean;
  /** Try again: refetches the list after a failed read. */
  onRetry: () => void;
  emptyText: string;
  getId: (item: Item) => number;
  selectedId: number | null;
  onSelect: (id: number) => void;
  renderRow: (item: Item) => ReactNode;
  page: number;
  lastPage: number;
  total: number;
  onPage: (page: number) => void;
}

export function QueueList<Item>({
  label,
  items,
  isLoading,
  error,
  isFetching,
  onRetry,
  emptyText,
  getId,
  selectedId,
  onSelect,
  renderRow,
  page,
  lastPage,
  total,
  onPage,
}: QueueListProps<Item>) {
  let body: ReactNode;
  if (isLoading) {
    body = (
      <p role="status" className="flex items-center gap-2 px-4 py-10 text-sm text-slate-500">
        <SpinnerIcon className="size-4 text-brand-500" /> Loading...
      </p>
    );
  } else if (items === undefined) {
    body = (
      <FailureState
        title="The list could not be loaded"
        details={failureDetails(error)}
        onRetry={onRetry}
        retrying={isFetching}
      />
    );
  } else if (items.length === 0) {
    body = <p className="px-4 py-10 text-center text-sm text-slate-500">{emptyText}</p>;
  } else {
    body = (
      <ul className="divide-y divide-slate-100 dark:divide-navy-800">
        {items.map((item) => {
          const id = getId(item);
          const selected = id === selectedId;
          return (
            <li key={id}>
              <button
                type="button"
                aria-current={selected ? "true" : undefined}
                onClick={() => onSelect(id)}
                className={`block w-full px-4 py-3 text-left text-sm transition-colors ${
                  selected
                    ? "bg-brand-600/10 shadow-[inset_3px_0_0] shadow-brand-600 dark:bg-brand-500/15"
                    : "hover:bg-slate-50 dark:hover:bg-navy-800/60"
                }`}
              >
                {renderRow(item)}
              </button>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Card className="!p-0 overflow-hidden">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:border-navy-700 dark:text-slate-400">
        <h2>{label}</h2>
        <span className="flex items-center gap-2 normal-case tracking-normal">
          {isFetching && !isLoading ? <SpinnerIcon className="size-3.5" /> : null}
          {items !== undefined ? `${total} in all` : null}
        </span>
      </div>
      {body}
      <div className="px-4 pb-3">
        <Pagination current={page} last={lastPage} onPage={onPage} label={`${label} pages`} />
      </div>
    </Card>
  );
}

/** The two columns: the list, and the detail that follows the selection. */
export function QueueColumns({
  list,
  detail,
  selectedId,
}: {
  list: ReactNode;
  detail: ReactNode;
  selectedId: number | null;
}) {
  const detailRef = useRef<HTMLDivElement>(null);
  // On a phone the detail sits below the list: bring it into view when an item is picked.
  useEffect(() => {
    if (selectedId === null) return;
    if (!window.matchMedia?.(stacked_layout_query).matches) return;
    detailRef.current?.scrollIntoView?.({ block: "start", behavior: "smooth" });
  }, [selectedId]);
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,30rem)] xl:grid-cols-[minmax(0,1fr)_minmax(0,36rem)]">
      <div className="min-w-0">{list}</div>
      <div ref={detailRef} className="min-w-0 scroll-mt-28 lg:sticky lg:top-20">
        {detail}
      </div>
    </div>
  );
}

/** Below Tailwind's lg breakpoint the two columns stack. */
const stacked_layout_query = "(max-width: 63.99rem)";

export function NothingSelected({ text }: { text: string }) {
  return (
    <div className="hidden rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center text-sm text-slate-500 lg:block dark:border-navy-600 dark:text-slate-400">
      {text}
    </div>
  );
}

/** Label/value pairs of a detail panel. */
export function Facts({ items }: { items: ReadonlyArray<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      {items.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
          <dd className="min-w-0 break-words font-medium text-slate-900 dark:text-slate-100">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** After a decision the next item of the page is selected, so staff work straight through. */
export function nextSelection<Item>(
  items: readonly Item[] | undefined,
  getId: (item: Item) => number,
  decidedId: number,
): number | null {
  if (!items) return null;
  const index = items.findIndex((item) => getId(item) === decidedId);
  if (index < 0) return null;
  const next = items[index + 1] ?? items[index - 1];
  return next === undefined ? null : getId(next);
}

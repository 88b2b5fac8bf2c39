/** Page numbers to show: the first, the last, the current one and its neighbours. */
export function pageWindow(current: number, last: number): Array<number | "gap"> {
  const pages = new Set([1, last, current - 1, current, current + 1]);
  const sorted = [...pages].filter((page) => page >= 1 && page <= last).sort((a, b) => a - b);
  const items: Array<number | "gap"> = [];
  for (const page of sorted) {
    const previous = items[items.length - 1];
    if (typeof previous === "number" && page - previous === 2) items.push(previous + 1);
    else if (typeof previous === "number" && page - previous > 2) items.push("gap");
    items.push(page);
  }
  return items;
}

const pageButton =
  "inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-3 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-50";

/** SPEC §2: page number buttons, shown only when there is more than one page. */
export function Pagination({
  current,
  last,
  onPage,
  label,
}: {
  current: number;
  last: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (last <= 1) return null;
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-center gap-1.5">
      <button
        type="button"
        className={`${pageButton} text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-navy-800`}
        disabled={current <= 1}
        onClick={() => onPage(current - 1)}
      >
        Previous
      </button>
      {pageWindow(current, last).map((item, index) =>
        item === "gap" ? (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place
            key={`gap-${index}`}
            aria-hidden="true"
            className="px-1 text-slate-500 dark:text-slate-400"
          >
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            aria-label={`Page ${item}`}
            aria-current={item === current ? "page" : undefined}
            className={`${pageButton} ${
              item === current
                ? "bg-brand-600 text-white"
                : "border border-slate-200 text-slate-700 hover:bg-slate-100 dark:border-navy-700 dark:text-slate-200 dark:hover:bg-navy-800"
            }`}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        ),
      )}
      <button
        type="button"
        className={`${pageButton} text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-navy-800`}
        disabled={current >= last}
        onClick={() => onPage(current + 1)}
      >
        Next
      </button>
    </nav>
  );
}

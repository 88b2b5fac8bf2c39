/** A yes/no property as a small pill: green when on. */
export function Flag({ on, label }: { on: boolean; label: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-[11px] font-semibold ${
        on
          ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300"
          : "bg-slate-200 text-slate-600 dark:bg-slate-500/20 dark:text-slate-400"
      }`}
    >
      {label}
    </span>
  );
}

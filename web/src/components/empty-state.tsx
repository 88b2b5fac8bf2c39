import type { ReactNode } from "react";

export function EmptyState({
  icon,
  title,
  text,
}: {
  icon: ReactNode;
  title: string;
  text?: string;
}) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-navy-600">
      <div className="text-slate-400 dark:text-slate-500">{icon}</div>
      <p className="mt-4 font-semibold text-slate-800 dark:text-slate-100">{title}</p>
      {text ? (
        <p className="mt-1 max-w-md text-sm text-slate-500 dark:text-slate-400">{text}</p>
      ) : null}
    </div>
  );
}

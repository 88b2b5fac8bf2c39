import type { ReactNode } from "react";
import { SparkIcon } from "./icons.tsx";

/** A feature that a later release builds: says what it will be, claims nothing else. */
export function ComingSoon({
  feature,
  description,
  icon,
  children,
}: {
  feature: string;
  description: string;
  icon?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="relative overflow-hidden rounded-2xl border border-dashed border-slate-300 bg-gradient-to-br from-white to-slate-50 px-6 py-12 text-center dark:border-navy-600 dark:from-navy-900 dark:to-navy-950">
      <div className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-brand-600/10 text-brand-600 dark:bg-brand-500/15 dark:text-brand-400">
        {icon ?? <SparkIcon className="size-7" />}
      </div>
      <p className="mt-5 inline-flex items-center rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
        Coming soon
      </p>
      <h2 className="mt-3 text-lg font-semibold text-slate-900 dark:text-white">{feature}</h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">
        {description}
      </p>
      {children ? <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div> : null}
    </div>
  );
}

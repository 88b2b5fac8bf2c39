import type { ReactNode } from "react";
import { DocumentTitle } from "./document-title.tsx";

/** The centred panel of the account pages (sign-in, sign-up, password reset, …). */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  width = "max-w-md",
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: string;
}) {
  return (
    <div className="relative flex flex-1 justify-center bg-gradient-to-b from-navy-950 via-navy-950 to-slate-50 px-4 py-10 sm:py-16 dark:to-navy-950">
      <DocumentTitle title={title} />
      <div className={`w-full ${width}`}>
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-xl shadow-navy-950/10 sm:p-8 dark:border-navy-700 dark:bg-navy-900">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
            {title}
          </h1>
          {subtitle ? (
            <div className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{subtitle}</div>
          ) : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? (
          <div className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
            {footer}
          </div>
        ) : null}
      </div>
    </div>
  );
}

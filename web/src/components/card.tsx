import type { ReactNode } from "react";

/** The white (navy in dark theme) panel every signed-in section sits on. */
export function Card({
  children,
  className = "",
  as: Tag = "section",
  ...aria
}: {
  children: ReactNode;
  className?: string;
  as?: "section" | "div" | "article";
  "aria-labelledby"?: string;
}) {
  return (
    <Tag
      className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-navy-700 dark:bg-navy-900 ${className}`}
      {...aria}
    >
      {children}
    </Tag>
  );
}

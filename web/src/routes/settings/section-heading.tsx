import type { ReactNode } from "react";

/** The icon, title and one-line explanation at the top of each Security page section. */
export function SectionHeading({
  id,
  icon,
  title,
  text,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  text: string;
}) {
  return (
    <div className="mb-5 flex gap-3">
      <div className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-600/10 text-brand-600 dark:text-brand-400">
        {icon}
      </div>
      <div>
        <h2 id={id} className="font-semibold">
          {title}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{text}</p>
      </div>
    </div>
  );
}

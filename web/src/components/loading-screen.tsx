import { SpinnerIcon } from "./icons.tsx";

/** SPEC §2: a Loading state while the sign-in check runs. */
export function LoadingScreen({
  label = "Loading...",
  className = "min-h-[50vh]",
}: {
  label?: string;
  className?: string;
}) {
  return (
    <div
      role="status"
      className={`flex flex-1 items-center justify-center gap-3 text-slate-500 dark:text-slate-400 ${className}`}
    >
      <SpinnerIcon className="size-6 text-brand-500" />
      <span className="text-sm font-medium">{label}</span>
    </div>
  );
}

import { CheckIcon, CopyIcon } from "./funding-icons.tsx";
import { useCopy } from "./use-copy.ts";

/** A copy action for one value: the icon turns into a check for 2 s after copying. */
export function CopyButton({
  text,
  label,
  message,
  className = "",
}: {
  text: string;
  /** What is copied, for the accessible name ("Copy wallet address"). */
  label: string;
  message: string;
  className?: string;
}) {
  const { copied, copy } = useCopy(message);
  return (
    <button
      type="button"
      onClick={() => void copy(text)}
      aria-label={copied ? `${label}: copied` : `Copy ${label}`}
      data-copied={copied || undefined}
      className={`inline-flex size-9 shrink-0 items-center justify-center rounded-lg border transition-colors ${
        copied
          ? "border-emerald-500 bg-emerald-50 text-emerald-600 dark:bg-emerald-500/15 dark:text-emerald-300"
          : "border-slate-300 bg-white text-slate-600 hover:bg-slate-100 dark:border-navy-600 dark:bg-navy-800 dark:text-slate-200 dark:hover:bg-navy-700"
      } ${className}`}
    >
      {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
    </button>
  );
}

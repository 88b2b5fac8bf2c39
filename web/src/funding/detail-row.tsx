import { CopyButton } from "./copy-button.tsx";

/** "snake_case" or "camelCase" keys staff typed → "Snake case" labels. */
export function labelOfDetailKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.length === 0 ? key : words[0]!.toUpperCase() + words.slice(1);
}

/** One label and value of payment details, with a copy action when useful. */
export function DetailRow({
  label,
  value,
  copyMessage,
  mono = false,
}: {
  label: string;
  value: string;
  copyMessage?: string;
  mono?: boolean;
}) {
  return (
    <div className="flex items-center gap-3 border-b border-slate-100 py-2.5 last:border-b-0 dark:border-navy-800">
      <div className="min-w-0 flex-1">
        <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}</dt>
        <dd
          className={`break-all text-sm font-semibold text-slate-900 dark:text-white ${mono ? "font-mono" : ""}`}
        >
          {value}
        </dd>
      </div>
      {copyMessage ? <CopyButton text={value} label={label} message={copyMessage} /> : null}
    </div>
  );
}

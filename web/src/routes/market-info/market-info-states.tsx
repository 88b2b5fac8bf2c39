import type { ReactNode } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { AlertCircleIcon, SpinnerIcon } from "../../components/icons.tsx";

/** "Loading..." (the spec's loading text) with a spinner, in the page's card. */
export function MarketInfoLoading({ label }: { label: string }) {
  return (
    <Card className="flex items-center justify-center gap-3 py-16 text-sm text-slate-600 dark:text-slate-400">
      <SpinnerIcon className="size-5 text-brand-600" />
      <span role="status" aria-label={label}>
        Loading...
      </span>
    </Card>
  );
}

/**
 * A provider or network failure, said plainly: the spec's message as the headline, the
 * server's explanation under it, and a way to try again.
 */
export function MarketInfoFailure({
  title,
  details,
  note,
  onRetry,
  retrying,
  icon,
}: {
  title: string;
  details: string;
  note?: string;
  onRetry: () => void;
  retrying: boolean;
  icon?: ReactNode;
}) {
  return (
    <Card className="flex flex-col items-center px-6 py-14 text-center">
      <div className="flex size-14 items-center justify-center rounded-2xl bg-amber-500/10 text-amber-600 dark:text-amber-400">
        {icon ?? <AlertCircleIcon className="size-7" />}
      </div>
      <h2 role="alert" className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      <p className="mt-1 max-w-lg text-sm text-slate-600 dark:text-slate-400">{details}</p>
      {note ? <p className="mt-1 text-xs text-slate-500 dark:text-slate-500">{note}</p> : null}
      <Button variant="secondary" className="mt-5" onClick={onRetry} busy={retrying}>
        Try again
      </Button>
    </Card>
  );
}

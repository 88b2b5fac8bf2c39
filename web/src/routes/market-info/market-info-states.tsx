import type { ReactNode } from "react";
import { FailureState, LoadingState } from "../../components/query-states.tsx";

/** "Loading..." (the spec's loading text) with a spinner, in the page's card. */
export function MarketInfoLoading({ label }: { label: string }) {
  return <LoadingState label={label} variant="card" />;
}

/**
 * A provider or network failure, said plainly: the spec's message as the headline, the
 * server's explanation under it, and a way to try again (the shared failed state).
 */
export function MarketInfoFailure(props: {
  title: string;
  details: string;
  note?: string;
  onRetry: () => void;
  retrying: boolean;
  icon?: ReactNode;
}) {
  return <FailureState {...props} variant="card" />;
}

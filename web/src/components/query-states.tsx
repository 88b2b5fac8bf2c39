import { stateMessages } from "@tp/domain/messages";
import type { ReactNode } from "react";
import { ApiError } from "../api/client.ts";
import { Button } from "./button.tsx";
import { AlertCircleIcon, SpinnerIcon } from "./icons.tsx";

/**
 * The three states every list and panel tells apart (issue 13): loading, empty and failed.
 * A failure is never drawn as emptiness: it says what could not be loaded, why (as far as
 * the browser knows), and offers Try again, which refetches.
 */

/** Why a read failed, in words a trader can act on (the server's own text for a 4xx). */
export function failureDetails(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status < 500 && error.serverMessage) return error.serverMessage;
    if (error.status >= 500) return stateMessages.serverFailed(error.status);
    return stateMessages.unexpectedReply(error.status);
  }
  // fetch rejects (TypeError) when the server cannot be reached; a timeout aborts.
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return stateMessages.timedOut;
  }
  return stateMessages.unreachable;
}

export type StateVariant = "card" | "inline";

/** "Loading..." (SPEC's loading text) with a spinner; `label` names what is loading. */
export function LoadingState({
  label,
  variant = "inline",
}: {
  label: string;
  variant?: StateVariant;
}) {
  return (
    <div
      className={`flex items-center justify-center gap-3 text-sm text-slate-600 dark:text-slate-400 ${
        variant === "card"
          ? "rounded-2xl border border-slate-200 bg-white py-16 shadow-sm dark:border-navy-700 dark:bg-navy-900"
          : "py-8"
      }`}
    >
      <SpinnerIcon className="size-5 text-brand-600" />
      <span role="status" aria-label={label}>
        Loading...
      </span>
    </div>
  );
}

/**
 * A failed read: the headline says what could not be loaded, `details` why, and Try again
 * refetches. `card` stands alone on a page; `inline` sits inside a panel or table.
 */
export function FailureState({
  title,
  details,
  note,
  onRetry,
  retrying,
  icon,
  variant = "inline",
}: {
  title: string;
  details?: string;
  note?: string;
  onRetry: () => void;
  retrying: boolean;
  icon?: ReactNode;
  variant?: StateVariant;
}) {
  const card = variant === "card";
  return (
    <div
      data-state="failed"
      className={`flex flex-col items-center text-center ${
        card
          ? "rounded-2xl border border-slate-200 bg-white px-6 py-14 shadow-sm dark:border-navy-700 dark:bg-navy-900"
          : "px-4 py-8"
      }`}
    >
      <div
        className={`flex items-center justify-center rounded-2xl bg-amber-500/10 text-amber-600 dark:text-amber-400 ${
          card ? "size-14" : "size-10"
        }`}
      >
        {icon ?? <AlertCircleIcon className={card ? "size-7" : "size-5"} />}
      </div>
      {/* Standing alone on a page the headline is a heading; inside a panel, a line. */}
      {card ? (
        <h2 role="alert" className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
      ) : (
        <p role="alert" className="mt-3 text-sm font-semibold text-slate-900 dark:text-white">
          {title}
        </p>
      )}
      {details ? (
        <p className="mt-1 max-w-lg text-sm text-slate-600 dark:text-slate-400">{details}</p>
      ) : null}
      {note ? <p className="mt-1 text-xs text-slate-500 dark:text-slate-500">{note}</p> : null}
      <Button
        variant="secondary"
        size={card ? "md" : "sm"}
        className="mt-4"
        onClick={onRetry}
        busy={retrying}
      >
        Try again
      </Button>
    </div>
  );
}

/**
 * Data is on screen but the latest refresh failed: said in one line above it, with Try
 * again, so old numbers are not taken for current ones.
 */
export function StaleNotice({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <div
      data-state="stale"
      className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-300"
    >
      <span role="alert">{stateMessages.refreshFailed}</span>
      <Button variant="secondary" size="sm" onClick={onRetry} busy={retrying}>
        Try again
      </Button>
    </div>
  );
}

/** What QueryStates reads of a TanStack query result. */
export interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * One place for the three states of a query: loading, failed (with Try again), empty, and
 * the data (with a notice when a later refresh failed).
 */
export function QueryStates<T>({
  query,
  loadingLabel,
  failureTitle,
  isEmpty,
  empty,
  variant = "inline",
  children,
}: {
  query: QueryLike<T>;
  /** Names what loads, for screen readers: "Loading trades". */
  loadingLabel: string;
  /** The failure's headline: "The trades could not be loaded". */
  failureTitle: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  variant?: StateVariant;
  children: (data: T) => ReactNode;
}) {
  const retry = () => void query.refetch();
  if (query.data === undefined) {
    if (query.isError) {
      return (
        <FailureState
          title={failureTitle}
          details={failureDetails(query.error)}
          onRetry={retry}
          retrying={query.isFetching}
          variant={variant}
        />
      );
    }
    return <LoadingState label={loadingLabel} variant={variant} />;
  }
  const data = query.data;
  return (
    <>
      {query.isError ? <StaleNotice onRetry={retry} retrying={query.isFetching} /> : null}
      {isEmpty?.(data) && empty !== undefined ? empty : children(data)}
    </>
  );
}

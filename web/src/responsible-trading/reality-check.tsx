import { useQuery, useQueryClient } from "@tanstack/react-query";
import { formatUsd } from "@tp/domain/money";
import {
  nextRealityCheckAt,
  type SessionFigures,
  sessionLengthText,
} from "@tp/domain/responsible-trading";
import { useCallback, useEffect, useState } from "react";
import { sessionFiguresQueryKey, sessionFiguresQueryOptions } from "../api/responsible-trading.ts";
import { useSignOut } from "../auth/use-sign-out.ts";
import { Button } from "../components/button.tsx";
import { Modal } from "../components/modal.tsx";
import { useNow } from "../components/use-now.ts";

/** "+$35.00", "−$12.50", "$0.00": the session's result with its sign. */
function signedUsd(dollars: number): string {
  if (dollars > 0) return `+${formatUsd(dollars)}`;
  if (dollars < 0) return `\u2212${formatUsd(-dollars)}`;
  return formatUsd(0);
}

/**
 * The reality check's dialog (issue 14 item 3): how long the trader has been signed in and
 * this session's real-account trades, stakes and result, with Continue and Log out.
 */
export function RealityCheckDialog({
  figures,
  nowMs,
  onContinue,
  onLogOut,
  signingOut = false,
}: {
  figures: SessionFigures;
  /** The time to measure the session to; the browser's clock (renewed each 30 s) if not given. */
  nowMs?: number;
  onContinue: () => void;
  onLogOut: () => void;
  signingOut?: boolean;
}) {
  const liveNow = useNow(30_000);
  const length = sessionLengthText((nowMs ?? liveNow) - Date.parse(figures.session_started_at));
  const rows: Array<[string, string]> = [
    ["Trades", String(figures.trades)],
    ["Stakes", formatUsd(figures.stakes)],
    ["Result", signedUsd(figures.result)],
  ];
  return (
    <Modal
      title="Reality check"
      onClose={onContinue}
      dismissible={!signingOut}
      footer={
        <>
          <Button variant="secondary" onClick={onLogOut} busy={signingOut}>
            Log out
          </Button>
          <Button onClick={onContinue} disabled={signingOut}>
            Continue
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-200">
        You have been signed in for <strong>{length}</strong>.
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Your real-account trading in this session:
      </p>
      <dl className="mt-4 grid grid-cols-3 gap-3">
        {rows.map(([label, value]) => (
          <div
            key={label}
            className="rounded-xl border border-slate-200 px-3 py-2.5 dark:border-navy-700"
          >
            <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="mt-0.5 font-semibold tabular-nums text-slate-900 dark:text-white">
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">
        You can change how often this appears, or turn it off, under Settings → Responsible trading.
      </p>
    </Modal>
  );
}

/** Where the last check this tab answered is kept, per session (survives reloads). */
function storageKey(sessionStartedAt: string) {
  return `reality-check:${sessionStartedAt}`;
}
function readAnswered(sessionStartedAt: string): number {
  try {
    const stored = Number(window.sessionStorage.getItem(storageKey(sessionStartedAt)));
    return Number.isFinite(stored) ? stored : 0;
  } catch {
    return 0;
  }
}
function writeAnswered(sessionStartedAt: string, atMs: number) {
  try {
    window.sessionStorage.setItem(storageKey(sessionStartedAt), String(atMs));
  } catch {
    // Storage refused (private mode): the check still works for this page's life.
  }
}

/**
 * Mounted once in the user shell: at each interval since the session's sign-in it re-reads
 * the session's figures and, when the check is on and the trader has placed a real trade in
 * this session, shows one dialog (never a pile). Continue closes it until the next interval;
 * Log out signs out. Times are the browser's clock (Date.now), as every countdown of the app.
 */
export function RealityCheck() {
  const queryClient = useQueryClient();
  const figures = useQuery(sessionFiguresQueryOptions());
  const { signOut, isSigningOut } = useSignOut();
  const [open, setOpen] = useState<SessionFigures | null>(null);
  const [answeredAt, setAnsweredAt] = useState<number | null>(null);

  const data = figures.data;
  const startedAt = data?.session_started_at ?? null;
  const enabled = data?.reality_check.enabled ?? false;
  const interval = data?.reality_check.interval_minutes ?? 60;

  useEffect(() => {
    if (startedAt !== null) setAnsweredAt(readAnswered(startedAt));
  }, [startedAt]);

  const answer = useCallback(
    (atMs: number) => {
      if (startedAt === null) return;
      writeAnswered(startedAt, atMs);
      setAnsweredAt(atMs);
    },
    [startedAt],
  );

  useEffect(() => {
    if (startedAt === null || !enabled || open !== null || answeredAt === null) return;
    const startedAtMs = Date.parse(startedAt);
    const dueAt = nextRealityCheckAt(startedAtMs, interval, Math.max(answeredAt, startedAtMs));
    let cancelled = false;
    const timer = setTimeout(
      async () => {
        let fresh: SessionFigures;
        try {
          fresh = await queryClient.fetchQuery({
            ...sessionFiguresQueryOptions(),
            staleTime: 0,
          });
        } catch {
          // Figures unavailable (offline, signed out): try again at the next interval.
          if (!cancelled) answer(Date.now());
          return;
        }
        if (cancelled) return;
        // The setting may have changed since: the refetch restarts this effect if so.
        if (
          fresh.session_started_at !== startedAt ||
          !fresh.reality_check.enabled ||
          fresh.reality_check.interval_minutes !== interval
        ) {
          return;
        }
        if (fresh.trades > 0) setOpen(fresh);
        else answer(Date.now());
      },
      Math.max(0, dueAt - Date.now()),
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [startedAt, enabled, interval, open, answeredAt, queryClient, answer]);

  if (open === null) return null;
  return (
    <RealityCheckDialog
      figures={open}
      signingOut={isSigningOut}
      onContinue={() => {
        answer(Date.now());
        setOpen(null);
      }}
      onLogOut={() => {
        void queryClient.removeQueries({ queryKey: sessionFiguresQueryKey });
        void signOut();
      }}
    />
  );
}

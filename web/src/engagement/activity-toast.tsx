import type { ActivityItem } from "@tp/domain/engagement";
import { formatUsd } from "@tp/domain/money";
import { useEffect, useState } from "react";
import { fetchRecentActivity } from "../api/recent-activity.ts";

/** SPEC §9: a transaction is shown for 8000 ms… */
export const activity_toast_visible_ms = 8_000;
/** …and the next fetch comes after one of these, picked at random. */
export const activity_refresh_choices_ms = [30_000, 60_000, 90_000, 120_000] as const;
/** The exit animation's length: the toast leaves the page once it has played. */
export const activity_toast_exit_ms = 400;

/** One of the refresh choices; `random` is Math.random's range [0, 1). */
export function pickRefreshDelayMs(random: () => number = Math.random): number {
  const index = Math.min(
    Math.floor(random() * activity_refresh_choices_ms.length),
    activity_refresh_choices_ms.length - 1,
  );
  return activity_refresh_choices_ms[index]!;
}

type Phase = "shown" | "leaving";

/**
 * SPEC §4 "Social-proof toast" as PRODUCT.md D5 has it: real, anonymised transactions only.
 * Hidden at first; one fetch on mount; each fetch shows one random item of the reply for 8 s
 * (sliding in from below, leaving upwards), and the next fetch follows after 30, 60, 90 or
 * 120 s. No transactions: nothing shows. Turned off by the operator (`enabled` false): no
 * further fetches. A failed fetch is only logged (SPEC §8). Every timer stops on unmount.
 */
export function ActivityToast() {
  const [item, setItem] = useState<ActivityItem | null>(null);
  const [phase, setPhase] = useState<Phase>("shown");

  useEffect(() => {
    let stopped = false;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (run: () => void, ms: number) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    };
    const controller = new AbortController();

    const fetchAndShow = async () => {
      let enabled = true;
      try {
        const recent = await fetchRecentActivity(controller.signal);
        if (stopped) return;
        enabled = recent.enabled;
        const picked = recent.data[Math.floor(Math.random() * recent.data.length)];
        if (enabled && picked !== undefined) {
          setItem(picked);
          setPhase("shown");
          later(() => {
            setPhase("leaving");
            later(() => setItem(null), activity_toast_exit_ms);
          }, activity_toast_visible_ms);
        }
      } catch (error) {
        if (stopped) return;
        console.warn("Recent activity could not be loaded", error);
      }
      if (enabled) later(() => void fetchAndShow(), pickRefreshDelayMs());
    };
    void fetchAndShow();

    return () => {
      stopped = true;
      controller.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    };
  }, []);

  if (item === null) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-phase={phase}
      className={`pointer-events-none fixed bottom-20 left-3 z-40 w-[min(20rem,calc(100vw-1.5rem))] transition-[opacity,translate] duration-400 ease-out motion-reduce:transition-none md:bottom-6 md:left-6 ${
        phase === "leaving"
          ? "-translate-y-[50px] opacity-0"
          : "translate-y-0 opacity-100 starting:translate-y-[50px] starting:opacity-0"
      }`}
    >
      <div className="flex items-start gap-3 rounded-xl border border-slate-200 bg-white/95 p-3.5 shadow-lg shadow-navy-950/10 backdrop-blur dark:border-navy-700 dark:bg-navy-800/95">
        <span
          aria-hidden="true"
          className={`mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
            item.kind === "deposit"
              ? "bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300"
              : "bg-brand-600/10 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300"
          }`}
        >
          {item.kind === "deposit" ? "+" : "−"}
        </span>
        <div className="min-w-0 text-sm">
          <p className="font-semibold text-slate-900 dark:text-white">New Transaction</p>
          <p className="mt-0.5 text-slate-700 dark:text-slate-200">
            Amount: <span className="font-semibold tabular-nums">{formatUsd(item.amount)}</span>
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {item.kind === "deposit" ? "Deposit" : "Withdrawal"} via {item.method}
          </p>
        </div>
      </div>
    </div>
  );
}

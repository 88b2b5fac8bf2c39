import { API_BASE_PATH } from "@tp/domain/paths";
import type {} from "altcha/types/react";
import { useEffect, useRef } from "react";

/**
 * Loads the ALTCHA widget once, on the first form that needs it (a dynamic import: its own
 * chunk, not on every page). The "external" build keeps styles in a CSS file and the worker a
 * file of our origin, so the strict CSP (no inline style, workers from 'self') holds.
 */
let widgetLoading: Promise<void> | null = null;

function loadWidget(): Promise<void> {
  widgetLoading ??= (async () => {
    await import("altcha/external");
    await import("altcha/altcha.css");
    const { default: Pbkdf2Worker } = await import("altcha/workers/pbkdf2?worker");
    globalThis.$altcha.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());
  })().catch((error: unknown) => {
    // A failed chunk download may succeed on the next form that asks.
    widgetLoading = null;
    throw error;
  });
  return widgetLoading;
}

/** What the widget reports on each change; `payload` is set once the work is done. */
interface StateChange {
  state?: string;
  payload?: string | null;
}

/**
 * The proof of work a sign-in, forgot-password or resend needs once the server answered
 * CHALLENGE_REQUIRED (too many attempts for the account). The widget fetches a challenge from
 * GET /challenge and solves it in a worker; `onSolved` gets the payload to send as `altcha`,
 * or null when it expires or is reset.
 */
export function ProofOfWorkField({ onSolved }: { onSolved: (payload: string | null) => void }) {
  const widget = useRef<HTMLElement>(null);

  useEffect(() => {
    loadWidget().catch(() => {
      // Without the widget the form still answers: the server keeps asking for the challenge.
    });
  }, []);

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<StateChange>).detail;
      onSolved(detail?.state === "verified" && detail.payload ? detail.payload : null);
    };
    element.addEventListener("statechange", listener);
    return () => element.removeEventListener("statechange", listener);
  }, [onSolved]);

  return (
    <div data-testid="proof-of-work" className="flex flex-col gap-2">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Too many attempts for this account. Confirm you are not a robot, then try again.
      </p>
      <altcha-widget ref={widget} challenge={`${API_BASE_PATH}/challenge`} name="altcha" />
    </div>
  );
}

/**
 * How feeds wait. Injected so tests can advance a ManualClock instead of sleeping; it
 * resolves early (never rejects) when the signal aborts, so loops just check `aborted`.
 */
export type Sleep = (milliseconds: number, signal: AbortSignal) => Promise<void>;

export const timerSleep: Sleep = (milliseconds, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, milliseconds);
    signal.addEventListener("abort", finish, { once: true });
  });

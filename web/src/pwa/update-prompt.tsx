import { useSyncExternalStore } from "react";
import { app_name } from "../brand.ts";
import {
  applyUpdate,
  dismissUpdate,
  subscribeUpdate,
  waitingWorker,
} from "./service-worker-registration.ts";

/** "A new version is available" while a new service worker waits (see service-worker.ts). */
export function UpdatePrompt() {
  const waiting = useSyncExternalStore(subscribeUpdate, waitingWorker, () => null);
  if (waiting === null) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-3 top-3 z-[60] mx-auto flex max-w-lg flex-wrap items-center gap-3 rounded-2xl border border-brand-500/40 bg-navy-900 p-4 text-white shadow-2xl sm:flex-nowrap"
    >
      <p className="min-w-0 flex-1 text-sm">
        <span className="font-semibold">A new version of {app_name} is available.</span>{" "}
        <span className="text-navy-200">Reload to use it.</span>
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={dismissUpdate}
          className="h-9 rounded-lg px-3 text-sm font-semibold text-navy-100 hover:bg-white/10"
        >
          Later
        </button>
        <button
          type="button"
          onClick={applyUpdate}
          className="h-9 rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Reload
        </button>
      </div>
    </div>
  );
}

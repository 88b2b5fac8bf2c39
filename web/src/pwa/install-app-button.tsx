import { useSyncExternalStore } from "react";
import { installOffer, promptInstall, subscribeInstallOffer } from "./install-prompt.ts";

/**
 * The floating "Install App" button (SPEC §2), bottom right; on phones it sits above the
 * signed-in area's bottom bar. Only while the browser offers installation.
 */
export function InstallAppButton() {
  const offer = useSyncExternalStore(subscribeInstallOffer, installOffer, () => null);
  if (offer === null) return null;
  return (
    <button
      type="button"
      onClick={() => {
        promptInstall().catch((error: unknown) => console.warn("Install prompt failed", error));
      }}
      className="fixed right-4 bottom-20 z-50 inline-flex h-11 items-center gap-2 rounded-full bg-brand-600 px-5 text-sm font-semibold text-white shadow-lg shadow-brand-900/30 transition-colors hover:bg-brand-700 md:right-6 md:bottom-6"
    >
      <svg
        viewBox="0 0 24 24"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M12 3v12m0 0l-4.5-4.5M12 15l4.5-4.5M4 17v2a2 2 0 002 2h12a2 2 0 002-2v-2" />
      </svg>
      Install App
    </button>
  );
}

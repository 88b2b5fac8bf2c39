import { useState } from "react";
import { app_name } from "../brand.ts";
import { runningStandalone, type SafariPlatform, safariPlatform } from "./safari-platform.ts";

/** Remembered per browser: once dismissed with "Got it!", the hint stays away. */
export const install_hint_dismissed_key = "install_hint_dismissed";

/** SPEC §2, verbatim steps: iOS Share → Add to Home Screen → Add; macOS File → Add to Dock. */
export const installSteps: Record<SafariPlatform, readonly string[]> = {
  ios: ["Tap Share", "Tap Add to Home Screen", "Tap Add"],
  macos: ["Choose File in the menu bar", "Choose Add to Dock"],
};

function hintDismissed(): boolean {
  try {
    return window.localStorage.getItem(install_hint_dismissed_key) === "1";
  } catch {
    return false;
  }
}

function rememberDismissal(): void {
  try {
    window.localStorage.setItem(install_hint_dismissed_key, "1");
  } catch {
    // Storage blocked: the hint goes for this visit only.
  }
}

function initialPlatform(): SafariPlatform | null {
  if (hintDismissed() || runningStandalone()) return null;
  return safariPlatform(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}

/** The home page's install hint for Safari users (SPEC §2), until "Got it!". */
export function SafariInstallHint() {
  const [platform, setPlatform] = useState(initialPlatform);
  if (platform === null) return null;
  const steps = installSteps[platform];
  return (
    <section
      aria-labelledby="install-hint-title"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-4 shadow-2xl shadow-navy-950/25 sm:right-6 sm:bottom-6 sm:left-auto sm:mx-0 sm:w-96 dark:border-navy-700 dark:bg-navy-900"
    >
      <div className="flex gap-3">
        <img src="/icons/icon-192.png" alt="" className="size-12 shrink-0 rounded-xl" />
        <div className="min-w-0">
          <h2 id="install-hint-title" className="font-semibold text-slate-900 dark:text-white">
            Install {app_name}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">
            {platform === "ios"
              ? "Add the app to your Home Screen for quick access."
              : "Add the app to your Dock for quick access."}
          </p>
        </div>
      </div>
      <ol className="mt-3 flex flex-col gap-1.5 rounded-xl bg-slate-50 p-3 text-sm text-slate-700 dark:bg-navy-800 dark:text-slate-200">
        {steps.map((step, index) => (
          <li key={step} className="flex items-center gap-2">
            <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-brand-600 text-[11px] font-bold text-white">
              {index + 1}
            </span>
            {step}
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          rememberDismissal();
          setPlatform(null);
        }}
        className="mt-3 h-10 w-full rounded-lg bg-brand-600 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Got it!
      </button>
    </section>
  );
}

/**
 * The browser's offer to install the app (SPEC §2: "A floating Install App button appears
 * when the browser offers installation"). Chromium-based browsers fire beforeinstallprompt
 * when the app is installable; the event is kept so the button can show the browser's own
 * dialog later. Listening starts at start-up (main.tsx), because the event can fire before
 * React has drawn anything.
 */

/** Not in TypeScript's DOM library: Chromium's event, as far as this app uses it. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform?: string }>;
}

let offer: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
let listening = false;

function publish(next: BeforeInstallPromptEvent | null) {
  offer = next;
  for (const listener of listeners) listener();
}

function onBeforeInstallPrompt(event: Event) {
  // Keep the browser's own mini-infobar away: the app shows its button instead.
  event.preventDefault();
  publish(event as BeforeInstallPromptEvent);
}

function onInstalled() {
  publish(null);
}

/** Starts listening (once); called from main.tsx and by the first subscriber. */
export function captureInstallPrompt(): void {
  if (listening || typeof window === "undefined") return;
  listening = true;
  window.addEventListener("beforeinstallprompt", onBeforeInstallPrompt);
  window.addEventListener("appinstalled", onInstalled);
}

export function subscribeInstallOffer(listener: () => void): () => void {
  captureInstallPrompt();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function installOffer(): BeforeInstallPromptEvent | null {
  return offer;
}

/**
 * Shows the browser's install dialog. An offer can be used once: whatever the trader
 * answers, the button goes; the browser fires beforeinstallprompt again if it still can.
 */
export async function promptInstall(): Promise<"accepted" | "dismissed" | "unavailable"> {
  const current = offer;
  if (current === null) return "unavailable";
  publish(null);
  await current.prompt();
  const choice = await current.userChoice;
  return choice.outcome;
}

/** For tests: forget the offer and stop listening. */
export function resetInstallPrompt(): void {
  if (listening) {
    window.removeEventListener("beforeinstallprompt", onBeforeInstallPrompt);
    window.removeEventListener("appinstalled", onInstalled);
  }
  listening = false;
  offer = null;
  listeners.clear();
}

/**
 * Registers /sw.js in production builds and tells the app when a new release is waiting
 * (the update prompt). The worker takes over only when the trader says so; the page then
 * reloads once, on the new code.
 */

/** A tab left open for days still learns about a release. */
export const sw_update_check_ms = 60 * 60_000;
export const service_worker_path = "/sw.js";

let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();
let reloadOnTakeover = false;

function publish(next: ServiceWorker | null) {
  waiting = next;
  for (const listener of listeners) listener();
}

export function subscribeUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The installed new worker waiting to take over, or null. */
export function waitingWorker(): ServiceWorker | null {
  return waiting;
}

/** Watches a registration for a new worker that finishes installing while a page is controlled. */
export function watchForUpdates(
  registration: ServiceWorkerRegistration,
  container: ServiceWorkerContainer,
) {
  // Without a controller this is the first install: nothing old to replace, nothing to ask.
  if (registration.waiting && container.controller) publish(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && container.controller) publish(installing);
    });
  });
  container.addEventListener("controllerchange", () => {
    // Only the trader's "Reload" reloads; the first install's takeover (clients.claim) does not.
    if (reloadOnTakeover) {
      reloadOnTakeover = false;
      window.location.reload();
    }
  });
}

/** The trader accepted the update: the waiting worker activates, then the page reloads. */
export function applyUpdate(): void {
  if (waiting === null) return;
  reloadOnTakeover = true;
  waiting.postMessage({ type: "SKIP_WAITING" });
  publish(null);
}

export function dismissUpdate(): void {
  publish(null);
}

export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  const container = navigator.serviceWorker;
  try {
    const registration = await container.register(service_worker_path, {
      scope: "/",
      // The worker script itself is always fetched fresh, whatever its HTTP caching says.
      updateViaCache: "none",
    });
    watchForUpdates(registration, container);
    setInterval(() => {
      registration.update().catch(() => undefined);
    }, sw_update_check_ms);
    return registration;
  } catch (error) {
    // No worker (private mode, a blocked script): the app works, just not offline.
    console.warn("Service worker registration failed", error);
    return null;
  }
}

/** For tests. */
export function resetServiceWorkerState(): void {
  waiting = null;
  reloadOnTakeover = false;
  listeners.clear();
}

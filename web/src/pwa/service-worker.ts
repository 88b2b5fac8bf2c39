/**
 * The service worker served at /sw.js (SPEC §1 "install the product as an app", §4 "Push").
 *
 * Built by service-worker-plugin.ts into one classic script: this file must import nothing
 * at run time (type imports only), because a classic worker script cannot load modules.
 * The build defines __SW_BUILD__ (cache version and the app-shell file list); the tests
 * import the functions below and drive installServiceWorker with a fake worker scope.
 *
 * Caching rules, and why:
 * - App shell (index.html, the hashed bundles, icons): precached at install into a cache
 *   named after the build, so a deploy never mixes files of two releases; the caches of
 *   older builds are deleted when the new worker activates.
 * - Page navigations: network first, the cached shell when offline (the app then shows
 *   its own "could not be loaded" states for the data it cannot reach).
 * - /api: network first, always. A reply is kept only when the request carried no
 *   credentials and the reply allows it; a signed-in trader's balances, history or
 *   documents never reach a cache another person on the same computer could read, and
 *   money data is never shown stale as if it were live.
 * - The new worker waits until the trader accepts the update prompt (message SKIP_WAITING),
 *   so a page is never switched to new code in the middle of a trade.
 */

export const cache_prefix = "tp-";
/** Public API replies kept for offline use; the oldest go first beyond this. */
export const runtime_entries_max = 60;
/** Where a notification without its own link takes the trader (SPEC §2). */
export const notification_default_path = "/user/notifications";
export const notification_default_title = "New Message";
export const notification_icon_path = "/icons/icon-192.png";
/** The page that stands in for every route when offline (the SPA shell). */
export const shell_path = "/index.html";

export interface ServiceWorkerBuild {
  /** Changes whenever any precached file changes. */
  version: string;
  /** Same-origin paths to precache, shell_path among them. */
  precache: string[];
}

export function cacheNames(version: string) {
  return { shell: `${cache_prefix}shell-${version}`, runtime: `${cache_prefix}runtime-${version}` };
}

/** Caches of older builds of this app; other caches on the origin are not ours to delete. */
export function staleCacheNames(existing: readonly string[], version: string): string[] {
  const current = Object.values(cacheNames(version));
  return existing.filter((name) => name.startsWith(cache_prefix) && !current.includes(name));
}

export type RequestKind = "ignore" | "navigation" | "api" | "hashed-asset" | "static";

/** How a request is answered; "ignore" leaves it to the browser untouched. */
export function classifyRequest(
  request: Pick<Request, "method" | "url" | "mode">,
  origin: string,
): RequestKind {
  if (request.method !== "GET") return "ignore";
  const url = new URL(request.url);
  if (url.origin !== origin) return "ignore";
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return "api";
  if (request.mode === "navigate") return "navigation";
  if (url.pathname === "/sw.js") return "ignore";
  // Vite puts a content hash in every file name under /assets: a name never changes meaning.
  if (url.pathname.startsWith("/assets/")) return "hashed-asset";
  return "static";
}

/** True only for a request without credentials whose 200 reply permits storing. */
export function mayCacheApiReply(
  request: Pick<Request, "headers">,
  response: Pick<Response, "status" | "type" | "headers">,
): boolean {
  if (request.headers.has("authorization") || request.headers.has("cookie")) return false;
  if (response.status !== 200 || (response.type !== "basic" && response.type !== "default")) {
    return false;
  }
  if (/\b(no-store|private)\b/i.test(response.headers.get("cache-control") ?? "")) return false;
  if (response.headers.has("set-cookie")) return false;
  // A reply that varies by credentials could belong to someone else's request.
  return !/authorization|cookie|\*/i.test(response.headers.get("vary") ?? "");
}

/** domain/src/engagement.ts pushPayloadSchema; read defensively, a worker must not throw. */
export interface PushPayload {
  id?: unknown;
  title?: unknown;
  body?: unknown;
  message?: unknown;
  url?: unknown;
  data?: { url?: unknown } | null;
}

/** The notification a push message shows (SPEC §4: the title or "New Message", the body). */
export function notificationFromPush(
  payload: PushPayload | null,
  origin: string,
): { title: string; body: string; url: string; tag: string | undefined } {
  const title =
    typeof payload?.title === "string" && payload.title.trim().length > 0
      ? payload.title
      : notification_default_title;
  const body =
    typeof payload?.body === "string"
      ? payload.body
      : typeof payload?.message === "string"
        ? payload.message
        : "";
  const rawUrl = typeof payload?.url === "string" ? payload.url : payload?.data?.url;
  // Delivery is at least once: the same notification arriving twice replaces itself.
  const tag = typeof payload?.id === "number" ? `notification-${payload.id}` : undefined;
  return { title, body, url: notificationTarget(rawUrl, origin), tag };
}

/** A same-origin address to open; anything else (or nothing) opens the notifications page. */
export function notificationTarget(rawUrl: unknown, origin: string): string {
  if (typeof rawUrl === "string" && rawUrl.length > 0) {
    try {
      const url = new URL(rawUrl, origin);
      if (url.origin === origin) return url.href;
    } catch {
      // Not a URL: fall through to the default page.
    }
  }
  return new URL(notification_default_path, origin).href;
}

export function parsePushData(
  data: { json(): unknown; text(): string } | null,
): PushPayload | null {
  if (data === null) return null;
  try {
    const parsed = data.json();
    return typeof parsed === "object" && parsed !== null ? (parsed as PushPayload) : null;
  } catch {
    // A plain-text push: its text is the body.
    return { body: data.text() };
  }
}

// The parts of the worker scope this worker uses. (The DOM and WebWorker libraries cannot
// both be loaded into one TypeScript program, so they are spelt out here.)
interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationClickEventLike extends ExtendableEventLike {
  notification: { close(): void; data?: unknown };
}
interface MessageEventLike {
  data: unknown;
}
export interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
export interface ServiceWorkerScope {
  location: { origin: string };
  caches: CacheStorage;
  fetch(request: Request | string, init?: RequestInit): Promise<Response>;
  registration: {
    showNotification(title: string, options?: NotificationOptions): Promise<void>;
  };
  clients: {
    claim(): Promise<void>;
    matchAll(options: {
      type: "window";
      includeUncontrolled: boolean;
    }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(
    type: "install" | "activate",
    listener: (event: ExtendableEventLike) => void,
  ): void;
  addEventListener(type: "fetch", listener: (event: FetchEventLike) => void): void;
  addEventListener(type: "push", listener: (event: PushEventLike) => void): void;
  addEventListener(
    type: "notificationclick",
    listener: (event: NotificationClickEventLike) => void,
  ): void;
  addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
}

async function trimCache(cache: Cache, entries_max: number): Promise<void> {
  const keys = await cache.keys();
  // Cache keys keep insertion order: the first ones are the oldest.
  for (const key of keys.slice(0, Math.max(0, keys.length - entries_max))) {
    await cache.delete(key);
  }
}

export function installServiceWorker(scope: ServiceWorkerScope, build: ServiceWorkerBuild): void {
  const names = cacheNames(build.version);
  const origin = scope.location.origin;

  scope.addEventListener("install", (event) => {
    event.waitUntil(
      (async () => {
        const cache = await scope.caches.open(names.shell);
        // cache: "reload" skips the HTTP cache, so the shell is this release's, not a stale copy.
        await cache.addAll(
          build.precache.map(
            (path) => new Request(new URL(path, origin).href, { cache: "reload" }),
          ),
        );
      })(),
    );
  });

  scope.addEventListener("activate", (event) => {
    event.waitUntil(
      (async () => {
        const stale = staleCacheNames(await scope.caches.keys(), build.version);
        await Promise.all(stale.map((name) => scope.caches.delete(name)));
        await scope.clients.claim();
      })(),
    );
  });

  scope.addEventListener("message", (event) => {
    const data = event.data as { type?: unknown } | null;
    if (data?.type === "SKIP_WAITING") void scope.skipWaiting();
  });

  async function fromCaches(request: Request | string): Promise<Response | undefined> {
    return (
      (await (await scope.caches.open(names.shell)).match(request)) ??
      (await (await scope.caches.open(names.runtime)).match(request))
    );
  }

  async function networkFirstApi(request: Request): Promise<Response> {
    const anonymous = !request.headers.has("authorization");
    try {
      const response = await scope.fetch(request);
      if (mayCacheApiReply(request, response)) {
        const cache = await scope.caches.open(names.runtime);
        await cache.put(request, response.clone());
        await trimCache(cache, runtime_entries_max);
      }
      return response;
    } catch (error) {
      // Offline: only a request that could have been cached may be answered from the cache.
      const cached = anonymous
        ? await (await scope.caches.open(names.runtime)).match(request)
        : undefined;
      if (cached) return cached;
      throw error;
    }
  }

  async function navigation(request: Request): Promise<Response> {
    try {
      return await scope.fetch(request);
    } catch (error) {
      const shell = await fromCaches(new URL(shell_path, origin).href);
      if (shell) return shell;
      throw error;
    }
  }

  async function cacheFirst(request: Request): Promise<Response> {
    const cached = await fromCaches(request);
    if (cached) return cached;
    const response = await scope.fetch(request);
    if (response.status === 200) {
      await (await scope.caches.open(names.runtime)).put(request, response.clone());
    }
    return response;
  }

  async function networkFirstStatic(request: Request): Promise<Response> {
    try {
      return await scope.fetch(request);
    } catch (error) {
      const cached = await fromCaches(request);
      if (cached) return cached;
      throw error;
    }
  }

  scope.addEventListener("fetch", (event) => {
    const request = event.request;
    switch (classifyRequest(request, origin)) {
      case "ignore":
        return;
      case "api":
        event.respondWith(networkFirstApi(request));
        return;
      case "navigation":
        event.respondWith(navigation(request));
        return;
      case "hashed-asset":
        event.respondWith(cacheFirst(request));
        return;
      case "static":
        event.respondWith(networkFirstStatic(request));
        return;
    }
  });

  scope.addEventListener("push", (event) => {
    const notification = notificationFromPush(parsePushData(event.data), origin);
    event.waitUntil(
      scope.registration.showNotification(notification.title, {
        body: notification.body,
        icon: notification_icon_path,
        badge: notification_icon_path,
        data: { url: notification.url },
        tag: notification.tag,
      }),
    );
  });

  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: unknown } | undefined;
    const target = notificationTarget(data?.url, origin);
    event.waitUntil(
      (async () => {
        const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
        const open = windows.find((client) => new URL(client.url).origin === origin);
        if (open) {
          await open.focus();
          if (open.url !== target) {
            // navigate() fails for a window this worker does not control; it is focused anyway.
            await open.navigate(target).catch(() => undefined);
          }
          return;
        }
        await scope.clients.openWindow(target);
      })(),
    );
  });
}

declare const __SW_BUILD__: ServiceWorkerBuild | undefined;

// In the built /sw.js the build is defined and `self` is the worker scope; in tests neither.
if (typeof __SW_BUILD__ !== "undefined") {
  installServiceWorker(self as unknown as ServiceWorkerScope, __SW_BUILD__);
}

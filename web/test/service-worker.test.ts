import { describe, expect, it, vi } from "vitest";
import {
  cacheNames,
  classifyRequest,
  installServiceWorker,
  mayCacheApiReply,
  notificationFromPush,
  type PushPayload,
  runtime_entries_max,
  type ServiceWorkerScope,
  staleCacheNames,
  type WindowClientLike,
} from "../src/pwa/service-worker.ts";

const origin = "https://trade.example";

/** A Request-like object; Node's Request refuses mode "navigate", so navigations are faked. */
function request(
  path: string,
  { method = "GET", mode = "cors", headers = {} as Record<string, string> } = {},
): Request {
  const url = new URL(path, origin).href;
  return { url, method, mode, headers: new Headers(headers) } as unknown as Request;
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json", ...headers },
  });

/** Cache Storage in memory, keyed by absolute URL (enough for this worker's use). */
class MemoryCache {
  readonly entries = new Map<string, Response>();
  constructor(private readonly fetcher: (request: Request) => Promise<Response>) {}
  private key(input: Request | string) {
    return new URL(typeof input === "string" ? input : input.url, origin).href;
  }
  async match(input: Request | string) {
    return this.entries.get(this.key(input))?.clone();
  }
  async put(input: Request | string, response: Response) {
    this.entries.delete(this.key(input));
    this.entries.set(this.key(input), response);
  }
  async addAll(inputs: Request[]) {
    for (const input of inputs) {
      const response = await this.fetcher(input);
      if (!response.ok) throw new TypeError(`addAll: ${input.url} answered ${response.status}`);
      await this.put(input, response);
    }
  }
  async keys() {
    return [...this.entries.keys()].map((url) => ({ url }) as Request);
  }
  async delete(input: Request | string) {
    return this.entries.delete(this.key(input));
  }
}

function fakeWorker({ version = "v2", existingCaches = [] as string[] } = {}) {
  let online = true;
  const network = vi.fn(async (input: Request | string) => {
    if (!online) throw new TypeError("Failed to fetch");
    const url = new URL(typeof input === "string" ? input : input.url, origin);
    if (url.pathname === "/api/v1/private") return json({ balance: 1234.5 });
    if (url.pathname.startsWith("/api/")) return json({ path: url.pathname });
    return new Response(`file ${url.pathname}`, { status: 200 });
  });
  const stores = new Map<string, MemoryCache>();
  for (const name of existingCaches) stores.set(name, new MemoryCache(network));
  const caches = {
    open: async (name: string) => {
      if (!stores.has(name)) stores.set(name, new MemoryCache(network));
      return stores.get(name) as MemoryCache;
    },
    keys: async () => [...stores.keys()],
    delete: async (name: string) => stores.delete(name),
  };
  const listeners = new Map<string, (event: unknown) => void>();
  const windows: WindowClientLike[] = [];
  const scope = {
    location: { origin },
    caches: caches as unknown as CacheStorage,
    fetch: network,
    registration: { showNotification: vi.fn(async () => {}) },
    clients: {
      claim: vi.fn(async () => {}),
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async () => null),
    },
    skipWaiting: vi.fn(async () => {}),
    addEventListener: (type: string, listener: (event: unknown) => void) =>
      listeners.set(type, listener),
  };
  installServiceWorker(scope as unknown as ServiceWorkerScope, {
    version,
    precache: ["/index.html", "/assets/index-abc123.js"],
  });

  /** Dispatches an extendable event and waits for what it asked to wait for. */
  async function dispatch(type: string, fields: Record<string, unknown> = {}) {
    const pending: Promise<unknown>[] = [];
    let responded: Promise<Response> | null = null;
    listeners.get(type)?.({
      ...fields,
      waitUntil: (promise: Promise<unknown>) => pending.push(promise),
      respondWith: (promise: Promise<Response>) => {
        responded = promise;
      },
    });
    await Promise.all(pending);
    return responded as Promise<Response> | null;
  }

  return {
    scope,
    stores,
    network,
    windows,
    dispatch,
    setOnline: (value: boolean) => {
      online = value;
    },
    fetchEvent: (req: Request) => dispatch("fetch", { request: req }),
  };
}

describe("service worker rules", () => {
  it("names caches by build, and deletes only older caches of this app", () => {
    expect(cacheNames("v1").shell).not.toBe(cacheNames("v2").shell);
    const existing = [
      ...Object.values(cacheNames("v1")),
      ...Object.values(cacheNames("v2")),
      "someone-elses-cache",
    ];
    expect(staleCacheNames(existing, "v2")).toEqual(Object.values(cacheNames("v1")));
  });

  it("classifies requests", () => {
    expect(classifyRequest(request("/api/v1/user"), origin)).toBe("api");
    expect(classifyRequest(request("/api/v1/user", { mode: "navigate" }), origin)).toBe("api");
    expect(classifyRequest(request("/user/dashboard", { mode: "navigate" }), origin)).toBe(
      "navigation",
    );
    expect(classifyRequest(request("/assets/index-abc.js"), origin)).toBe("hashed-asset");
    expect(classifyRequest(request("/manifest.webmanifest"), origin)).toBe("static");
    expect(classifyRequest(request("/sw.js"), origin)).toBe("ignore");
    expect(classifyRequest(request("/api/v1/place-trade", { method: "POST" }), origin)).toBe(
      "ignore",
    );
    expect(classifyRequest(request("https://elsewhere.example/x.js"), origin)).toBe("ignore");
  });

  it("never allows an authenticated or private API reply into a cache", () => {
    const anonymous = request("/api/v1/site-content");
    const signedIn = request("/api/v1/user", { headers: { Authorization: "Bearer t" } });
    expect(mayCacheApiReply(anonymous, json({}))).toBe(true);
    expect(mayCacheApiReply(signedIn, json({}))).toBe(false);
    expect(mayCacheApiReply(anonymous, json({}, { "cache-control": "no-store" }))).toBe(false);
    expect(mayCacheApiReply(anonymous, json({}, { "cache-control": "private, max-age=60" }))).toBe(
      false,
    );
    expect(mayCacheApiReply(anonymous, json({}, { vary: "Authorization" }))).toBe(false);
    expect(mayCacheApiReply(anonymous, new Response("{}", { status: 503 }))).toBe(false);
  });

  it("builds notifications from push payloads, with the spec's fallback title", () => {
    // The server's payload (domain/src/engagement.ts): id, title, message, created_at, url.
    expect(
      notificationFromPush(
        {
          id: 12,
          title: "Deposit confirmed",
          message: "$50",
          url: "/user/notifications",
        } as PushPayload,
        origin,
      ),
    ).toEqual({
      title: "Deposit confirmed",
      body: "$50",
      url: `${origin}/user/notifications`,
      tag: "notification-12",
    });
    expect(
      notificationFromPush({ title: "", body: "Hello", url: "/user/fund-wallet" }, origin),
    ).toEqual({
      title: "New Message",
      body: "Hello",
      url: `${origin}/user/fund-wallet`,
      tag: undefined,
    });
    // A push can never send the trader to another site.
    expect(notificationFromPush({ url: "https://phish.example/login" }, origin).url).toBe(
      `${origin}/user/notifications`,
    );
    expect(notificationFromPush(null, origin).title).toBe("New Message");
  });
});

describe("service worker lifecycle", () => {
  it("precaches the shell and removes the previous build's caches on activation", async () => {
    const worker = fakeWorker({ existingCaches: Object.values(cacheNames("v1")) });
    await worker.dispatch("install");
    const shell = worker.stores.get(cacheNames("v2").shell);
    expect([...(shell?.entries.keys() ?? [])]).toEqual([
      `${origin}/index.html`,
      `${origin}/assets/index-abc123.js`,
    ]);
    // Installing must not take over on its own: the page asks (update prompt).
    expect(worker.scope.skipWaiting).not.toHaveBeenCalled();

    await worker.dispatch("activate");
    expect([...worker.stores.keys()].sort()).toEqual([cacheNames("v2").shell]);
    expect(worker.scope.clients.claim).toHaveBeenCalled();

    await worker.dispatch("message", { data: { type: "SKIP_WAITING" } });
    expect(worker.scope.skipWaiting).toHaveBeenCalledTimes(1);
  });

  it("serves the app shell for navigations when offline", async () => {
    const worker = fakeWorker();
    await worker.dispatch("install");
    worker.setOnline(false);
    const reply = await worker.fetchEvent(request("/user/crypto-news", { mode: "navigate" }));
    expect(await reply?.text()).toBe("file /index.html");
    const asset = await worker.fetchEvent(request("/assets/index-abc123.js"));
    expect(await asset?.text()).toBe("file /assets/index-abc123.js");
  });

  it("goes to the network first for the API and keeps only anonymous replies", async () => {
    const worker = fakeWorker();
    const runtime = () => worker.stores.get(cacheNames("v2").runtime);

    const signedIn = request("/api/v1/private", { headers: { Authorization: "Bearer secret" } });
    expect(await (await worker.fetchEvent(signedIn))?.json()).toEqual({ balance: 1234.5 });
    expect(runtime()?.entries.has(`${origin}/api/v1/private`) ?? false).toBe(false);

    const anonymous = request("/api/v1/site-content");
    await worker.fetchEvent(anonymous);
    await worker.fetchEvent(anonymous);
    // Network first: both asked the server, not the cache.
    expect(
      worker.network.mock.calls.filter(([input]) =>
        (input as Request).url.endsWith("/site-content"),
      ),
    ).toHaveLength(2);
    expect(runtime()?.entries.has(`${origin}/api/v1/site-content`)).toBe(true);

    worker.setOnline(false);
    expect(await (await worker.fetchEvent(anonymous))?.json()).toEqual({
      path: "/api/v1/site-content",
    });
    // An authenticated request is never answered from a cache, even one of the same URL.
    const signedInSameUrl = request("/api/v1/site-content", {
      headers: { Authorization: "Bearer secret" },
    });
    await expect(worker.fetchEvent(signedInSameUrl)).rejects.toThrow("Failed to fetch");
  });

  it("keeps at most runtime_entries_max API replies", async () => {
    const worker = fakeWorker();
    for (let index = 0; index <= runtime_entries_max; index += 1) {
      await worker.fetchEvent(request(`/api/v1/site-content/galleries/x${index}`));
    }
    const runtime = worker.stores.get(cacheNames("v2").runtime);
    expect(runtime?.entries.size).toBe(runtime_entries_max);
    // The oldest went first.
    expect(runtime?.entries.has(`${origin}/api/v1/site-content/galleries/x0`)).toBe(false);
  });

  it("shows a push as a notification and opens its page on click", async () => {
    const worker = fakeWorker();
    await worker.dispatch("push", {
      data: { json: () => ({ body: "Your deposit was confirmed" }), text: () => "" },
    });
    expect(worker.scope.registration.showNotification).toHaveBeenCalledWith(
      "New Message",
      expect.objectContaining({
        body: "Your deposit was confirmed",
        data: { url: `${origin}/user/notifications` },
      }),
    );

    // No window open: a new one at the notification's page.
    const close = vi.fn();
    await worker.dispatch("notificationclick", {
      notification: { close, data: { url: `${origin}/user/notifications` } },
    });
    expect(close).toHaveBeenCalled();
    expect(worker.scope.clients.openWindow).toHaveBeenCalledWith(`${origin}/user/notifications`);

    // A window open: focused and sent to the page, no new window.
    const focus = vi.fn(async () => {});
    const navigate = vi.fn(async () => {});
    worker.windows.push({ url: `${origin}/user/dashboard`, focus, navigate });
    await worker.dispatch("notificationclick", {
      notification: { close, data: { url: `${origin}/user/fund-wallet` } },
    });
    expect(focus).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith(`${origin}/user/fund-wallet`);
    expect(worker.scope.clients.openWindow).toHaveBeenCalledTimes(1);
  });
});

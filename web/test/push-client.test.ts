import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  applicationServerKeyBytes,
  push_token_refresh_ms,
  savedTokenKey,
  service_worker_ready_timeout_ms,
  setUpPush,
} from "../src/engagement/push-client.ts";

/**
 * The browser's push APIs, faked at the boundary: Notification (permission and its prompt),
 * navigator.serviceWorker.ready and the registration's PushManager. Our code is real.
 */
const serverKey =
  "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";
const otherKey =
  "BOtherKeyOtherKeyOtherKeyOtherKeyOtherKeyOtherKeyOtherKeyOtherKeyOtherKeyOtherKeyOtherKe";

class FakeSubscription {
  unsubscribed = false;
  constructor(
    readonly endpoint: string,
    readonly options: { applicationServerKey: ArrayBuffer | null },
  ) {}
  toJSON() {
    return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: "p", auth: "a" } };
  }
  async unsubscribe() {
    this.unsubscribed = true;
    return true;
  }
}

interface FakeBrowser {
  permission: NotificationPermission;
  /** What the prompt answers. */
  answer: NotificationPermission;
  prompts: number;
  subscription: FakeSubscription | null;
  subscribeCalls: PushSubscriptionOptionsInit[];
  ready: boolean;
}

let browser: FakeBrowser;
let endpoints = 0;
const saved: unknown[] = [];
const saveToken = vi.fn(async (token: unknown) => {
  saved.push(token);
});
const loadPublicKey = vi.fn(async () => serverKey);

function installBrowser(
  parts: { notification?: boolean; serviceWorker?: boolean; push?: boolean } = {},
) {
  const { notification = true, serviceWorker = true, push = true } = parts;
  if (notification) {
    const FakeNotification = class {} as unknown as typeof Notification;
    Object.defineProperty(FakeNotification, "permission", { get: () => browser.permission });
    Object.defineProperty(FakeNotification, "requestPermission", {
      value: async () => {
        browser.prompts += 1;
        browser.permission = browser.answer;
        return browser.answer;
      },
    });
    vi.stubGlobal("Notification", FakeNotification);
  }
  if (push) vi.stubGlobal("PushManager", class {});
  if (serviceWorker) {
    const pushManager = {
      getSubscription: async () => browser.subscription,
      subscribe: async (options: PushSubscriptionOptionsInit) => {
        browser.subscribeCalls.push(options);
        endpoints += 1;
        const key = options.applicationServerKey as Uint8Array;
        browser.subscription = new FakeSubscription(`https://push.example/send/${endpoints}`, {
          applicationServerKey: key.buffer.slice(0) as ArrayBuffer,
        });
        return browser.subscription;
      },
    };
    const ready = browser.ready
      ? Promise.resolve({ pushManager } as unknown as ServiceWorkerRegistration)
      : new Promise<ServiceWorkerRegistration>(() => {});
    Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { ready } });
  }
}

const run = (userId = 7) => setUpPush({ userId, loadPublicKey, saveToken });

describe("Web Push client (SPEC §4 'Push', §9 7-day refresh)", () => {
  beforeEach(() => {
    browser = {
      permission: "default",
      answer: "granted",
      prompts: 0,
      subscription: null,
      subscribeCalls: [],
      ready: true,
    };
    endpoints = 0;
    saved.length = 0;
    saveToken.mockClear();
    loadPublicKey.mockClear();
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, "serviceWorker");
  });

  it("skips silently where the browser cannot push", async () => {
    for (const missing of ["notification", "serviceWorker", "push"] as const) {
      installBrowser({ [missing]: false });
      expect(await run()).toBe("unsupported");
      vi.unstubAllGlobals();
      Reflect.deleteProperty(navigator, "serviceWorker");
    }
    expect(browser.prompts).toBe(0);
    expect(saveToken).not.toHaveBeenCalled();
    expect(console.warn).not.toHaveBeenCalled();
  });

  it("does not ask again once denied, and stops when the prompt is refused", async () => {
    browser.permission = "denied";
    installBrowser();
    expect(await run()).toBe("denied");
    expect(browser.prompts).toBe(0);

    browser.permission = "default";
    browser.answer = "denied";
    expect(await run()).toBe("denied");
    expect(browser.prompts).toBe(1);
    expect(browser.subscribeCalls).toHaveLength(0);
    expect(saveToken).not.toHaveBeenCalled();
    expect(console.warn).not.toHaveBeenCalled();
  });

  it("asks, subscribes with the server's VAPID key and saves the subscription; a second visit sends nothing", async () => {
    installBrowser();
    expect(await run()).toBe("subscribed");
    expect(browser.prompts).toBe(1);
    expect(browser.subscribeCalls).toHaveLength(1);
    expect(browser.subscribeCalls[0]!.userVisibleOnly).toBe(true);
    expect(browser.subscribeCalls[0]!.applicationServerKey).toEqual(
      applicationServerKeyBytes(serverKey),
    );
    expect(applicationServerKeyBytes(serverKey)).toHaveLength(65);
    expect(saved).toEqual([
      {
        endpoint: "https://push.example/send/1",
        expirationTime: null,
        keys: { p256dh: "p", auth: "a" },
      },
    ]);

    // Already granted: no prompt; the same subscription, saved a moment ago, is current.
    expect(await run()).toBe("current");
    expect(browser.prompts).toBe(1);
    expect(saveToken).toHaveBeenCalledTimes(1);
    expect(browser.subscribeCalls).toHaveLength(1);
  });

  it("replaces the token after 7 days, not before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T00:00:00Z"));
    browser.permission = "granted";
    installBrowser();
    expect(await run()).toBe("subscribed");
    const first = browser.subscription!;

    vi.setSystemTime(new Date("2026-03-01T00:00:00Z").getTime() + push_token_refresh_ms - 1);
    expect(await run()).toBe("current");
    expect(saveToken).toHaveBeenCalledTimes(1);

    vi.setSystemTime(new Date("2026-03-01T00:00:00Z").getTime() + push_token_refresh_ms);
    expect(await run()).toBe("refreshed");
    expect(first.unsubscribed).toBe(true);
    expect(browser.subscription!.endpoint).toBe("https://push.example/send/2");
    expect(saveToken).toHaveBeenCalledTimes(2);
    expect(saved[1]).toMatchObject({ endpoint: "https://push.example/send/2" });

    // The clock starts again from the new save.
    vi.setSystemTime(new Date("2026-03-01T00:00:00Z").getTime() + push_token_refresh_ms + 1_000);
    expect(await run()).toBe("current");
  });

  it("saves a subscription made for another trader (or never saved) without making a new one", async () => {
    browser.permission = "granted";
    installBrowser();
    expect(await run(7)).toBe("subscribed");
    expect(await run(8)).toBe("subscribed");
    expect(browser.subscribeCalls).toHaveLength(1);
    expect(saved).toHaveLength(2);
    expect(window.localStorage.getItem(savedTokenKey(8))).toContain("push.example/send/1");
  });

  it("makes a new subscription when the server's key changed", async () => {
    browser.permission = "granted";
    installBrowser();
    expect(await run()).toBe("subscribed");
    loadPublicKey.mockResolvedValueOnce(otherKey);
    expect(await run()).toBe("refreshed");
    expect(browser.subscribeCalls[1]!.applicationServerKey).toEqual(
      applicationServerKeyBytes(otherKey),
    );
  });

  it("only logs a failed save, and tries again on the next visit", async () => {
    browser.permission = "granted";
    installBrowser();
    saveToken.mockRejectedValueOnce(new Error("HTTP 500"));
    expect(await run()).toBe("failed");
    expect(console.warn).toHaveBeenCalledWith(
      "Push: the token could not be saved",
      expect.any(Error),
    );
    expect(window.localStorage.getItem(savedTokenKey(7))).toBeNull();

    expect(await run()).toBe("subscribed");
    expect(browser.subscribeCalls).toHaveLength(1);
    expect(saveToken).toHaveBeenCalledTimes(2);
  });

  it("gives up after 10 s when no service worker becomes ready, without asking", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    browser.ready = false;
    installBrowser();
    let outcome: string | null = null;
    void run().then((value) => {
      outcome = value;
    });
    await vi.advanceTimersByTimeAsync(service_worker_ready_timeout_ms - 1);
    expect(outcome).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe("failed");
    expect(browser.prompts).toBe(0);
    expect(loadPublicKey).not.toHaveBeenCalled();
    expect(saveToken).not.toHaveBeenCalled();
  });
});

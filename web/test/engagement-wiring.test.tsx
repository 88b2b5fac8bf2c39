import { screen, waitFor } from "@testing-library/react";
import type { UserView } from "@tp/domain/api";
import { engagementMessages as m } from "@tp/domain/engagement";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetPushSetupRuns } from "../src/engagement/use-push-setup.ts";
import { failure, storeSession, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const staff: UserView = { ...trader, id: 1, email: "staff@example.com", role: "admin" };
const emptyList = success({ data: [], pagination: { last_page: 1, current_page: 1, total: 0 } });

function renderAsStaff(routes: Parameters<typeof renderApp>[1]) {
  storeSession("staff-token", staff);
  return renderApp("/admin/notifications", {
    "GET /user": success({ user: staff }),
    "GET /admin/deposits": emptyList,
    "GET /admin/withdrawals": emptyList,
    "GET /admin/verifications": emptyList,
    ...routes,
  });
}

describe("back-office notification broadcast (PRODUCT.md D7)", () => {
  it("checks the form with the contract's messages, then posts to all traders or to one", async () => {
    const view = renderAsStaff({
      "POST /admin/notifications": success({ recipients: 2 }, m.broadcastSentToMany(2)),
    });
    await view.user.click(await screen.findByRole("button", { name: "Send to all traders" }));
    expect(await screen.findByText(m.titleRequired)).toBeInTheDocument();
    expect(screen.getByText(m.messageRequired)).toBeInTheDocument();
    expect(view.callsTo("POST /admin/notifications")).toHaveLength(0);

    await fill(view.user, screen.getByLabelText("Title"), "Scheduled maintenance");
    await fill(view.user, screen.getByLabelText("Message"), "Trading pauses on Sunday.");
    await view.user.click(screen.getByRole("button", { name: "Send to all traders" }));
    expect(await findToast("Notification sent to 2 traders")).toBeInTheDocument();
    const [first] = view.callsTo("POST /admin/notifications");
    expect(first?.body).toEqual({
      title: "Scheduled maintenance",
      message: "Trading pauses on Sunday.",
    });
    expect(first?.idempotencyKey).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText("Title")).toHaveValue(""));

    await view.user.click(screen.getByLabelText("One trader"));
    await view.user.click(screen.getByRole("button", { name: "Send to this trader" }));
    expect(await screen.findByText(m.userIdInvalid)).toBeInTheDocument();
    await fill(view.user, screen.getByLabelText("User id"), "7");
    await fill(view.user, screen.getByLabelText("Title"), "Hello");
    await fill(view.user, screen.getByLabelText("Message"), "Your account manager will call.");
    await view.user.click(screen.getByRole("button", { name: "Send to this trader" }));
    await waitFor(() => expect(view.callsTo("POST /admin/notifications")).toHaveLength(2));
    expect(view.callsTo("POST /admin/notifications")[1]?.body).toEqual({
      title: "Hello",
      message: "Your account manager will call.",
      user_id: 7,
    });
  });

  it("shows the server's refusal", async () => {
    const view = renderAsStaff({
      "POST /admin/notifications": failure(404, m.traderNotFound),
    });
    await view.user.click(await screen.findByLabelText("One trader"));
    await fill(view.user, screen.getByLabelText("User id"), "999");
    await fill(view.user, screen.getByLabelText("Title"), "Hello");
    await fill(view.user, screen.getByLabelText("Message"), "Hi");
    await view.user.click(screen.getByRole("button", { name: "Send to this trader" }));
    expect(await findToast(m.traderNotFound)).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toHaveValue("Hello");
  });
});

describe("Web Push from the signed-in shell", () => {
  // One run per page load is remembered in the module; jsdom is shared between test files.
  beforeEach(() => forgetPushSetupRuns());
  afterEach(() => {
    forgetPushSetupRuns();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, "serviceWorker");
  });

  it("reads the server's key and saves the browser's subscription once, when granted", async () => {
    const key =
      "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";
    const subscription = {
      endpoint: "https://push.example/send/abc",
      options: { applicationServerKey: null },
      toJSON: () => ({
        endpoint: "https://push.example/send/abc",
        keys: { p256dh: "p", auth: "a" },
      }),
      unsubscribe: async () => true,
    };
    const subscribe = vi.fn(async () => subscription);
    vi.stubGlobal(
      "Notification",
      Object.assign(class {}, { permission: "granted", requestPermission: vi.fn() }),
    );
    vi.stubGlobal("PushManager", class {});
    Object.defineProperty(navigator, "serviceWorker", {
      configurable: true,
      value: {
        ready: Promise.resolve({ pushManager: { getSubscription: async () => null, subscribe } }),
      },
    });
    storeSession();
    const view = renderApp("/user/notifications", {
      "GET /notifications/push-key": success({ public_key: key }),
      "POST /notifications/save-token": success({ endpoint: subscription.endpoint }),
    });
    await waitFor(() => expect(view.callsTo("POST /notifications/save-token")).toHaveLength(1));
    expect(view.callsTo("POST /notifications/save-token")[0]?.body).toEqual({
      token: { endpoint: "https://push.example/send/abc", keys: { p256dh: "p", auth: "a" } },
    });
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(view.callsTo("GET /notifications/push-key")).toHaveLength(1);
    // Granted already: no button offering to turn it on.
    expect(
      screen.queryByRole("button", { name: "Turn on push notifications" }),
    ).not.toBeInTheDocument();
  });
});

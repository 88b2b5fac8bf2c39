import { screen, waitFor, within } from "@testing-library/react";
import { engagementMessages as m, type NotificationView } from "@tp/domain/engagement";
import { describe, expect, it } from "vitest";
import { markReadFailedMessage } from "../src/routes/notifications/notifications-page.tsx";
import { type ApiCall, failure, storeSession, success } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

function notification(overrides: Partial<NotificationView> = {}): NotificationView {
  return {
    id: 1,
    kind: "deposit_confirmed",
    title: "Deposit confirmed",
    message: "Your deposit of $250.00 by Bitcoin was confirmed.",
    created_at: "2026-03-04T10:00:00.000Z",
    is_read: false,
    ...overrides,
  };
}

function listReply(items: NotificationView[]) {
  return success({
    data: items,
    unread_count: items.filter((item) => !item.is_read).length,
    pagination: { last_page: 1, current_page: 1, total: items.length },
  });
}

/** Both bells render in jsdom (CSS hides one of them by viewport in a browser). */
function bells(name: string) {
  return screen.queryAllByRole("link", { name });
}

function renderNotifications(
  routes: Parameters<typeof renderApp>[1],
  path = "/user/notifications",
) {
  storeSession();
  return renderApp(path, routes);
}

describe("notifications page and bell badge (SPEC §2, §4 'Notifications')", () => {
  it("lists notifications newest first with Mark as read; marking one updates the list and both badges", async () => {
    const stored = [
      notification({ id: 3, title: "Message from support", kind: "broadcast" }),
      notification({ id: 2, title: "Withdrawal paid", kind: "withdrawal_paid" }),
      notification({ id: 1, title: "Identity approved", is_read: true }),
    ];
    const view = renderNotifications({
      "GET /notifications": listReply(stored),
      "POST /notifications/3/read": success(
        { notification: { ...stored[0], is_read: true }, unread_count: 1 },
        m.notificationMarkedRead,
      ),
    });

    const list = await screen.findByRole("list", { name: "Notifications" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => within(row).getByRole("heading").textContent)).toEqual([
      "Message from support (unread)",
      "Withdrawal paid (unread)",
      "Identity approved",
    ]);
    expect(within(rows[2]!).queryByRole("button", { name: "Mark as read" })).toBeNull();
    await waitFor(() => expect(bells("Notifications, 2 unread")).toHaveLength(2));
    for (const bell of bells("Notifications, 2 unread")) expect(bell).toHaveTextContent("2");

    await view.user.click(within(rows[0]!).getByRole("button", { name: "Mark as read" }));
    await waitFor(() =>
      expect(within(rows[0]!).queryByRole("button", { name: "Mark as read" })).toBeNull(),
    );
    expect(view.callsTo("POST /notifications/3/read")).toHaveLength(1);
    expect(within(rows[1]!).getByRole("button", { name: "Mark as read" })).toBeInTheDocument();
    expect(bells("Notifications, 1 unread")).toHaveLength(2);
    expect(screen.getByText("1 unread")).toBeInTheDocument();
    // The list was updated locally, not read again.
    expect(view.callsTo("GET /notifications")).toHaveLength(1);
  });

  it("hides the badge at 0 and moves it live from stream messages", async () => {
    const view = renderNotifications({ "GET /notifications": listReply([]) }, "/user/dashboard");
    await waitFor(() => expect(view.callsTo("GET /notifications")).toHaveLength(1));
    expect(bells("Notifications")).toHaveLength(2);
    for (const bell of bells("Notifications")) expect(bell).toHaveTextContent("");

    await waitFor(() => expect(view.stream.current().sent[0]).toMatchObject({ type: "auth" }));
    view.stream.current().push({
      type: "notification",
      notification: notification({ id: 8, title: "Message from support", kind: "broadcast" }),
      unread_count: 1,
    });
    await waitFor(() => expect(bells("Notifications, 1 unread")).toHaveLength(2));
    for (const bell of bells("Notifications, 1 unread")) expect(bell).toHaveTextContent("1");

    // Read on another device: the count drops to 0 and the badge goes.
    view.stream.current().push({ type: "notification_count", unread_count: 0 });
    await waitFor(() => expect(bells("Notifications")).toHaveLength(2));
    for (const bell of bells("Notifications")) expect(bell).toHaveTextContent("");

    // A message not of the contract's shape changes nothing.
    view.stream.current().push({ type: "notification", unread_count: 5 });
    expect(bells("Notifications")).toHaveLength(2);
  });

  it("puts a notification arriving over the stream at the top of the open page", async () => {
    const view = renderNotifications({
      "GET /notifications": listReply([notification({ id: 1, is_read: true })]),
    });
    const list = await screen.findByRole("list", { name: "Notifications" });
    await waitFor(() => expect(view.stream.current().sent[0]).toMatchObject({ type: "auth" }));
    view.stream.current().push({
      type: "notification",
      notification: notification({ id: 2, title: "Withdrawal paid" }),
      unread_count: 1,
    });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(2));
    expect(
      within(within(list).getAllByRole("listitem")[0]!).getByRole("heading"),
    ).toHaveTextContent("Withdrawal paid");
  });

  it('says "No notifications" when there are none', async () => {
    renderNotifications({ "GET /notifications": listReply([]) });
    expect(await screen.findByText(m.noNotifications)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Mark as read" })).not.toBeInTheDocument();
  });

  it("keeps a notification unread and says so when marking it fails", async () => {
    const view = renderNotifications({
      "GET /notifications": listReply([notification({ id: 4 })]),
      "POST /notifications/4/read": (_call: ApiCall) => failure(500, "Internal Server Error"),
    });
    await view.user.click(await screen.findByRole("button", { name: "Mark as read" }));
    expect(await findToast(markReadFailedMessage)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Mark as read" })).toBeInTheDocument();
    expect(bells("Notifications, 1 unread")).toHaveLength(2);
  });
});

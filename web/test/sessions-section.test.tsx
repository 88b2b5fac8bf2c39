import { screen, waitFor, within } from "@testing-library/react";
import { uiMessages } from "@tp/domain/messages";
import { signInResultLabels } from "@tp/domain/sessions-api";
import { describe, expect, it } from "vitest";
import { type FakeRoutes, failure, storeSession, success } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

const laptop = {
  id: 11,
  created_at: "2026-01-15T09:00:00.000Z",
  last_seen_at: "2026-01-15T12:00:00.000Z",
  expires_at: "2026-02-14T09:00:00.000Z",
  ip: "203.0.113.7",
  browser: "Chrome on Windows",
  current: true,
};
const phone = {
  ...laptop,
  id: 12,
  ip: "198.51.100.4",
  browser: "Safari on iOS",
  current: false,
};

function historyPage(page: number) {
  const rows =
    page === 1
      ? [
          {
            id: 3,
            attempted_at: "2026-01-15T09:00:00.000Z",
            ip: "203.0.113.7",
            browser: "Chrome on Windows",
            result: "succeeded",
          },
          {
            id: 2,
            attempted_at: "2026-01-15T08:59:00.000Z",
            ip: "192.0.2.99",
            browser: "Firefox on Linux",
            result: "wrong_password",
          },
        ]
      : [
          {
            id: 1,
            attempted_at: "2026-01-14T10:00:00.000Z",
            ip: "198.51.100.4",
            browser: "Safari on iOS",
            result: "second_factor_failed",
          },
        ];
  return success({ data: rows, pagination: { last_page: 2, current_page: page, total: 3 } });
}

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  let ended = false;
  return {
    "GET /sessions": () => success({ sessions: ended ? [laptop] : [laptop, phone] }),
    "DELETE /sessions/12": () => {
      ended = true;
      return success(undefined, "Session ended");
    },
    "GET /sign-in-history": (call) => historyPage(call.path.includes("page=2") ? 2 : 1),
    ...overrides,
  };
}

describe("the Security page's sessions", () => {
  it("lists the live sessions with browser and IP, and marks this one", async () => {
    storeSession();
    renderApp("/user/security", routes());
    const list = within(await screen.findByRole("list", { name: "Active sessions" }));
    const items = await list.findAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Chrome on Windows");
    expect(items[0]).toHaveTextContent("This session");
    expect(items[0]).toHaveTextContent("IP 203.0.113.7");
    expect(items[1]).toHaveTextContent("Safari on iOS");
    expect(items[1]).not.toHaveTextContent("This session");
  });

  it("ends another session and shows the list without it", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/security", routes());
    await user.click(await screen.findByRole("button", { name: "End session on Safari on iOS" }));
    expect(await findToast(uiMessages.sessionEnded)).toBeInTheDocument();
    expect(callsTo("DELETE /sessions/12")).toHaveLength(1);
    await waitFor(() =>
      expect(
        screen.queryByRole("button", { name: "End session on Safari on iOS" }),
      ).not.toBeInTheDocument(),
    );
    expect(window.localStorage.getItem("token")).not.toBeNull();
  });

  it("says so when ending a session fails", async () => {
    storeSession();
    const { user } = renderApp(
      "/user/security",
      routes({ "DELETE /sessions/12": failure(404, "Not found") }),
    );
    await user.click(await screen.findByRole("button", { name: "End session on Safari on iOS" }));
    expect(await findToast("Not found")).toBeInTheDocument();
  });

  it("signs out when this session is ended", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/security", routes());
    await user.click(await screen.findByRole("button", { name: "Sign out of this session" }));
    await waitFor(() => expect(callsTo("POST /logout")).toHaveLength(1));
    await waitFor(() => expect(window.localStorage.getItem("token")).toBeNull());
  });

  it("shows the sign-in history with each result in words, page by page", async () => {
    storeSession();
    const { user } = renderApp("/user/security", routes());
    const list = within(await screen.findByRole("list", { name: "Sign-in attempts" }));
    const rows = await list.findAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(signInResultLabels.succeeded);
    expect(rows[1]).toHaveTextContent("Firefox on Linux");
    expect(rows[1]).toHaveTextContent("IP 192.0.2.99");
    expect(rows[1]).toHaveTextContent(signInResultLabels.wrong_password);

    await user.click(screen.getByRole("button", { name: "Page 2" }));
    expect(await screen.findByText(signInResultLabels.second_factor_failed)).toBeInTheDocument();
  });

  it("says so when the sessions cannot be loaded", async () => {
    storeSession();
    renderApp("/user/security", routes({ "GET /sessions": failure(500, "Internal Server Error") }));
    expect(await screen.findByText(uiMessages.sessionsLoadFailed)).toBeInTheDocument();
  });
});

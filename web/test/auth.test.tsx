import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useAuth } from "../src/auth/auth-context.ts";
import { type FakeReply, failure, storeSession, success, trader } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

function deferred() {
  let resolve: (reply: FakeReply) => void = () => {};
  const promise = new Promise<FakeReply>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function Orphan() {
  useAuth();
  return null;
}

describe("auth provider", () => {
  it("keeps a stored session when GET /user answers with the user, sending the bearer token", async () => {
    storeSession("abc");
    const { callsTo, router } = renderApp("/user/dashboard");

    expect(await screen.findByRole("heading", { name: "Trading dashboard" })).toBeVisible();
    expect(screen.getByRole("radio", { name: "Real Account" })).toHaveAccessibleDescription(
      /Ada Lovelace/,
    );
    expect(screen.getByText("$1,234.50")).toBeVisible();
    expect(screen.getByText("$10,000.00")).toBeVisible();
    expect(callsTo("GET /user")[0]?.authorization).toBe("Bearer abc");
    expect(router.state.location.pathname).toBe("/user/dashboard");
    expect(window.localStorage.getItem("token")).toBe("abc");
    expect(JSON.parse(window.localStorage.getItem("user") ?? "null")).toEqual(trader);
  });

  it("shows Loading... until the start-up check finishes", async () => {
    storeSession();
    const reply = deferred();
    renderApp("/user/dashboard", { "GET /user": () => reply.promise });

    expect(await screen.findByText("Loading...")).toBeVisible();
    expect(screen.queryByRole("heading", { name: "Trading dashboard" })).not.toBeInTheDocument();
    reply.resolve(success({ user: trader }));
    expect(await screen.findByRole("heading", { name: "Trading dashboard" })).toBeVisible();
  });

  it("clears token and stored user when the check fails, and guards /user", async () => {
    storeSession();
    const { router } = renderApp("/user/dashboard", {
      "GET /user": failure(403, "You are not allowed to do this"),
    });

    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(router.state.location.pathname).toBe("/account/sign-in");
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
  });

  it("clears the session when the reply carries no user", async () => {
    storeSession();
    renderApp("/user/dashboard", { "GET /user": success({}) });
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
  });

  it("sends anonymous visitors of /user pages to sign-in, without asking for a user", async () => {
    const { router, callsTo } = renderApp("/user/security");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(router.state.location.pathname).toBe("/account/sign-in");
    expect(callsTo("GET /user")).toHaveLength(0);
  });

  it("redirects /user to the dashboard and a signed-in sign-in visit too", async () => {
    storeSession();
    const first = renderApp("/user");
    await waitFor(() => expect(first.router.state.location.pathname).toBe("/user/dashboard"));
    first.unmount();

    const second = renderApp("/account/sign-in");
    await waitFor(() => expect(second.router.state.location.pathname).toBe("/user/dashboard"));
  });

  it("logout posts /logout and forgets token and stored user", async () => {
    storeSession();
    const { user, callsTo, router } = renderApp("/user/dashboard");
    const [desktopLogout] = await screen.findAllByRole("button", { name: "LOGOUT" });
    await user.click(desktopLogout!);

    await waitFor(() => expect(router.state.location.pathname).toBe("/account/sign-in"));
    expect(callsTo("POST /logout")).toHaveLength(1);
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
  });

  it("throws when useAuth is used outside its provider", () => {
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(() => render(<Orphan />)).toThrow("useAuth must be used within an AuthProvider");
    } finally {
      console.error = quiet;
    }
  });
});

describe("a 401 from any call", () => {
  it("signs the trader out to the sign-in page", async () => {
    storeSession();
    const { user, router } = renderApp("/user/security", {
      "POST /logout-all-sessions": failure(401, "Unauthenticated"),
    });
    await user.click(await screen.findByRole("button", { name: "Log out other sessions" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/account/sign-in"));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
  });
});

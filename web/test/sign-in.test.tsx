import { screen, waitFor } from "@testing-library/react";
import { uiMessages } from "@tp/domain/messages";
import { validationMessages as m } from "@tp/domain/validation";
import { describe, expect, it } from "vitest";
import { failure, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

async function signIn(view: ReturnType<typeof renderApp>, email = "ada@example.com") {
  await fill(view.user, await screen.findByLabelText("Email"), email);
  await fill(view.user, screen.getByLabelText("Password"), "Secret123");
  await view.user.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("sign-in", () => {
  it("stores token and user, toasts success and opens the dashboard", async () => {
    const view = renderApp("/account/sign-in", {
      "POST /login": success({ user: trader, token: "fresh-token" }, "Login successful!"),
    });
    await signIn(view);

    expect(await findToast(uiMessages.loginSuccess)).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe("/user/dashboard"));
    expect(view.callsTo("POST /login")[0]?.body).toEqual({
      email: "ada@example.com",
      password: "Secret123",
    });
    expect(window.localStorage.getItem("token")).toBe("fresh-token");
    expect(JSON.parse(window.localStorage.getItem("user") ?? "null")).toEqual(trader);
    expect(await screen.findByRole("heading", { name: "Trading dashboard" })).toBeVisible();
  });

  it("returns to the /user page that sent the visitor to sign in", async () => {
    const view = renderApp("/user/security", {
      "POST /login": success({ user: trader, token: "fresh-token" }),
    });
    await signIn(view);
    await waitFor(() => expect(view.router.state.location.pathname).toBe("/user/security"));
  });

  it("fails with the spec's text when the reply has no token", async () => {
    const view = renderApp("/account/sign-in", { "POST /login": success({ user: trader }) });
    await signIn(view);
    expect(await findToast(uiMessages.loginInvalidResponse)).toBeInTheDocument();
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(view.router.state.location.pathname).toBe("/account/sign-in");
  });

  it("shows the server's message for bad credentials, without signing anything out", async () => {
    const view = renderApp("/account/sign-in", {
      "POST /login": failure(401, "Invalid email or password"),
    });
    await signIn(view);
    expect(await findToast("Invalid email or password")).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe("/account/sign-in");
  });

  it("says Login failed when the network fails", async () => {
    const view = renderApp("/account/sign-in", {
      "POST /login": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    await signIn(view);
    expect(await findToast(uiMessages.loginFailed)).toBeInTheDocument();
  });

  it("validates the e-mail before calling the server", async () => {
    const view = renderApp("/account/sign-in");
    await signIn(view, "nope");
    await waitFor(() =>
      expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(m.emailInvalid),
    );
    expect(view.callsTo("POST /login")).toHaveLength(0);
  });

  it("links to forgot password and sign-up", async () => {
    renderApp("/account/sign-in");
    expect(await screen.findByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/account/forgot-password",
    );
    expect(screen.getByRole("link", { name: "Create an account" })).toHaveAttribute(
      "href",
      "/account/sign-up",
    );
  });
});

import { act, screen, waitFor } from "@testing-library/react";
import { serverMessages } from "@tp/domain/messages";
import { validationMessages as m } from "@tp/domain/validation";
import { describe, expect, it } from "vitest";
import { type FakeReply, failure, refusal, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const challengeRequired = refusal(428, "CHALLENGE_REQUIRED", serverMessages.challengeRequired);

/** Replies in order, the last one repeated. */
function inTurn(...replies: FakeReply[]) {
  let index = 0;
  return () => replies[Math.min(index++, replies.length - 1)]!;
}

/** What the ALTCHA widget (a third-party element) announces once it solved its challenge. */
function widgetSolves(payload: string) {
  const widget = document.querySelector("altcha-widget");
  if (!widget) throw new Error("no altcha-widget on the page");
  act(() => {
    widget.dispatchEvent(
      new CustomEvent("statechange", { detail: { state: "verified", payload } }),
    );
  });
}

describe("proof of work instead of a lockout", () => {
  it("sign-in shows the challenge when the server asks and sends its solution with the retry", async () => {
    const view = renderApp("/account/sign-in", {
      "POST /login": inTurn(
        challengeRequired,
        success({ user: trader, token: "fresh-token" }, "Login successful!"),
      ),
    });
    expect(await screen.findByLabelText("Email")).toBeVisible();
    // No widget while the server has not asked for one.
    expect(document.querySelector("altcha-widget")).toBeNull();

    await fill(view.user, screen.getByLabelText("Email"), "ada@example.com");
    await fill(view.user, screen.getByLabelText("Password"), "Passw0rd!");
    await view.user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await findToast(serverMessages.challengeRequired)).toBeInTheDocument();
    const widget = await waitFor(() => {
      const element = document.querySelector("altcha-widget");
      expect(element).not.toBeNull();
      return element!;
    });
    expect(widget.getAttribute("challenge")).toBe("/api/v1/challenge");
    expect(view.callsTo("POST /login")[0]?.body).toEqual({
      email: "ada@example.com",
      password: "Passw0rd!",
    });

    widgetSolves("c29sdmVk");
    await view.user.click(screen.getByRole("button", { name: "Sign in" }));

    await waitFor(() => expect(view.router.state.location.pathname).toBe("/user/dashboard"));
    expect(view.callsTo("POST /login")[1]?.body).toEqual({
      email: "ada@example.com",
      password: "Passw0rd!",
      altcha: "c29sdmVk",
    });
  });

  it("a spent solution is not sent twice: a refused retry gets a fresh widget", async () => {
    const view = renderApp("/account/sign-in", {
      "POST /login": inTurn(challengeRequired, failure(401, serverMessages.loginInvalid)),
    });
    await fill(view.user, await screen.findByLabelText("Email"), "ada@example.com");
    await fill(view.user, screen.getByLabelText("Password"), "Wrong1234");
    await view.user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(document.querySelector("altcha-widget")).not.toBeNull());
    widgetSolves("b25jZQ==");
    await view.user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await findToast(serverMessages.loginInvalid)).toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(view.callsTo("POST /login")).toHaveLength(3));
    expect(view.callsTo("POST /login")[2]?.body).not.toHaveProperty("altcha");
    expect(document.querySelector("altcha-widget")).not.toBeNull();
  });

  it("forgot-password shows the challenge too and sends the solution", async () => {
    const view = renderApp("/account/forgot-password", {
      "POST /forgot-password": inTurn(challengeRequired, {
        status: 200,
        body: { status: "success", message: serverMessages.forgotPasswordNeutral },
      }),
    });
    await fill(view.user, await screen.findByLabelText("Email"), "ada@example.com");
    await view.user.click(screen.getByRole("button", { name: "Send reset link" }));
    await waitFor(() => expect(document.querySelector("altcha-widget")).not.toBeNull());
    widgetSolves("Zm9yZ290");
    await view.user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText(serverMessages.forgotPasswordNeutral)).toBeVisible();
    expect(view.callsTo("POST /forgot-password")[1]?.body).toEqual({
      email: "ada@example.com",
      altcha: "Zm9yZ290",
    });
  });
});

describe("password rules in the forms", () => {
  it("accepts symbols and spaces and shows the server's too-common message under the field", async () => {
    const view = renderApp("/account/sign-up", {
      "POST /register": failure(422, m.passwordTooCommon, { password: [m.passwordTooCommon] }),
    });
    await fill(view.user, await screen.findByLabelText("First name"), "Ada");
    await fill(view.user, screen.getByLabelText("Last name"), "Lovelace");
    await fill(view.user, screen.getByLabelText("Email"), "ada@example.com");
    await fill(view.user, screen.getByLabelText("Password"), "Tr0ub4dor&3 xtra");
    await fill(view.user, screen.getByLabelText("Confirm password"), "Tr0ub4dor&3 xtra");
    await fill(view.user, screen.getByLabelText("Phone number"), "+44 20 7946 0000");
    await view.user.click(
      screen.getByLabelText("I am 18 or older and accept the Terms of Service"),
    );
    await view.user.click(screen.getByRole("button", { name: "Register" }));

    await waitFor(() => expect(view.callsTo("POST /register")).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(m.passwordTooCommon),
    );
  });
});

describe("resend verification past its threshold", () => {
  it("the welcome page shows the challenge and resends with its solution", async () => {
    window.localStorage.setItem("registration_email", "ada@example.com");
    const view = renderApp("/welcome", {
      "POST /email/resend": inTurn(challengeRequired, {
        status: 200,
        body: { status: "success", message: serverMessages.verificationResendNeutral },
      }),
    });
    const resend = await screen.findByRole("button", { name: "Resend verification email" });
    await view.user.click(resend);
    expect(await findToast(serverMessages.challengeRequired)).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector("altcha-widget")).not.toBeNull());
    widgetSolves("cmVzZW5k");
    await view.user.click(resend);
    await waitFor(() => expect(view.callsTo("POST /email/resend")).toHaveLength(2));
    expect(view.callsTo("POST /email/resend")[1]?.body).toEqual({
      email: "ada@example.com",
      altcha: "cmVzZW5k",
    });
  });
});

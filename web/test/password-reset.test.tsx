import { screen, waitFor, within } from "@testing-library/react";
import { serverMessages, uiMessages } from "@tp/domain/messages";
import { validationMessages as m } from "@tp/domain/validation";
import { describe, expect, it } from "vitest";
import { failure, success } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

describe("reset password", () => {
  it.each([
    ["no token", "/account/reset-password?email=ada%40example.com"],
    ["no email", "/account/reset-password?token=t0k3n"],
    ["neither", "/account/reset-password"],
  ])("with %s says Invalid reset link and goes to forgot-password", async (_case, url) => {
    const { router } = renderApp(url);
    expect(await findToast(uiMessages.resetInvalidLink)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/account/forgot-password"));
    expect(screen.getByRole("heading", { name: "Forgot password" })).toBeVisible();
  });

  it("checks the new password, then resets and goes to sign-in", async () => {
    const { user, router, callsTo } = renderApp(
      "/account/reset-password?token=t0k3n&email=ada%40example.com",
      { "POST /reset-password": success(undefined, "Password reset successfully!") },
    );
    await fill(user, await screen.findByLabelText("New password"), "Secret123");
    await fill(user, screen.getByLabelText("Confirm new password"), "Secret124");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Confirm new password")).toHaveAccessibleDescription(
        m.passwordsMismatch,
      ),
    );
    expect(callsTo("POST /reset-password")).toHaveLength(0);

    await user.clear(screen.getByLabelText("Confirm new password"));
    await fill(user, screen.getByLabelText("Confirm new password"), "Secret123");
    await user.click(screen.getByRole("button", { name: "Reset password" }));

    expect(await findToast(uiMessages.resetSuccess)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/account/sign-in"));
    expect(callsTo("POST /reset-password")[0]?.body).toEqual({
      email: "ada@example.com",
      token: "t0k3n",
      password: "Secret123",
      password_confirmation: "Secret123",
    });
  });

  it("shows the server's message when the link has expired, else Reset failed", async () => {
    const expired = renderApp("/account/reset-password?token=old&email=ada%40example.com", {
      "POST /reset-password": failure(422, serverMessages.resetLinkInvalid),
    });
    await fill(expired.user, await screen.findByLabelText("New password"), "Secret123");
    await fill(expired.user, screen.getByLabelText("Confirm new password"), "Secret123");
    await expired.user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await findToast(serverMessages.resetLinkInvalid)).toBeInTheDocument();
    expired.unmount();

    const broken = renderApp("/account/reset-password?token=old&email=ada%40example.com", {
      "POST /reset-password": {
        status: 500,
        body: { status: "error", message: "Internal Server Error" },
      },
    });
    await fill(broken.user, await screen.findByLabelText("New password"), "Secret123");
    await fill(broken.user, screen.getByLabelText("Confirm new password"), "Secret123");
    await broken.user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await findToast(uiMessages.resetFailed)).toBeInTheDocument();
  });
});

describe("forgot password", () => {
  it("shows the server's neutral message", async () => {
    const { user, callsTo } = renderApp("/account/forgot-password", {
      "POST /forgot-password": success(undefined, serverMessages.forgotPasswordNeutral),
    });
    await fill(user, await screen.findByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText(serverMessages.forgotPasswordNeutral)).toBeVisible();
    expect(callsTo("POST /forgot-password")[0]?.body).toEqual({ email: "ada@example.com" });
  });
});

describe("e-mail verification", () => {
  it("posts the link's token and e-mail and offers sign-in", async () => {
    const { callsTo } = renderApp("/account/verify-email?token=v3r1fy&email=ada%40example.com", {
      "POST /email/verify": success(undefined, serverMessages.emailVerified),
    });
    expect(await screen.findByText(serverMessages.emailVerified)).toBeVisible();
    expect(within(screen.getByRole("main")).getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/account/sign-in",
    );
    expect(callsTo("POST /email/verify")).toEqual([
      expect.objectContaining({ body: { email: "ada@example.com", token: "v3r1fy" } }),
    ]);
  });

  it("shows the server's error message", async () => {
    renderApp("/account/verify-email?token=old&email=ada%40example.com", {
      "POST /email/verify": failure(422, serverMessages.verificationLinkInvalid),
    });
    expect(await screen.findByText(serverMessages.verificationLinkInvalid)).toBeVisible();
  });
});

describe("welcome", () => {
  it("resends the verification e-mail to the address stored at registration", async () => {
    window.localStorage.setItem("registration_email", "ada@example.com");
    const { user, callsTo } = renderApp("/welcome", {
      "POST /email/resend": success(undefined, serverMessages.verificationResendNeutral),
    });
    expect(await screen.findByText("ada@example.com")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Resend verification email" }));
    expect(await findToast(uiMessages.resendSuccess)).toBeInTheDocument();
    expect(callsTo("POST /email/resend")[0]?.body).toEqual({ email: "ada@example.com" });
  });
});

import { screen, waitFor } from "@testing-library/react";
import { fundingMessages } from "@tp/domain/funding";
import { serverMessages, uiMessages } from "@tp/domain/messages";
import { twoFactorMessages } from "@tp/domain/two-factor";
import { describe, expect, it } from "vitest";
import { refusal, storeSession, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

async function signIn(view: ReturnType<typeof renderApp>) {
  await fill(view.user, await screen.findByLabelText("Email"), "ada@example.com");
  await fill(view.user, screen.getByLabelText("Password"), "Secret123");
  await view.user.click(screen.getByRole("button", { name: "Sign in" }));
}

const admin = { ...trader, id: 1, email: "staff@example.com", role: "admin" as const };

describe("sign-in with a second factor", () => {
  it("asks for the code after the password; a wrong code shows the server's message; the right one signs in", async () => {
    let attempts = 0;
    const view = renderApp("/account/sign-in", {
      "POST /login": success({
        next_step: "second_factor",
        sign_in_token: "step-token",
        methods: ["totp", "recovery_code"],
      }),
      "POST /login/second-factor": () =>
        ++attempts === 1
          ? refusal(422, "SECOND_FACTOR_INVALID", twoFactorMessages.codeInvalid)
          : success({ user: trader, token: "fresh-token" }),
    });
    await signIn(view);
    expect(await screen.findByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
    // No session yet: the password alone gave none.
    expect(window.localStorage.getItem("token")).toBeNull();

    const code = screen.getByLabelText("Authentication code");
    await fill(view.user, code, "123456");
    await view.user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(twoFactorMessages.codeInvalid));
    expect(window.localStorage.getItem("token")).toBeNull();

    await view.user.clear(code);
    await fill(view.user, code, " 654321 ");
    await view.user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await findToast(uiMessages.loginSuccess)).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe("/user/dashboard"));
    expect(view.callsTo("POST /login/second-factor").map((call) => call.body)).toEqual([
      { sign_in_token: "step-token", code: "123456" },
      { sign_in_token: "step-token", code: "654321" },
    ]);
    expect(window.localStorage.getItem("token")).toBe("fresh-token");
  });

  it("refuses an empty code without calling the server", async () => {
    const view = renderApp("/account/sign-in", {
      "POST /login": success({ next_step: "second_factor", sign_in_token: "t", methods: ["totp"] }),
    });
    await signIn(view);
    await view.user.click(await screen.findByRole("button", { name: "Verify" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Authentication code")).toHaveAccessibleDescription(
        twoFactorMessages.codeRequired,
      ),
    );
    expect(view.callsTo("POST /login/second-factor")).toHaveLength(0);
  });

  it("walks a staff member through enrolment: QR code and key, a code, the recovery codes once, then signed in", async () => {
    const codes = Array.from({ length: 10 }, (_, index) => `abcde-fghj${index}`);
    const view = renderApp("/account/sign-in", {
      "POST /login": success({
        next_step: "enrol_totp",
        sign_in_token: "enrol-token",
        otpauth_uri: "otpauth://totp/Platform:staff%40example.com?secret=JBSWY3DPEHPK3PXP",
        secret: "JBSWY3DPEHPK3PXP",
      }),
      "POST /login/enrol": success({ user: admin, token: "staff-token", recovery_codes: codes }),
    });
    await signIn(view);
    expect(
      await screen.findByRole("img", { name: "QR code for your authenticator app" }),
    ).toBeVisible();
    expect(screen.getByText("JBSWY3DPEHPK3PXP")).toBeVisible();
    await fill(view.user, screen.getByLabelText("Authentication code"), "112233");
    await view.user.click(
      screen.getByRole("button", { name: "Turn on two-factor authentication" }),
    );
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(list.querySelectorAll("li")).toHaveLength(10);
    expect(window.localStorage.getItem("token")).toBeNull();
    await view.user.click(screen.getByRole("button", { name: "I have saved my recovery codes" }));
    await waitFor(() => expect(window.localStorage.getItem("token")).toBe("staff-token"));
    expect(view.callsTo("POST /login/enrol")[0]?.body).toEqual({
      sign_in_token: "enrol-token",
      code: "112233",
    });
  });
});

describe("step-up", () => {
  it("a STEP_UP_REQUIRED reply opens one 'Confirm it is you' dialog; after the password the call is retried", async () => {
    storeSession();
    let updates = 0;
    const view = renderApp("/user/security", {
      "GET /two-factor": success({ enabled: false, recovery_codes_left: 0 }),
      "PUT /update-password": () =>
        ++updates === 1
          ? refusal(403, "STEP_UP_REQUIRED", serverMessages.stepUpRequired)
          : success(undefined, uiMessages.passwordSuccess),
      "POST /step-up": success(undefined, twoFactorMessages.steppedUp),
    });
    await fill(view.user, await screen.findByLabelText("Current password"), "Secret123");
    await fill(view.user, screen.getByLabelText("New password"), "Better456");
    await fill(view.user, screen.getByLabelText("Confirm new password"), "Better456");
    await view.user.click(screen.getByRole("button", { name: "Update password" }));

    const dialog = await screen.findByRole("dialog", { name: "Confirm it is you" });
    expect(dialog).toBeVisible();
    await fill(view.user, await screen.findByLabelText("Password"), "Secret123");
    await view.user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await findToast(uiMessages.passwordSuccess)).toBeInTheDocument();
    expect(view.callsTo("POST /step-up")[0]?.body).toEqual({ password: "Secret123" });
    expect(view.callsTo("PUT /update-password")).toHaveLength(2);
    expect(screen.queryByRole("dialog", { name: "Confirm it is you" })).toBeNull();
  });

  it("with 2FA on it asks for a code; cancelling fails the call", async () => {
    storeSession();
    const view = renderApp("/user/security", {
      "GET /two-factor": success({ enabled: true, recovery_codes_left: 10 }),
      "PUT /update-password": refusal(403, "STEP_UP_REQUIRED", serverMessages.stepUpRequired),
    });
    await fill(view.user, await screen.findByLabelText("Current password"), "Secret123");
    await fill(view.user, screen.getByLabelText("New password"), "Better456");
    await fill(view.user, screen.getByLabelText("Confirm new password"), "Better456");
    await view.user.click(screen.getByRole("button", { name: "Update password" }));
    await screen.findByRole("dialog", { name: "Confirm it is you" });
    expect(await screen.findByLabelText("Authentication code")).toBeVisible();
    await view.user.keyboard("{Escape}");
    expect(await findToast(serverMessages.stepUpRequired)).toBeInTheDocument();
    expect(view.callsTo("PUT /update-password")).toHaveLength(1);
    expect(view.callsTo("POST /step-up")).toHaveLength(0);
  });
});

describe("withdrawal confirmation page", () => {
  it("posts the link's token once and says it is confirmed", async () => {
    const view = renderApp("/account/confirm-withdrawal?token=link-token&email=ada%40example.com", {
      "POST /withdrawals/confirm": success({ withdrawal: {} }, fundingMessages.withdrawalConfirmed),
    });
    expect(await screen.findByText(fundingMessages.withdrawalConfirmed)).toBeVisible();
    expect(view.callsTo("POST /withdrawals/confirm").map((call) => call.body)).toEqual([
      { token: "link-token" },
    ]);
  });

  it("shows the server's refusal for a dead link", async () => {
    renderApp("/account/confirm-withdrawal?token=dead", {
      "POST /withdrawals/confirm": refusal(
        422,
        "VALIDATION_FAILED",
        fundingMessages.withdrawalConfirmLinkInvalid,
      ),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent(
      fundingMessages.withdrawalConfirmLinkInvalid,
    );
  });
});

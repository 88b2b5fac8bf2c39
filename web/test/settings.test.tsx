import { screen, waitFor, within } from "@testing-library/react";
import { serverMessages, uiMessages } from "@tp/domain/messages";
import { validationMessages as m } from "@tp/domain/validation";
import { describe, expect, it } from "vitest";
import { failure, storeSession, success, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

describe("personal data", () => {
  it("shows e-mail, username and country read-only and names and phone editable", async () => {
    storeSession();
    renderApp("/user/personal-data");

    expect(await screen.findByLabelText("Email")).toHaveValue(trader.email);
    expect(screen.getByLabelText("Email")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Username")).toHaveValue(trader.username);
    expect(screen.getByLabelText("Username")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Country")).toHaveValue("United Kingdom");
    expect(screen.getByLabelText("Country")).toHaveAttribute("readonly");
    for (const label of ["First name", "Last name", "Phone number"]) {
      expect(screen.getByLabelText(label)).not.toHaveAttribute("readonly");
    }
    expect(screen.getByLabelText("First name")).toHaveValue("Ada");
  });

  it("saves names and phone with the stored country, then refetches the user", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/personal-data", {
      "PUT /update-profile": success(undefined, uiMessages.personalDataSuccess),
    });
    const firstName = await screen.findByLabelText("First name");
    await user.clear(firstName);
    await fill(user, firstName, "Augusta");
    const userCallsBefore = callsTo("GET /user").length;
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    expect(await findToast(uiMessages.personalDataSuccess)).toBeInTheDocument();
    expect(callsTo("PUT /update-profile")[0]?.body).toEqual({
      first_name: "Augusta",
      last_name: "Lovelace",
      phone_number: "+44 20 7946 0000",
      country: "United Kingdom",
    });
    await waitFor(() => expect(callsTo("GET /user").length).toBeGreaterThan(userCallsBefore));
  });

  it("checks the fields and reports a failed save", async () => {
    storeSession();
    const { user } = renderApp("/user/personal-data", {
      "PUT /update-profile": {
        status: 500,
        body: { status: "error", message: "Internal Server Error" },
      },
    });
    const phone = await screen.findByLabelText("Phone number");
    await user.clear(phone);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Phone number")).toHaveAccessibleDescription(m.phoneRequired),
    );

    await fill(user, phone, "+1 555 123 4567");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await findToast(uiMessages.personalDataFailed)).toBeInTheDocument();
  });
});

describe("security", () => {
  async function changePassword(view: ReturnType<typeof renderApp>) {
    await fill(view.user, await screen.findByLabelText("Current password"), "Secret123");
    await fill(view.user, screen.getByLabelText("New password"), "Better456");
    await fill(view.user, screen.getByLabelText("Confirm new password"), "Better456");
    await view.user.click(screen.getByRole("button", { name: "Update password" }));
  }

  it("requires the current and new password with the spec's messages", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/security");
    await user.click(await screen.findByRole("button", { name: "Update password" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Current password")).toHaveAccessibleDescription(
        m.currentPasswordRequired,
      ),
    );
    expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(
      m.newPasswordRequired,
    );
    expect(callsTo("PUT /update-password")).toHaveLength(0);
  });

  it("updates the password and clears the form", async () => {
    storeSession();
    const view = renderApp("/user/security", {
      "PUT /update-password": success(undefined, uiMessages.passwordSuccess),
    });
    await changePassword(view);
    expect(await findToast(uiMessages.passwordSuccess)).toBeInTheDocument();
    expect(view.callsTo("PUT /update-password")[0]?.body).toEqual({
      current_password: "Secret123",
      password: "Better456",
      password_confirmation: "Better456",
    });
    await waitFor(() => expect(screen.getByLabelText("Current password")).toHaveValue(""));
  });

  it("surfaces the server's message, under the field too", async () => {
    storeSession();
    const view = renderApp("/user/security", {
      "PUT /update-password": failure(422, serverMessages.currentPasswordWrong, {
        current_password: [serverMessages.currentPasswordWrong],
      }),
    });
    await changePassword(view);
    expect(await findToast(serverMessages.currentPasswordWrong)).toBeInTheDocument();
    expect(screen.getByLabelText("Current password")).toHaveAccessibleDescription(
      serverMessages.currentPasswordWrong,
    );
  });

  it("says Failed to update password when the server says nothing usable", async () => {
    storeSession();
    const view = renderApp("/user/security", {
      "PUT /update-password": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    await changePassword(view);
    expect(await findToast(uiMessages.passwordFailed)).toBeInTheDocument();
  });

  it("logs out the other sessions, and says so when that fails", async () => {
    storeSession();
    let fail = false;
    const { user, callsTo } = renderApp("/user/security", {
      "POST /logout-all-sessions": () =>
        fail ? failure(500, "Internal Server Error") : success(undefined, "Done"),
    });
    const button = await screen.findByRole("button", { name: "Log out other sessions" });
    await user.click(button);
    expect(await findToast(uiMessages.sessionsSuccess)).toBeInTheDocument();
    expect(callsTo("POST /logout-all-sessions")).toHaveLength(1);
    expect(window.localStorage.getItem("token")).not.toBeNull();

    fail = true;
    await user.click(button);
    expect(await findToast(uiMessages.sessionsFailed)).toBeInTheDocument();
  });

  it("cross-links personal data and security", async () => {
    storeSession();
    renderApp("/user/security");
    const tabs = within(await screen.findByRole("navigation", { name: "Settings" }));
    expect(tabs.getByRole("link", { name: "Personal Data" })).toHaveAttribute(
      "href",
      "/user/personal-data",
    );
    expect(tabs.getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "page");
  });
});

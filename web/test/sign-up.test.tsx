import { screen, waitFor } from "@testing-library/react";
import { inputMessages, uiMessages } from "@tp/domain/messages";
import { validationMessages as m } from "@tp/domain/validation";
import { describe, expect, it } from "vitest";
import { failure, trader } from "./fake-api.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const terms = "I am 18 or older and accept the Terms of Service";

async function fillValidForm(user: ReturnType<typeof renderApp>["user"]) {
  await fill(user, screen.getByLabelText("First name"), "Ada");
  await fill(user, screen.getByLabelText("Last name"), "Lovelace");
  await fill(user, screen.getByLabelText("Email"), "Ada@Example.com");
  await fill(user, screen.getByLabelText("Password"), "Secret123");
  await fill(user, screen.getByLabelText("Confirm password"), "Secret123");
  await fill(user, screen.getByLabelText("Phone number"), "+44 20 7946 0000");
}

describe("sign-up form", () => {
  it("shows the spec's messages under each empty field and the check-fields toast", async () => {
    const { user, callsTo } = renderApp("/account/sign-up");
    await user.click(await screen.findByRole("button", { name: "Register" }));

    expect(await findToast(uiMessages.registerCheckFields)).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveAccessibleDescription(m.firstNameRequired);
    expect(screen.getByLabelText("Last name")).toHaveAccessibleDescription(m.lastNameRequired);
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(m.emailRequired);
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(m.passwordRequired);
    expect(screen.getByLabelText("Phone number")).toHaveAccessibleDescription(m.phoneRequired);
    expect(screen.getByLabelText(terms)).toHaveAccessibleDescription(m.acceptTermsRequired);
    expect(callsTo("POST /register")).toHaveLength(0);
  });

  it("shows the format messages for malformed values", async () => {
    const { user } = renderApp("/account/sign-up");
    await fill(user, await screen.findByLabelText("First name"), "A1");
    await fill(user, screen.getByLabelText("Last name"), "L");
    await fill(user, screen.getByLabelText("Email"), "not-an-address");
    await fill(user, screen.getByLabelText("Password"), "short");
    await fill(user, screen.getByLabelText("Confirm password"), "different");
    await fill(user, screen.getByLabelText("Phone number"), "12ab");
    await user.click(screen.getByRole("button", { name: "Register" }));

    await waitFor(() =>
      expect(screen.getByLabelText("First name")).toHaveAccessibleDescription(m.nameInvalid),
    );
    expect(screen.getByLabelText("Last name")).toHaveAccessibleDescription(m.nameInvalid);
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(m.emailInvalid);
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(m.passwordInvalid);
    expect(screen.getByLabelText("Phone number")).toHaveAccessibleDescription(m.phoneInvalid);
  });

  it("refuses a hidden direction-changing character with the server's message (issue 12)", async () => {
    const { user, callsTo } = renderApp("/account/sign-up");
    await fillValidForm(user);
    await fill(user, screen.getByLabelText("First name"), "Ada\u202E");
    await user.click(screen.getByLabelText(terms));
    await user.click(screen.getByRole("button", { name: "Register" }));
    await waitFor(() =>
      expect(screen.getByLabelText("First name")).toHaveAccessibleDescription(
        inputMessages.textBidiControl,
      ),
    );
    expect(callsTo("POST /register")).toHaveLength(0);
  });

  it("says the passwords do not match under the confirmation", async () => {
    const { user } = renderApp("/account/sign-up");
    await fillValidForm(user);
    await fill(user, screen.getByLabelText("Confirm password"), "4");
    await user.click(screen.getByLabelText(terms));
    await user.click(screen.getByRole("button", { name: "Register" }));
    expect(await screen.findByText(m.passwordsMismatch)).toBeInTheDocument();
    expect(screen.getByLabelText("Confirm password")).toHaveAccessibleDescription(
      m.passwordsMismatch,
    );
  });

  it("refuses a valid form until the 18+ terms box is ticked", async () => {
    const { user, callsTo } = renderApp("/account/sign-up");
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Register" }));

    expect(await findToast(uiMessages.registerCheckFields)).toBeInTheDocument();
    expect(screen.getByLabelText(terms)).toHaveAccessibleDescription(m.acceptTermsRequired);
    expect(screen.getByText(m.acceptTermsRequired)).toBeInTheDocument();
    expect(callsTo("POST /register")).toHaveLength(0);
  });

  it("registers with the referral code of ?ref=, stores the e-mail and goes to /welcome", async () => {
    const { user, callsTo, router } = renderApp("/account/sign-up?ref=FRIEND42", {
      "POST /register": { status: 201, body: { status: "success", data: { user: trader } } },
    });
    expect(await screen.findByLabelText("Country")).toHaveValue("United States");
    await fillValidForm(user);
    await user.selectOptions(screen.getByLabelText("Country"), "United Kingdom");
    await user.click(screen.getByLabelText(terms));
    await user.click(screen.getByRole("button", { name: "Register" }));

    expect(await findToast(uiMessages.registerSuccess)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/welcome"));
    expect(callsTo("POST /register")[0]?.body).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      password: "Secret123",
      password_confirmation: "Secret123",
      country: "United Kingdom",
      phone_number: "+44 20 7946 0000",
      referral_code: "FRIEND42",
      accept_terms: true,
    });
    expect(window.localStorage.getItem("registration_email")).toBe("ada@example.com");
    expect(await screen.findByRole("button", { name: "Resend verification email" })).toBeVisible();
  });

  it("puts the server's field errors under the fields and toasts its message", async () => {
    const { user, router } = renderApp("/account/sign-up", {
      "POST /register": failure(409, "This email is already registered", {
        email: ["This email is already registered"],
      }),
    });
    await fillValidForm(user);
    await user.click(screen.getByLabelText(terms));
    await user.click(screen.getByRole("button", { name: "Register" }));

    expect(await findToast("This email is already registered")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(
      "This email is already registered",
    );
    expect(router.state.location.pathname).toBe("/account/sign-up");
  });

  it("says Registration failed when the server gives no usable message", async () => {
    const { user } = renderApp("/account/sign-up", {
      "POST /register": { status: 502, body: "<html>Bad gateway</html>" },
    });
    await fillValidForm(user);
    await user.click(screen.getByLabelText(terms));
    await user.click(screen.getByRole("button", { name: "Register" }));
    expect(await findToast(uiMessages.registerFailed)).toBeInTheDocument();
  });
});

import { screen, waitFor } from "@testing-library/react";
import {
  depositsRestrictedNotice,
  signUpRestrictedMessage,
  tradingRestrictedNotice,
} from "@tp/domain/restricted-countries";
import { describe, expect, it } from "vitest";
import { storeSession, success } from "./fake-api.ts";
import { fill, renderApp } from "./render-app.tsx";

/** Restricted countries (issue 14 item 4) as the pages show them; the fake trader is British. */
const restricted = success({
  countries: [
    { code: "FR", name: "France" },
    { code: "GB", name: "United Kingdom" },
  ],
});

describe("restricted countries", () => {
  it("sign-up says at once that a restricted country cannot open an account, and sends nothing", async () => {
    const { user, callsTo } = renderApp("/account/sign-up", {
      "GET /restricted-countries": restricted,
    });
    const country = await screen.findByLabelText("Country");
    await user.selectOptions(country, "France");
    await waitFor(() =>
      expect(country).toHaveAccessibleDescription(signUpRestrictedMessage("France")),
    );
    await fill(user, screen.getByLabelText("First name"), "Ada");
    await fill(user, screen.getByLabelText("Last name"), "Lovelace");
    await fill(user, screen.getByLabelText("Email"), "ada@example.com");
    await fill(user, screen.getByLabelText("Password"), "Lovelace1843");
    await fill(user, screen.getByLabelText("Confirm password"), "Lovelace1843");
    await fill(user, screen.getByLabelText("Phone number"), "+33 1 23 45 67 89");
    await user.click(screen.getByLabelText("I am 18 or older and accept the Terms of Service"));
    await user.click(screen.getByRole("button", { name: "Register" }));
    await waitFor(() =>
      expect(country).toHaveAccessibleDescription(signUpRestrictedMessage("France")),
    );
    expect(callsTo("POST /register")).toHaveLength(0);

    // Another country: the message goes.
    await user.selectOptions(country, "Brazil");
    await waitFor(() => expect(country).not.toHaveAccessibleDescription(/cannot open accounts/));
  });

  it("the dashboard says real-money trading is off in the trader's country and practice is on", async () => {
    storeSession();
    renderApp("/user/dashboard", { "GET /restricted-countries": restricted });
    const note = await screen.findByRole("note", { name: "Real-money trading" });
    expect(note).toHaveTextContent(tradingRestrictedNotice("United Kingdom"));
    expect(note).toHaveTextContent("Practice trading is available.");
  });

  it("the deposit page says why deposits are off, with no deposit form", async () => {
    storeSession();
    renderApp("/user/fund-wallet", { "GET /restricted-countries": restricted });
    const note = await screen.findByRole("note", { name: "Deposits" });
    expect(note).toHaveTextContent(depositsRestrictedNotice("United Kingdom"));
    expect(screen.queryByRole("button", { name: "Fund Account" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
  });

  it("shows nothing of it to a trader elsewhere", async () => {
    storeSession();
    const { callsTo } = renderApp("/user/dashboard");
    await screen.findByRole("button", { name: "Call" });
    await waitFor(() => expect(callsTo("GET /restricted-countries")).not.toHaveLength(0));
    expect(screen.queryByRole("note", { name: "Real-money trading" })).not.toBeInTheDocument();
  });
});

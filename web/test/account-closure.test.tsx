import { screen, within } from "@testing-library/react";
import {
  type AccountClosure,
  accountClosureMessages,
  closureBalanceRemainingMessage,
  closureWaitText,
} from "@tp/domain/account-closure";
import { describe, expect, it } from "vitest";
import { failure, refusal, storeSession, success } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

const open: AccountClosure = {
  status: "open",
  requested_at: null,
  closed_at: null,
  waiting_for: [],
  record_retention_years: 7,
};
const closing: AccountClosure = {
  status: "closing",
  requested_at: "2026-01-15T12:00:00.000Z",
  closed_at: null,
  waiting_for: ["open_trades", "pending_withdrawals"],
  record_retention_years: 7,
};

/** Settings › Personal Data › Close account (issue 14 item 7). */
describe("closing the account", () => {
  it("says in the dialog what happens and for how long records are kept, then sends the password", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/personal-data", {
      "GET /account/closure": success({ closure: open }),
      "POST /account/closure": {
        ...success({ closure: closing }, accountClosureMessages.requested),
        status: 201,
      },
    });
    await user.click(await screen.findByRole("button", { name: "Close account" }));
    const dialog = screen.getByRole("dialog", { name: "Close your account" });
    expect(dialog).toHaveTextContent("Trading and deposits stop at once");
    expect(dialog).toHaveTextContent("Your practice balance is forfeited");
    expect(dialog).toHaveTextContent("for 7 years after closing");

    await user.click(within(dialog).getByRole("button", { name: "Close my account" }));
    expect(within(dialog).getByText(accountClosureMessages.passwordRequired)).toBeVisible();
    expect(callsTo("POST /account/closure")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Password"), "Lovelace1843");
    await user.click(within(dialog).getByRole("button", { name: "Close my account" }));
    expect(await findToast(accountClosureMessages.requested)).toBeInTheDocument();
    expect(callsTo("POST /account/closure")[0]!.body).toEqual({ password: "Lovelace1843" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(await screen.findByText(closureWaitText.open_trades)).toBeVisible();
    expect(screen.getByText(closureWaitText.pending_withdrawals)).toBeVisible();
  });

  it("shows the server's refusal: money to withdraw first, or a wrong password on its field", async () => {
    storeSession();
    let reply = refusal(409, "CLOSURE_BALANCE_REMAINING", closureBalanceRemainingMessage(12_50));
    const { user } = renderApp("/user/personal-data", {
      "GET /account/closure": success({ closure: open }),
      "POST /account/closure": () => reply,
    });
    await user.click(await screen.findByRole("button", { name: "Close account" }));
    const dialog = screen.getByRole("dialog", { name: "Close your account" });
    await user.type(within(dialog).getByLabelText("Password"), "Lovelace1843");
    await user.click(within(dialog).getByRole("button", { name: "Close my account" }));
    expect(await findToast(closureBalanceRemainingMessage(12_50))).toBeInTheDocument();

    reply = failure(422, accountClosureMessages.passwordWrong, {
      password: [accountClosureMessages.passwordWrong],
    });
    await user.click(within(dialog).getByRole("button", { name: "Close my account" }));
    expect(await within(dialog).findByText(accountClosureMessages.passwordWrong)).toBeVisible();
  });
});

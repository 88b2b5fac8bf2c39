import { screen, waitFor, within } from "@testing-library/react";
import type { UserView } from "@tp/domain/api";
import { fundingMessages as m } from "@tp/domain/funding";
import { describe, expect, it } from "vitest";
import { type FakeReply, storeSession, success, trader } from "./fake-api.ts";
import { bank, methodFixture, walletFixture } from "./funding-fixtures.ts";
import { fill, renderApp } from "./render-app.tsx";

/**
 * Fees on screen (issue 13 item 3): the forms compute the fee with the server's function
 * (domain/src/fees.ts) and show amount, fee and what arrives before the trader commits.
 */

// Deposits by Bitcoin: $2.00 + 1.5 %; withdrawals by Bitcoin: $1.00 + 0.5 %.
const bitcoinWithFees = methodFixture("bitcoin", {
  deposit_fee_fixed_cents: 200,
  deposit_fee_basis_points: 150,
  withdrawal_fee_fixed_cents: 100,
  withdrawal_fee_basis_points: 50,
});

const verifiedTrader: UserView = {
  ...trader,
  account: { ...trader.account, kyc_verified_at: "2025-02-01T00:00:00.000Z" },
};

const depositCreated: FakeReply = {
  status: 201,
  body: {
    status: "success",
    message: m.depositCreated,
    data: {
      deposit_id: 41,
      transaction_hash: "DEP-41ABC",
      // As the server snapshots it: 200 + 225 cents on $150.00.
      deposit: { fee: 4.25, net_amount: 145.75 },
    },
  },
};

function detailValue(scope: HTMLElement, label: string): string | null {
  const term = within(scope).getByText(label, { selector: "dt" });
  return term.nextElementSibling?.textContent ?? null;
}

describe("fees in the deposit form", () => {
  it("shows the fee and the credit as the trader types, refuses a fee that takes it all, and shows the server's figures next", async () => {
    storeSession();
    const view = renderApp("/user/fund-wallet", {
      "GET /payment-methods": success([bitcoinWithFees, bank]),
      "POST /deposits": depositCreated,
      "GET /payment-methods/bitcoin/wallet": success(walletFixture),
    });
    const list = within(await screen.findByRole("list", { name: "Payment methods" }));
    await view.user.click(list.getByRole("button", { name: /Bitcoin/ }));
    const preview = await screen.findByTestId("fee-preview");
    expect(preview).toHaveTextContent("Fee: $2.00 + 1.5%");

    const amount = screen.getByLabelText("Amount (USD)");
    await fill(view.user, amount, "150");
    expect(preview).toHaveTextContent(
      "Fee $4.25 ($2.00 + 1.5%) · Credited to your real balance: $145.75",
    );

    // $2.00 + 1.5 % of $2.00 (3 cents) = $2.03, more than the $2.00 typed: refused here.
    await view.user.clear(amount);
    await fill(view.user, amount, "2");
    expect(preview).toHaveTextContent("The amount must be more than its fee ($2.03)");
    await view.user.click(screen.getByRole("button", { name: "Fund Account" }));
    await waitFor(() =>
      expect(amount).toHaveAccessibleDescription("The amount must be more than its fee ($2.03)"),
    );
    expect(view.callsTo("POST /deposits")).toHaveLength(0);

    await view.user.clear(amount);
    await fill(view.user, amount, "150");
    await view.user.click(screen.getByRole("button", { name: "Fund Account" }));
    const details = (await screen.findByRole("heading", { name: "Payment details" })).closest(
      "section",
    ) as HTMLElement;
    expect(detailValue(details, "Amount to send")).toBe("$150.00");
    expect(detailValue(details, "Fee")).toBe("$4.25");
    expect(detailValue(details, "Credited to your real balance")).toBe("$145.75");
  });

  it("says there are no fees on a method without any", async () => {
    storeSession();
    const view = renderApp("/user/fund-wallet", { "GET /payment-methods": success([bank]) });
    const list = within(await screen.findByRole("list", { name: "Payment methods" }));
    await view.user.click(list.getByRole("button", { name: /Bank Transfer/ }));
    await fill(view.user, await screen.findByLabelText("Amount (USD)"), "80");
    expect(screen.getByTestId("fee-preview")).toHaveTextContent(
      "No fees · Credited to your real balance: $80.00",
    );
  });
});

describe("fees in the withdrawal form", () => {
  it("names the method's fee in the notice, shows fee and payout in the form and the confirmation", async () => {
    storeSession("token-123", verifiedTrader);
    const view = renderApp("/user/withdraw-funds", {
      "GET /user": success({ user: verifiedTrader }),
      "GET /payment-methods": success([bitcoinWithFees, bank]),
    });
    const notice = await screen.findByTestId("withdrawal-fee-notice");
    await waitFor(() => expect(notice).toHaveTextContent(/Some methods have a fee/));

    const list = within(await screen.findByRole("list", { name: "Withdrawal methods" }));
    await view.user.click(list.getByRole("button", { name: /Bitcoin/ }));
    expect(notice).toHaveTextContent(
      "Bitcoin withdrawals have a fee of $1.00 + 0.5%, taken out of the amount paid out.",
    );
    // 100 + 0.5 % of $50.00 (25 cents) = $1.25; $48.75 is paid out.
    await fill(view.user, await screen.findByLabelText("Amount (USD)"), "50");
    expect(screen.getByTestId("fee-preview")).toHaveTextContent(
      "Fee $1.25 ($1.00 + 0.5%) · Paid out to you: $48.75",
    );
    await fill(view.user, screen.getByLabelText("Wallet address"), "bc1qtraderaddress000000");
    await view.user.click(screen.getByRole("button", { name: "Continue" }));
    const confirm = (await screen.findByRole("heading", { name: "Confirm withdrawal" })).closest(
      "section",
    ) as HTMLElement;
    expect(detailValue(confirm, "Amount")).toBe("$50.00");
    expect(detailValue(confirm, "Fee")).toBe("$1.25");
    expect(detailValue(confirm, "Paid out to you")).toBe("$48.75");

    await view.user.click(within(confirm).getByRole("button", { name: "Back" }));
    await view.user.click(
      within(await screen.findByRole("list", { name: "Withdrawal methods" })).getByRole("button", {
        name: /Bank Transfer/,
      }),
    );
    expect(notice).toHaveTextContent("No fees on Bank Transfer withdrawals.");
  });
});

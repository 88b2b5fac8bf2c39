import { screen, waitFor, within } from "@testing-library/react";
import type { UserView } from "@tp/domain/api";
import { fundingMessages as m } from "@tp/domain/funding";
import { uiMessages } from "@tp/domain/messages";
import { describe, expect, it } from "vitest";
import { type FakeReply, failure, storeSession, success, trader } from "./fake-api.ts";
import { bank, bitcoin, methodFixture, westernUnion } from "./funding-fixtures.ts";
import { fill, findToast, renderApp } from "./render-app.tsx";

const verifiedTrader: UserView = {
  ...trader,
  account: { ...trader.account, kyc_verified_at: "2025-02-01T00:00:00.000Z" },
};

const usdtOff = methodFixture("usdt", { is_active: false, is_available: false });
const methods = [bitcoin, usdtOff, bank, westernUnion];

const withdrawalCreated: FakeReply = {
  status: 201,
  body: {
    status: "success",
    message: m.withdrawalRequested,
    data: {
      withdrawal_id: 9,
      transaction_hash: "WDR-9XYZ",
      account_balance: 1184.5,
      withdrawal: {
        id: 9,
        amount: 50,
        payment_method_id: "bitcoin",
        method: "Bitcoin",
        status: "pending",
        fee: 0,
        net_amount: 50,
        transaction_hash: "WDR-9XYZ",
        withdrawal_details: { amount: 50, wallet_address: "bc1qtraderaddress000000" },
        created_at: "2026-01-15T12:00:00.000Z",
        reviewed_at: null,
        rejection_reason: null,
        payout_reference: null,
        email_confirmed_at: null,
        timeline: [
          { step: "requested", at: "2026-01-15T12:00:00.000Z", expected_by: null, note: null },
          { step: "confirmed", at: null, expected_by: "2026-01-16T12:00:00.000Z", note: null },
        ],
      },
    },
  },
};

function renderWithdraw(routes: Parameters<typeof renderApp>[1] = {}, user = verifiedTrader) {
  storeSession("token-123", user);
  return renderApp("/user/withdraw-funds", {
    "GET /user": success({ user }),
    "GET /payment-methods": success(methods),
    "POST /withdrawals": withdrawalCreated,
    ...routes,
  });
}

type View = ReturnType<typeof renderApp>;

/** A refusal as the server sends it: its stable code beside the message. */
function refusal(status: number, code: string, message: string): FakeReply {
  return { status, body: { status: "error", code, message } };
}

async function choose(view: View, name: RegExp) {
  const list = within(await screen.findByRole("list", { name: "Withdrawal methods" }));
  await view.user.click(list.getByRole("button", { name }));
}

async function fillCrypto(view: View, amount = "50") {
  await choose(view, /Bitcoin/);
  await fill(view.user, await screen.findByLabelText("Amount (USD)"), amount);
  await fill(view.user, screen.getByLabelText("Wallet address"), "bc1qtraderaddress000000");
  await view.user.click(screen.getByRole("button", { name: "Continue" }));
}

describe("withdraw funds", () => {
  it("shows the spec's notice, the cross-link to deposit, and marks inactive methods", async () => {
    const view = renderWithdraw();
    const notice = within(
      await screen
        .findByRole("heading", { name: "Before you withdraw" })
        .then((heading) => heading.parentElement as HTMLElement),
    );
    expect(notice.getByText("Proof of identity and address may be required.")).toBeInTheDocument();
    // PRODUCT.md D11: none of these methods has a withdrawal fee configured.
    expect(await notice.findByText("No fees.")).toBeInTheDocument();
    expect(notice.getByText(/normally go by the method you deposited with/)).toBeInTheDocument();
    expect(notice.getByText(/not owned by the account holder are denied/)).toBeInTheDocument();
    expect(notice.getByText(/24-48 hours/)).toBeInTheDocument();
    expect(
      within(screen.getByRole("navigation", { name: "Funding" })).getByRole("link", {
        name: "Deposit",
      }),
    ).toHaveAttribute("href", "/user/fund-wallet");

    const list = within(await screen.findByRole("list", { name: "Withdrawal methods" }));
    const usdt = list.getByRole("button", { name: /USDT/ });
    expect(usdt).toHaveTextContent("Currently unavailable");
    await view.user.click(usdt);
    expect(await screen.findByText(m.methodUnavailableNotice)).toBeInTheDocument();
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
  });

  it.each([
    [/Bitcoin/, ["Wallet address"]],
    [/Western Union/, ["Receiver name", "Receiver address"]],
    [/Bank Transfer/, ["Bank name", "Account name", "Account number", "Routing number"]],
  ])("the form for %s asks for its own fields, each required", async (method, labels) => {
    const view = renderWithdraw();
    await choose(view, method);
    await view.user.click(await screen.findByRole("button", { name: "Continue" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Amount (USD)")).toHaveAccessibleDescription(m.amountRequired),
    );
    const required: Record<string, string> = {
      "Wallet address": m.walletAddressRequired,
      "Receiver name": m.receiverNameRequired,
      "Receiver address": m.receiverAddressRequired,
      "Bank name": m.bankNameRequired,
      "Account name": m.accountNameRequired,
      "Account number": m.accountNumberRequired,
      "Routing number": m.routingNumberRequired,
    };
    for (const label of labels) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(required[label]!);
    }
    expect(view.callsTo("POST /withdrawals")).toHaveLength(0);
  });

  it("refuses more than the real balance before asking the server", async () => {
    const view = renderWithdraw();
    await fillCrypto(view, "5000");
    await waitFor(() =>
      expect(screen.getByLabelText("Amount (USD)")).toHaveAccessibleDescription(
        m.insufficientBalance,
      ),
    );
    expect(screen.queryByRole("heading", { name: "Confirm withdrawal" })).not.toBeInTheDocument();
  });

  it("confirmation: Back resets without a call", async () => {
    const view = renderWithdraw();
    await fillCrypto(view);
    const confirm = within(
      (await screen.findByRole("heading", { name: "Confirm withdrawal" })).closest(
        "section",
      ) as HTMLElement,
    );
    expect(confirm.getByText("$50.00")).toBeInTheDocument();
    expect(confirm.getByText("bc1qtraderaddress000000")).toBeInTheDocument();
    await view.user.click(confirm.getByRole("button", { name: "Back" }));
    expect(await screen.findByRole("list", { name: "Withdrawal methods" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
    expect(view.callsTo("POST /withdrawals")).toHaveLength(0);
  });

  it("Confirm stores the request (with Idempotency-Key) and only then shows success", async () => {
    let answer: (reply: FakeReply) => void = () => {};
    const view = renderWithdraw({
      "POST /withdrawals": () => new Promise<FakeReply>((resolve) => (answer = resolve)),
    });
    await fillCrypto(view);
    await view.user.click(await screen.findByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("button", { name: "Processing..." })).toBeDisabled();
    expect(screen.queryByRole("heading", { name: "Withdrawal requested" })).not.toBeInTheDocument();

    const [call] = view.callsTo("POST /withdrawals");
    expect(call?.body).toEqual({
      payment_method_id: "bitcoin",
      amount: 50,
      expected_fee: 0,
      withdrawal_details: { amount: 50, wallet_address: "bc1qtraderaddress000000" },
    });
    expect(call?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    answer(withdrawalCreated);

    expect(
      await screen.findByRole("heading", { name: "Withdrawal requested" }),
    ).toBeInTheDocument();
    expect(await findToast(m.withdrawalRequested)).toBeInTheDocument();
    expect(screen.getByText("WDR-9XYZ")).toBeInTheDocument();
    expect(screen.getByText("$1,184.50")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View Transaction History" })).toHaveAttribute(
      "href",
      "/user/transaction-history",
    );
    await view.user.click(screen.getByRole("button", { name: "Make Another Withdrawal" }));
    expect(await screen.findByRole("list", { name: "Withdrawal methods" })).toBeInTheDocument();
  });

  it("a retried Confirm reuses the key of the reviewed request", async () => {
    let attempt = 0;
    const view = renderWithdraw({
      "POST /withdrawals": () => {
        attempt += 1;
        return attempt === 1 ? failure(503, "Service Unavailable") : withdrawalCreated;
      },
    });
    await fillCrypto(view);
    await view.user.click(await screen.findByRole("button", { name: "Confirm" }));
    expect(await findToast(m.withdrawalFailed)).toBeInTheDocument();
    expect(within(screen.getByRole("alert")).getByText(m.withdrawalFailed)).toBeInTheDocument();
    await view.user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(
      await screen.findByRole("heading", { name: "Withdrawal requested" }),
    ).toBeInTheDocument();
    const [first, second] = view.callsTo("POST /withdrawals");
    expect(first?.idempotencyKey).toBe(second?.idempotencyKey);
  });

  it("a missing e-mail verification: the server's message, and a way to resend", async () => {
    const unverified: UserView = { ...verifiedTrader, email_verified_at: null };
    const view = renderWithdraw(
      {
        "POST /withdrawals": refusal(403, "EMAIL_NOT_VERIFIED", m.emailNotVerified),
        "POST /email/resend": success(undefined, uiMessages.resendSuccess),
      },
      unverified,
    );
    expect(await screen.findByText("Your e-mail address is not verified.")).toBeInTheDocument();
    await fillCrypto(view);
    await view.user.click(await screen.findByRole("button", { name: "Confirm" }));
    expect(await findToast(m.emailNotVerified)).toBeInTheDocument();
    expect(within(screen.getByRole("alert")).getByText(m.emailNotVerified)).toBeInTheDocument();
    await view.user.click(screen.getByRole("button", { name: "Resend verification e-mail" }));
    expect(await findToast(uiMessages.resendSuccess)).toBeInTheDocument();
    expect(view.callsTo("POST /email/resend")[0]?.body).toEqual({ email: trader.email });
  });

  it("a missing identity verification: the server's message and a link to Security", async () => {
    const view = renderWithdraw(
      { "POST /withdrawals": refusal(403, "IDENTITY_NOT_VERIFIED", m.identityNotVerified) },
      trader,
    );
    expect(await screen.findByText("Your identity is not verified.")).toBeInTheDocument();
    await fillCrypto(view);
    await view.user.click(await screen.findByRole("button", { name: "Confirm" }));
    const alert = within(await screen.findByRole("alert"));
    expect(alert.getByText(m.identityNotVerified)).toBeInTheDocument();
    expect(alert.getByRole("link", { name: "Go to the Security page" })).toHaveAttribute(
      "href",
      "/user/security",
    );
  });

  it("insufficient balance from the server: its message and a link to deposit", async () => {
    const view = renderWithdraw({
      "POST /withdrawals": refusal(422, "INSUFFICIENT_FUNDS", m.insufficientBalance),
    });
    await fillCrypto(view);
    await view.user.click(await screen.findByRole("button", { name: "Confirm" }));
    const alert = within(await screen.findByRole("alert"));
    expect(alert.getByText(m.insufficientBalance)).toBeInTheDocument();
    expect(alert.getByRole("link", { name: "Deposit Funds" })).toHaveAttribute(
      "href",
      "/user/fund-wallet",
    );
  });
});

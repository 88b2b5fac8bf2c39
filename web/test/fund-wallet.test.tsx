import { screen, waitFor, within } from "@testing-library/react";
import { fundingMessages as m } from "@tp/domain/funding";
import { marketStateMessages } from "@tp/domain/market-state";
import { excludedMessage, moneyLimitReachedMessage } from "@tp/domain/trader-limits";
import { describe, expect, it } from "vitest";
import {
  type FakeReply,
  failure,
  marketsWith,
  refusal,
  storeSession,
  success,
} from "./fake-api.ts";
import {
  bank,
  bitcoin,
  fileOf,
  litecoinOff,
  pngBytes,
  unconfiguredMethod,
  walletFixture,
  westernUnion,
} from "./funding-fixtures.ts";
import { fill, findToast, queryToast, renderApp } from "./render-app.tsx";

const methods = [bitcoin, litecoinOff, bank, westernUnion];

const created = (id = 41, hash = "DEP-41ABC"): FakeReply => ({
  status: 201,
  body: {
    status: "success",
    message: m.depositCreated,
    data: { deposit_id: id, transaction_hash: hash },
  },
});

function renderDeposit(routes: Parameters<typeof renderApp>[1] = {}) {
  storeSession();
  return renderApp("/user/fund-wallet", {
    "GET /payment-methods": success(methods),
    "POST /deposits": created(),
    "GET /payment-methods/bitcoin/wallet": success(walletFixture),
    "DELETE /deposits/41": success({}, m.depositCancelled),
    "POST /deposits/41/receipt": success({}, m.depositSubmitted),
    ...routes,
  });
}

async function chooseMethod(view: ReturnType<typeof renderApp>, name: RegExp) {
  const list = within(await screen.findByRole("list", { name: "Payment methods" }));
  await view.user.click(list.getByRole("button", { name }));
}

async function fundAccount(view: ReturnType<typeof renderApp>, amount: string) {
  await fill(view.user, await screen.findByLabelText("Amount (USD)"), amount);
  await view.user.click(screen.getByRole("button", { name: "Fund Account" }));
}

describe("fund wallet: real trading unavailable (issue 11)", () => {
  it("says before any money is sent that a deposit cannot be traded while prices are simulated", async () => {
    renderDeposit();
    const notice = await screen.findByRole("note", { name: "Real-account trading" });
    expect(notice).toHaveTextContent(marketStateMessages.realUnavailable);
    expect(notice).toHaveTextContent("Practice Account");
    // Above the methods: read before a method is chosen.
    const list = await screen.findByRole("list", { name: "Payment methods" });
    expect(notice.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("says nothing while the real account may trade the markets", async () => {
    const view = renderDeposit({
      "GET /markets": marketsWith(() => ({ real_trading: true })),
    });
    await screen.findByRole("list", { name: "Payment methods" });
    await waitFor(() => expect(view.callsTo("GET /markets")).toHaveLength(1));
    // The reply is in the cache once the query says so; the notice still is not there.
    await waitFor(() => expect(view.queryClient.getQueryData(["markets"])).toBeDefined());
    expect(screen.queryByRole("note", { name: "Real-account trading" })).not.toBeInTheDocument();
  });
});

describe("fund wallet: method list and amount", () => {
  it("marks methods Recommended or Currently unavailable; unavailable ones cannot be chosen", async () => {
    const view = renderDeposit();
    const list = within(await screen.findByRole("list", { name: "Payment methods" }));
    const btc = list.getByRole("button", { name: /Bitcoin/ });
    expect(btc).toHaveTextContent("Recommended");
    const ltc = list.getByRole("button", { name: /Litecoin/ });
    expect(ltc).toHaveTextContent("Currently unavailable");
    expect(ltc).toHaveAttribute("aria-disabled", "true");

    await view.user.click(ltc);
    expect(await screen.findByText(m.methodUnavailableNotice)).toBeInTheDocument();
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
    expect(view.callsTo("POST /deposits")).toHaveLength(0);
  });

  it("says no deposit method is available yet, and why, when none can be used", async () => {
    renderDeposit({
      "GET /payment-methods": success([litecoinOff, unconfiguredMethod("bitcoin")]),
    });
    expect(await screen.findByText(m.noDepositMethods)).toBeInTheDocument();
    expect(screen.getByText(m.noDepositMethodsReason)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Contact support" })).toHaveAttribute(
      "href",
      "/contact",
    );
    expect(screen.queryByRole("list", { name: "Payment methods" })).not.toBeInTheDocument();
    expect(screen.queryByText("Currently unavailable")).not.toBeInTheDocument();
  });

  it("cross-links deposit and withdraw in the banner's tabs", async () => {
    renderDeposit();
    const tabs = within(await screen.findByRole("navigation", { name: "Funding" }));
    expect(tabs.getByRole("link", { name: "Withdraw" })).toHaveAttribute(
      "href",
      "/user/withdraw-funds",
    );
    expect(screen.getByRole("heading", { level: 1, name: "Deposit Funds" })).toBeInTheDocument();
  });

  it("checks the amount with the server's rules before any call", async () => {
    const view = renderDeposit();
    await chooseMethod(view, /Bitcoin/);
    await view.user.click(await screen.findByRole("button", { name: "Fund Account" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Amount (USD)")).toHaveAccessibleDescription(m.amountRequired),
    );
    await fundAccount(view, "0.5");
    await waitFor(() =>
      expect(screen.getByLabelText("Amount (USD)")).toHaveAccessibleDescription(m.amountMinimum),
    );
    await view.user.clear(screen.getByLabelText("Amount (USD)"));
    await fundAccount(view, "10.005");
    await waitFor(() =>
      expect(screen.getByLabelText("Amount (USD)")).toHaveAccessibleDescription(m.amountDecimals),
    );
    expect(view.callsTo("POST /deposits")).toHaveLength(0);
  });
});

describe("fund wallet: crypto deposit", () => {
  it('shows "Processing..." while the deposit opens, then the wallet, QR code and instructions', async () => {
    let answer: (reply: FakeReply) => void = () => {};
    const view = renderDeposit({
      "POST /deposits": () => new Promise<FakeReply>((resolve) => (answer = resolve)),
    });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await screen.findByRole("button", { name: "Processing..." })).toBeDisabled();
    // The fee the form showed (none here) goes with it: the server refuses a changed one.
    expect(view.callsTo("POST /deposits")[0]?.body).toEqual({
      payment_method_id: "bitcoin",
      amount: 100,
      expected_fee: 0,
    });
    expect(view.callsTo("POST /deposits")[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    answer(created());

    expect(await screen.findByRole("heading", { name: "Payment details" })).toBeInTheDocument();
    expect(screen.getByTestId("wallet-address")).toHaveTextContent(walletFixture.wallet_address);
    expect(screen.getByRole("img", { name: "QR code of the Bitcoin address" })).toBeInTheDocument();
    for (const line of walletFixture.instructions) {
      expect(screen.getByText(line)).toBeInTheDocument();
    }
    expect(screen.getByText("DEP-41ABC")).toBeInTheDocument();
  });

  it('copies the address: "Address copied!" and the icon changes for 2 seconds', async () => {
    const view = renderDeposit();
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    await view.user.click(await screen.findByRole("button", { name: "Copy wallet address" }));

    expect(await findToast(m.addressCopied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(walletFixture.wallet_address);
    const copied = screen.getByRole("button", { name: "wallet address: copied" });
    expect(copied).toHaveAttribute("data-copied", "true");
    await waitFor(
      () => expect(screen.getByRole("button", { name: "Copy wallet address" })).toBeInTheDocument(),
      { timeout: 3_500 },
    );
  });

  it("back from wallet details cancels the deposit (DELETE) and resets", async () => {
    const view = renderDeposit();
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    await screen.findByRole("heading", { name: "Payment details" });
    await view.user.click(screen.getByRole("button", { name: "Back" }));

    expect(await screen.findByRole("list", { name: "Payment methods" })).toBeInTheDocument();
    const cancels = view.callsTo("DELETE /deposits/41");
    expect(cancels).toHaveLength(1);
    expect(cancels[0]?.idempotencyKey).toBeTruthy();
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
  });

  it('says "Failed to cancel deposit" and keeps the details when the cancel fails', async () => {
    const view = renderDeposit({ "DELETE /deposits/41": failure(500, "Internal Server Error") });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    await screen.findByRole("heading", { name: "Payment details" });
    await view.user.click(screen.getByRole("button", { name: "Back" }));
    expect(await findToast(m.cancelFailed)).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Payment details" })).toBeInTheDocument();
  });

  it("a wallet without an address: both messages, the deposit cancelled, the flow reset", async () => {
    const view = renderDeposit({
      "GET /payment-methods/bitcoin/wallet": refusal(
        422,
        "WALLET_ADDRESS_UNAVAILABLE",
        m.walletNotAvailable,
      ),
    });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast(m.walletNotAvailable)).toBeInTheDocument();
    expect(await findToast(m.walletFailed)).toBeInTheDocument();
    await waitFor(() => expect(view.callsTo("DELETE /deposits/41")).toHaveLength(1));
    expect(screen.queryByRole("heading", { name: "Payment details" })).not.toBeInTheDocument();
  });

  it('"Payment method currently unavailable" when the method was switched off', async () => {
    const view = renderDeposit({
      "GET /payment-methods/bitcoin/wallet": refusal(
        422,
        "PAYMENT_METHOD_INACTIVE",
        m.methodCurrentlyUnavailable,
      ),
    });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast(m.methodCurrentlyUnavailable)).toBeInTheDocument();
    await waitFor(() => expect(view.callsTo("DELETE /deposits/41")).toHaveLength(1));
  });

  it('"Deposit failed" resets when the server gives nothing usable; its own message otherwise', async () => {
    let reply = failure(500, "Internal Server Error");
    const view = renderDeposit({ "POST /deposits": () => reply });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast(m.depositFailed)).toBeInTheDocument();
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();

    reply = failure(409, "You have 5 deposits awaiting payment.");
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast("You have 5 deposits awaiting payment.")).toBeInTheDocument();
  });

  it("a deposit past a deposit limit or during a break: the server's refusal as it is (issue 14)", async () => {
    const limitReached = moneyLimitReachedMessage("deposit_day", 500_00, 450_00);
    const excluded = excludedMessage("self_exclusion", "2027-05-24T10:00:00.000Z");
    let reply = refusal(403, "LIMIT_REACHED", limitReached);
    const view = renderDeposit({ "POST /deposits": () => reply });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast(limitReached)).toBeInTheDocument();
    expect(view.callsTo("GET /payment-methods/bitcoin/wallet")).toHaveLength(0);

    reply = refusal(403, "EXCLUDED", excluded);
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast(excluded)).toBeInTheDocument();
    expect(queryToast(m.depositFailed)).not.toBeInTheDocument();
  });

  it('"Invalid deposit response" when the reply has no deposit_id', async () => {
    const view = renderDeposit({ "POST /deposits": success({ transaction_hash: "X" }) });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    expect(await findToast(m.invalidDepositResponse)).toBeInTheDocument();
    expect(view.callsTo("GET /payment-methods/bitcoin/wallet")).toHaveLength(0);
  });

  it("uploads the payment proof as multipart with the read-only hash, then Make Another Deposit", async () => {
    const view = renderDeposit();
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    await view.user.click(await screen.findByRole("button", { name: "I've Made The Payment" }));

    expect(
      await screen.findByRole("heading", { name: "Upload Payment Proof" }),
    ).toBeInTheDocument();
    const hash = screen.getByLabelText("Transaction hash");
    expect(hash).toHaveValue("DEP-41ABC");
    expect(hash).toHaveAttribute("readonly");
    expect(screen.getByText("Image or PDF (max. 10MB)")).toBeInTheDocument();

    // Submit needs a file.
    await view.user.click(screen.getByRole("button", { name: "Submit Payment Proof" }));
    expect(await screen.findByText(m.receiptRequired)).toBeInTheDocument();
    // A file is judged by its bytes, not its name.
    const input = screen.getByLabelText("Payment receipt");
    await view.user.upload(input, fileOf([0x3c, 0x3f, 0x70, 0x68, 0x70], "shell.png", "image/png"));
    await view.user.click(screen.getByRole("button", { name: "Submit Payment Proof" }));
    expect(await screen.findByText(m.receiptType)).toBeInTheDocument();
    expect(view.callsTo("POST /deposits/41/receipt")).toHaveLength(0);

    await view.user.upload(input, fileOf(pngBytes, "receipt.png", "image/png"));
    await view.user.click(screen.getByRole("button", { name: "Submit Payment Proof" }));
    expect(await findToast(m.depositSubmitted)).toBeInTheDocument();
    const form = view.callsTo("POST /deposits/41/receipt")[0]?.form;
    expect(form?.get("transaction_hash")).toBe("DEP-41ABC");
    expect((form?.get("receipt") as File | undefined)?.name).toBe("receipt.png");

    const done = await screen.findByRole("heading", { name: m.depositSubmitted });
    const card = within(done.closest("section") as HTMLElement);
    expect(card.getByRole("link", { name: "Transaction History" })).toHaveAttribute(
      "href",
      "/user/transaction-history",
    );
    await view.user.click(screen.getByRole("button", { name: "Make Another Deposit" }));
    expect(await screen.findByRole("list", { name: "Payment methods" })).toBeInTheDocument();
  });

  it('"Failed to upload receipt" or the server\'s field error under the file', async () => {
    let reply = failure(500, "Internal Server Error");
    const view = renderDeposit({ "POST /deposits/41/receipt": () => reply });
    await chooseMethod(view, /Bitcoin/);
    await fundAccount(view, "100");
    await view.user.click(await screen.findByRole("button", { name: "I've Made The Payment" }));
    await view.user.upload(
      await screen.findByLabelText("Payment receipt"),
      fileOf(pngBytes, "r.png", "image/png"),
    );
    await view.user.click(screen.getByRole("button", { name: "Submit Payment Proof" }));
    expect(await findToast(m.receiptFailed)).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Upload Payment Proof" })).toBeInTheDocument();

    reply = failure(422, "The given data was invalid", { receipt: [m.receiptType] });
    await view.user.click(screen.getByRole("button", { name: "Submit Payment Proof" }));
    await waitFor(() =>
      expect(screen.getByLabelText("Payment receipt")).toHaveAccessibleDescription(m.receiptType),
    );
    expect(queryToast(m.depositSubmitted)).toBeNull();
  });
});

describe("fund wallet: bank and money transfer", () => {
  it('Bank Transfer Details with "Transfer"; back only returns, without cancelling', async () => {
    const view = renderDeposit();
    await chooseMethod(view, /Bank Transfer/);
    await fundAccount(view, "250");
    expect(
      await screen.findByRole("heading", { name: "Bank Transfer Details" }),
    ).toBeInTheDocument();
    for (const value of ["First Example Bank", "TradePlatform Ltd", "12345678", "FEBKGB2L"]) {
      expect(screen.getByText(value)).toBeInTheDocument();
    }
    expect(screen.getByText("SWIFT Code")).toBeInTheDocument();
    expect(view.callsTo("GET /payment-methods/bank-transfer/wallet")).toHaveLength(0);

    await view.user.click(screen.getByRole("button", { name: "Copy Account Number" }));
    expect(await findToast(m.copiedToClipboard)).toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Back" }));
    expect(await screen.findByLabelText("Amount (USD)")).toHaveValue(250);
    expect(view.calls.some((call) => call.method === "DELETE")).toBe(false);

    await view.user.click(screen.getByRole("button", { name: "Fund Account" }));
    await view.user.click(await screen.findByRole("button", { name: "Transfer" }));
    expect(
      await screen.findByRole("heading", { name: "Upload Payment Proof" }),
    ).toBeInTheDocument();
  });

  it("Western Union Details shows its key/value pairs as labels", async () => {
    const view = renderDeposit();
    await chooseMethod(view, /Western Union/);
    await fundAccount(view, "80");
    expect(
      await screen.findByRole("heading", { name: "Western Union Details" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Receiver name")).toBeInTheDocument();
    expect(screen.getByText("Jane Example")).toBeInTheDocument();
    expect(screen.getByText("Location")).toBeInTheDocument();
    expect(screen.getByText("Nairobi, Kenya")).toBeInTheDocument();
  });
});

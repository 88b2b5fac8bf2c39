import { screen, waitFor, within } from "@testing-library/react";
import { expirations } from "@tp/domain/catalogue";
import { notEnoughDataSentence } from "@tp/domain/losing-accounts";
import { marketStateMessages } from "@tp/domain/market-state";
import { tradeMessages } from "@tp/domain/trade-form";
import { describe, expect, it } from "vitest";
import { checkTrade, potentialProfit } from "../src/routes/dashboard/trade-rules.ts";
import {
  type FakeReply,
  type FakeRoutes,
  failure,
  marketsWith,
  siteContent,
  storeSession,
  success,
  tradeFixture,
  trader,
} from "./fake-api.ts";
import { fill, findToast, queryToast, renderApp } from "./render-app.tsx";

const practiceReminder =
  "Remember you are in practice mode, your profits and losses will not reflect in your main account.";

async function openDashboard(routes: FakeRoutes = {}) {
  storeSession();
  const view = renderApp("/user/dashboard", routes);
  await screen.findByRole("button", { name: "Call" });
  const form = {
    optionType: screen.getByLabelText("Option type"),
    asset: screen.getByLabelText("Asset"),
    amount: screen.getByLabelText("Amount (USD)"),
    expiration: screen.getByLabelText("Expiration"),
    profit: screen.getByRole("status", { name: "Potential profit" }),
    call: screen.getByRole("button", { name: "Call" }),
    put: screen.getByRole("button", { name: "Put" }),
  };
  return { ...view, form };
}

/** A valid practice trade: 10 dollars for 30 seconds on the pre-selected asset. */
async function fillValid(view: Awaited<ReturnType<typeof openDashboard>>, amount = "10") {
  await fill(view.user, view.form.amount, amount);
  await view.user.selectOptions(view.form.expiration, "30");
}

function deferred() {
  let resolve: (reply: FakeReply) => void = () => {};
  const promise = new Promise<FakeReply>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("trade form rules (SPEC §5)", () => {
  it("shows only the first failure, in the spec's order: asset, amount, expiration", async () => {
    const view = await openDashboard();
    const { form, user } = view;
    await user.selectOptions(form.asset, "");

    await user.click(form.call);
    expect(await findToast(tradeMessages.selectAsset)).toBeInTheDocument();
    expect(queryToast(tradeMessages.validAmount)).not.toBeInTheDocument();
    expect(queryToast(tradeMessages.selectExpiration)).not.toBeInTheDocument();
    expect(form.asset).toHaveAttribute("aria-invalid", "true");

    await user.selectOptions(form.asset, "GBPUSD");
    await user.click(form.put);
    expect(await findToast(tradeMessages.validAmount)).toBeInTheDocument();
    expect(queryToast(tradeMessages.selectExpiration)).not.toBeInTheDocument();

    await fill(user, form.amount, "10");
    await user.click(form.call);
    expect(await findToast(tradeMessages.selectExpiration)).toBeInTheDocument();

    expect(view.callsTo("POST /place-trade")).toHaveLength(0);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("calls an amount of 0 or below not valid, and keeps the platform's own amount rules", async () => {
    const { form, user } = await openDashboard();
    await user.selectOptions(form.expiration, "60");
    for (const amount of ["0", "-5"]) {
      await user.clear(form.amount);
      await fill(user, form.amount, amount);
      await user.click(form.call);
      expect(await findToast(tradeMessages.validAmount)).toBeInTheDocument();
    }
    await user.clear(form.amount);
    await fill(user, form.amount, "1.234");
    await user.click(form.call);
    expect(await findToast(tradeMessages.amountDecimals)).toBeInTheDocument();
    await user.clear(form.amount);
    await fill(user, form.amount, "0.5");
    await user.click(form.call);
    expect(await findToast(tradeMessages.amountMinimum)).toBeInTheDocument();
  });

  it("the amount input is a number field with min 0 and step 0.01", async () => {
    const { form } = await openDashboard();
    expect(form.amount).toHaveAttribute("type", "number");
    expect(form.amount).toHaveAttribute("min", "0");
    expect(form.amount).toHaveAttribute("step", "0.01");
  });

  it("checkTrade: an expiration that is not an option is Invalid expiration time; parses float and integer", () => {
    const values = {
      optionType: "forex" as const,
      asset: "EURUSD",
      amount: "12.5",
      expiration: "45",
    };
    expect(checkTrade(values, "call", true)).toEqual({
      ok: false,
      message: tradeMessages.invalidExpiration,
      field: "expiration",
    });
    expect(checkTrade({ ...values, expiration: "300" }, "put", false)).toEqual({
      ok: true,
      request: { asset: "EURUSD", type: "put", amount: 12.5, duration: 300, is_practice: false },
    });
    // An asset of another option type counts as none chosen (SPEC §4).
    expect(checkTrade({ ...values, asset: "BTCUSDT" }, "call", true)).toMatchObject({
      ok: false,
      message: tradeMessages.selectAsset,
    });
  });
});

describe("option type (SPEC §4) and the one selection (issue 11)", () => {
  it("opens on EURUSD for the chart and the form alike; changing the type selects its first asset, offers only its assets, and the chart follows", async () => {
    const { form, user } = await openDashboard();
    // One opening asset for both (market-selection.ts): the spec's chart symbol, so forex.
    expect(form.optionType).toHaveValue("forex");
    expect(form.asset).toHaveValue("EURUSD");
    expect(screen.getByRole("heading", { name: "EURUSD" })).toBeInTheDocument();

    await user.selectOptions(form.asset, "GBPUSD");
    expect(await screen.findByRole("heading", { name: "GBPUSD" })).toBeInTheDocument();
    await user.selectOptions(form.optionType, "crypto");
    expect(form.asset).toHaveValue("BTCUSDT");
    const options = within(form.asset)
      .getAllByRole("option")
      .map((option) => (option as HTMLOptionElement).value)
      .filter((value) => value !== "");
    expect(options).toEqual([
      "BTCUSDT",
      "BTCUSD",
      "ETHUSDT",
      "LTCUSDT",
      "BNBUSDT",
      "XRPUSDT",
      "ADAUSDT",
      "DOGEUSDT",
    ]);
    // Simulated prices carry no venue prefix (issue 11 item 8).
    expect(await screen.findByRole("heading", { name: "BTCUSDT" })).toBeInTheDocument();

    await user.selectOptions(form.optionType, "stocks");
    expect(form.asset).toHaveValue("AAPL");
    expect(await screen.findByRole("heading", { name: "AAPL" })).toBeInTheDocument();
    await user.selectOptions(form.optionType, "indices");
    expect(form.asset).toHaveValue("DE30");
    expect(await screen.findByRole("heading", { name: "DE30" })).toBeInTheDocument();
  });

  it("picking Gold in the trade box shows Gold on the chart and in the market panel; emptying the asset keeps the chart", async () => {
    const { form, user } = await openDashboard();
    const panel = within(screen.getByRole("complementary", { name: "Market overview" }));
    expect(panel.getByRole("tab", { name: "Forex" })).toHaveAttribute("aria-selected", "true");

    await user.selectOptions(form.optionType, "commodities");
    expect(form.asset).toHaveValue("XAUUSD");
    expect(await screen.findByRole("heading", { name: "XAUUSD" })).toBeInTheDocument();
    expect(panel.getByRole("tab", { name: "Commodities" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    expect(panel.getByRole("button", { name: /^XAUUSD/ })).toHaveAttribute("aria-pressed", "true");

    // "Select asset" empties the form (SPEC §5's first check) but the chart keeps Gold.
    await user.selectOptions(form.asset, "");
    expect(screen.getByRole("heading", { name: "XAUUSD" })).toBeInTheDocument();
    // Picking it again in the panel fills the form again.
    await user.click(panel.getByRole("button", { name: /^XAUUSD/ }));
    expect(form.asset).toHaveValue("XAUUSD");
  });

  it("the ticker selects everywhere, and the selection survives a reload", async () => {
    const { form, user, unmount } = await openDashboard();
    const ticker = within(screen.getByRole("region", { name: "Ticker" }));
    // The tape's second copy is hidden from the accessibility tree: one button per asset.
    await user.click(ticker.getByRole("button", { name: /^Bitcoin/ }));
    expect(form.optionType).toHaveValue("crypto");
    expect(form.asset).toHaveValue("BTCUSDT");
    expect(screen.getByRole("heading", { name: "BTCUSDT" })).toBeInTheDocument();
    expect(ticker.getByRole("button", { name: /^Bitcoin/ })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const panel = within(screen.getByRole("complementary", { name: "Market overview" }));
    expect(panel.getByRole("tab", { name: "Crypto" })).toHaveAttribute("aria-selected", "true");
    unmount();

    const again = await openDashboard();
    expect(again.form.asset).toHaveValue("BTCUSDT");
    expect(screen.getByRole("heading", { name: "BTCUSDT" })).toBeInTheDocument();
  });
});

describe("potential profit (SPEC §9)", () => {
  it("is amount × the payout of each expiration", async () => {
    const { form, user } = await openDashboard();
    expect(form.profit).toHaveTextContent("$0.00");
    await fill(user, form.amount, "100");
    expect(form.profit).toHaveTextContent("$0.00");
    const expected: Record<number, string> = {
      30: "$85.00",
      60: "$80.00",
      300: "$75.00",
      900: "$70.00",
      1800: "$65.00",
      3600: "$60.00",
    };
    for (const option of expirations) {
      await user.selectOptions(form.expiration, String(option.seconds));
      expect(form.profit).toHaveTextContent(expected[option.seconds] ?? "missing");
      expect(
        within(form.expiration).getByRole("option", {
          name: `${option.label} (${option.payoutPercent}%)`,
        }),
      ).toBeInTheDocument();
    }
  });

  it("rounds down to the cent, as the server pays", () => {
    expect(potentialProfit("10.01", "30")).toBe(8.5);
    expect(potentialProfit("1234.56", "900")).toBe(864.19);
    expect(potentialProfit("abc", "30")).toBe(0);
    expect(potentialProfit("10", "")).toBe(0);
  });
});

describe("confirmation modal (SPEC §2, §4)", () => {
  it("practice: shows the trade and the practice reminder; Cancel closes without a call", async () => {
    const view = await openDashboard();
    await fillValid(view);
    await view.user.click(view.form.call);
    const dialogElement = await screen.findByRole("dialog", { name: "Confirm Call trade" });
    const dialog = within(dialogElement);
    const rows = Object.fromEntries(
      [...dialogElement.querySelectorAll("dt")].map((term) => [
        term.textContent,
        term.nextElementSibling?.textContent,
      ]),
    );
    expect(rows).toEqual({
      Asset: "EURUSD",
      Type: "Call",
      "Amount (USD)": "$10.00",
      "Duration (seconds)": "30",
      "Potential Profit": "$8.50",
    });
    expect(dialog.getByText(practiceReminder)).toBeInTheDocument();
    await view.user.click(dialog.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(view.callsTo("POST /place-trade")).toHaveLength(0);
  });

  it("practice: Confirm Trade shows Processing..., then the server's message, clears amount and expiration, refetches the user", async () => {
    const reply = deferred();
    const view = await openDashboard({ "POST /place-trade": () => reply.promise });
    await fillValid(view, "10");
    await view.user.click(view.form.put);
    const dialog = within(await screen.findByRole("dialog", { name: "Confirm Put trade" }));
    const userCalls = view.callsTo("GET /user").length;
    await view.user.click(dialog.getByRole("button", { name: "Confirm Trade" }));

    expect(await dialog.findByRole("button", { name: "Processing..." })).toBeDisabled();
    expect(dialog.getByRole("button", { name: "Cancel" })).toBeDisabled();
    expect(view.form.call).toBeDisabled();
    expect(view.form.put).toBeDisabled();
    const [call] = view.callsTo("POST /place-trade");
    expect(call?.body).toEqual({
      asset: "EURUSD",
      type: "put",
      amount: 10,
      duration: 30,
      is_practice: true,
    });
    expect(call?.idempotencyKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );

    reply.resolve({
      status: 201,
      body: {
        status: "success",
        message: "Trade placed successfully",
        data: { trade: tradeFixture({ id: 9, asset: "EURUSD", type: "put", entry_price: 1.0812 }) },
      },
    });
    expect(await findToast("Trade placed successfully")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(view.form.amount).toHaveValue(null);
    expect(view.form.expiration).toHaveValue("");
    expect(view.form.asset).toHaveValue("EURUSD");
    await waitFor(() => expect(view.callsTo("GET /user").length).toBeGreaterThan(userCalls));
    // The placed trade shows among the open trades at once.
    const open = within(screen.getByRole("region", { name: "Open trades" }));
    expect(await open.findByText(/Entry 1\.08120/)).toBeInTheDocument();
  });

  it("a fresh Idempotency-Key for every confirmed trade", async () => {
    const view = await openDashboard({
      "POST /place-trade": {
        status: 201,
        body: {
          status: "success",
          message: "Trade placed successfully",
          data: { trade: tradeFixture() },
        },
      },
    });
    for (let round = 0; round < 2; round += 1) {
      await fillValid(view);
      await view.user.click(view.form.call);
      await view.user.click(await screen.findByRole("button", { name: "Confirm Trade" }));
      await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    }
    const keys = view.callsTo("POST /place-trade").map((call) => call.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("real: the first trade asks to acknowledge the risk warning; a refused trade does not use it up, a placed one does; no practice reminder", async () => {
    let placeReply: FakeReply = failure(422, tradeMessages.insufficientBalance);
    const view = await openDashboard({
      // An operator who allowed real trading on these prices.
      "GET /markets": marketsWith(() => ({ real_trading: true })),
      "POST /place-trade": () => placeReply,
    });
    await view.user.click(screen.getByRole("radio", { name: "Real Account" }));
    await fillValid(view);
    await view.user.click(view.form.call);

    const risk = within(await screen.findByRole("dialog", { name: "Risk warning" }));
    expect(risk.getByText(siteContent.risk_warning)).toBeInTheDocument();
    // Issue 14 item 5: the real share of losing accounts, here not yet enough data.
    expect(await risk.findByText(notEnoughDataSentence)).toBeInTheDocument();
    await view.user.click(risk.getByRole("button", { name: "I understand the risk" }));

    const dialog = within(await screen.findByRole("dialog", { name: "Confirm Call trade" }));
    expect(dialog.queryByText(practiceReminder)).not.toBeInTheDocument();
    await view.user.click(dialog.getByRole("button", { name: "Confirm Trade" }));
    expect(await findToast(tradeMessages.insufficientBalance)).toBeInTheDocument();
    expect(view.callsTo("POST /place-trade")[0]?.body).toMatchObject({ is_practice: false });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // Refused: the acknowledgement is not used up, the next real trade asks again.
    expect(window.localStorage.getItem(`risk_acknowledged:${trader.id}`)).toBeNull();

    placeReply = success({ trade: tradeFixture({ is_practice: false }) }, tradeMessages.placed);
    await view.user.click(view.form.put);
    const again = within(await screen.findByRole("dialog", { name: "Risk warning" }));
    await view.user.click(again.getByRole("button", { name: "I understand the risk" }));
    const confirm = within(await screen.findByRole("dialog", { name: "Confirm Put trade" }));
    await view.user.click(confirm.getByRole("button", { name: "Confirm Trade" }));
    expect(await findToast(tradeMessages.placed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(window.localStorage.getItem(`risk_acknowledged:${trader.id}`)).toBeTruthy();

    // Placed once: the next real trade goes straight to the confirmation.
    await fillValid(view);
    await view.user.click(view.form.put);
    expect(await screen.findByRole("dialog", { name: "Confirm Put trade" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Risk warning" })).not.toBeInTheDocument();
  });

  it("cancelling the risk warning places nothing and asks again next time", async () => {
    const view = await openDashboard({
      "GET /markets": marketsWith(() => ({ real_trading: true })),
    });
    await view.user.click(screen.getByRole("radio", { name: "Real Account" }));
    await fillValid(view);
    await view.user.click(view.form.call);
    const risk = within(await screen.findByRole("dialog", { name: "Risk warning" }));
    await view.user.click(risk.getByRole("button", { name: "Cancel" }));
    expect(window.localStorage.getItem(`risk_acknowledged:${trader.id}`)).toBeNull();
    await view.user.click(view.form.call);
    expect(await screen.findByRole("dialog", { name: "Risk warning" })).toBeInTheDocument();
    expect(view.callsTo("POST /place-trade")).toHaveLength(0);
  });

  it("real account on simulated prices: Call and Put are disabled before anything is pressed, with the reason and the way to the Practice Account", async () => {
    const view = await openDashboard({
      // Real trading allowed on every market but one: the chosen one decides.
      "GET /markets": marketsWith((market) => ({ real_trading: market.symbol !== "EURUSD" })),
    });
    expect(view.form.call).toBeEnabled();
    await view.user.click(screen.getByRole("radio", { name: "Real Account" }));
    // Once the market list is in (it may still be on its way on a slow machine).
    await waitFor(() => expect(view.form.call).toBeDisabled());
    expect(view.form.put).toBeDisabled();
    expect(view.form.call).toHaveAccessibleDescription(
      expect.stringContaining(marketStateMessages.realUnavailable),
    );
    // Another market the real account may trade: enabled again.
    await view.user.selectOptions(view.form.asset, "GBPUSD");
    expect(view.form.call).toBeEnabled();
    expect(screen.queryByText(marketStateMessages.realUnavailable)).not.toBeInTheDocument();
    await view.user.selectOptions(view.form.asset, "EURUSD");
    expect(view.form.put).toBeDisabled();

    await view.user.click(screen.getByRole("button", { name: "Use the Practice Account" }));
    expect(screen.getByRole("radio", { name: "Practice Account" })).toBeChecked();
    expect(view.form.call).toBeEnabled();
    expect(view.callsTo("POST /place-trade")).toHaveLength(0);
  });

  it("a closed market says when it opens, counting down, and a halted one says trading is paused; Call and Put wait", async () => {
    const opensAtMs = Date.now() + (2 * 60 + 14) * 60_000 - 30_000;
    const view = await openDashboard({
      "GET /markets": marketsWith((market) =>
        market.symbol === "EURUSD"
          ? { state: "closed", is_open: false, next_open_at: new Date(opensAtMs).toISOString() }
          : market.symbol === "GBPUSD"
            ? { state: "halted", is_open: false }
            : {},
      ),
    });
    const closed = "Market closed — opens in 2 h 14 min";
    const tradeBox = within(screen.getByRole("form", { name: "Trade form" }));
    expect(await tradeBox.findByText(closed)).toBeInTheDocument();
    expect(view.form.call).toBeDisabled();
    expect(view.form.put).toHaveAccessibleDescription(closed);
    // The same words over the chart.
    const banner = screen.getByRole("note", { name: "EUR/USD market state" });
    expect(banner).toHaveTextContent(closed);
    // The market panel marks it.
    const panel = within(screen.getByRole("complementary", { name: "Market overview" }));
    expect(
      within(panel.getByRole("button", { name: /^EURUSD/ })).getByText("Closed"),
    ).toBeInTheDocument();
    expect(
      within(panel.getByRole("button", { name: /^GBPUSD/ })).getByText("Delayed"),
    ).toBeInTheDocument();

    await view.user.selectOptions(view.form.asset, "GBPUSD");
    expect(tradeBox.getByText(marketStateMessages.halted)).toBeInTheDocument();
    expect(view.form.call).toBeDisabled();
    expect(screen.queryByText(closed)).not.toBeInTheDocument();
  });

  it("says Failed to place trade when the server says nothing usable, and the server's words otherwise", async () => {
    let next: FakeReply = {
      status: 500,
      body: { status: "error", message: "Internal Server Error" },
    };
    const view = await openDashboard({ "POST /place-trade": () => next });
    await fillValid(view);
    await view.user.click(view.form.call);
    await view.user.click(await screen.findByRole("button", { name: "Confirm Trade" }));
    expect(await findToast(tradeMessages.placeFailed)).toBeInTheDocument();
    // A failed trade keeps what was typed.
    expect(view.form.amount).toHaveValue(10);

    next = {
      status: 403,
      body: {
        status: "error",
        code: "SIMULATED_PRICES_REAL_ACCOUNT",
        message: tradeMessages.simulatedRealRefused,
      },
    };
    await view.user.click(view.form.call);
    await view.user.click(await screen.findByRole("button", { name: "Confirm Trade" }));
    expect(await findToast(tradeMessages.simulatedRealRefused)).toBeInTheDocument();
  });

  it("switching accounts swaps the form between practice and real", async () => {
    const view = await openDashboard({ "POST /place-trade": success({ trade: tradeFixture() }) });
    expect(screen.getByRole("radio", { name: "Practice Account" })).toBeChecked();
    expect(screen.getByText("Trading on your practice balance")).toBeInTheDocument();
    await view.user.click(screen.getByRole("radio", { name: "Real Account" }));
    expect(screen.getByRole("radio", { name: "Real Account" })).toBeChecked();
    expect(screen.getByText("Trading on your real balance")).toBeInTheDocument();
    expect(screen.getByText(marketStateMessages.realUnavailable)).toBeInTheDocument();
    const accounts = within(screen.getByRole("group", { name: "Account" }));
    expect(accounts.getByRole("link", { name: "Deposit" })).toHaveAttribute(
      "href",
      "/user/fund-wallet",
    );
    expect(accounts.getAllByRole("button", { name: "Top-up" })).toHaveLength(1);
  });
});

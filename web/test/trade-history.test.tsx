import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { pageWindow } from "../src/components/pagination.tsx";
import { tradeStatusLabel } from "../src/components/trade-format.ts";
import { type FakeReply, historyPage, storeSession, success, tradeFixture } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

const settled = {
  won: tradeFixture({
    id: 4,
    status: "won",
    exit_price: 1.081,
    exit_at: "2026-01-15T12:00:30.000Z",
    profit_loss: 8.5,
    settled_at: "2026-01-15T12:00:30.150Z",
  }),
  lost: tradeFixture({
    id: 3,
    asset: "BTCUSDT",
    type: "put",
    amount: 20,
    status: "lost",
    entry_price: 64000.5,
    exit_price: 64100.25,
    profit_loss: -20,
  }),
  tie: tradeFixture({
    id: 2,
    asset: "AAPL",
    status: "tie",
    entry_price: 190.5,
    exit_price: 190.5,
    profit_loss: 0,
  }),
  open: tradeFixture({ id: 1, status: "open", profit_loss: null }),
};

function bodyRows() {
  const [, ...rows] = screen.getAllByRole("row");
  return rows.map((row) =>
    within(row)
      .getAllByRole("cell")
      .map((cell) => cell.textContent),
  );
}

describe("trade history pages (SPEC §2 History pages)", () => {
  it("lists Timestamp, Asset, Call/Put, Amount, Profit/Loss and Status, with the status words of SPEC §4", async () => {
    storeSession();
    renderApp("/user/trade-history", {
      "GET /real-trade-history": historyPage([
        { ...settled.won, is_practice: false },
        { ...settled.lost, is_practice: false },
        { ...settled.tie, is_practice: false },
        { ...settled.open, is_practice: false },
      ]),
    });
    expect(
      await screen.findByRole("heading", { name: "Real Trading History" }),
    ).toBeInTheDocument();
    await screen.findByText("BTCUSDT");
    expect(
      within(screen.getByRole("table"))
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Timestamp", "Asset", "Call/Put", "Amount", "Profit/Loss", "Status"]);
    const rows = bodyRows();
    expect(rows.map((cells) => cells.slice(1))).toEqual([
      ["EURUSD", "Call", "$10.00", "+$8.50", "profits"],
      ["BTCUSDT", "Put", "$20.00", "-$20.00", "loss"],
      ["AAPL", "Call", "$10.00", "$0.00", "refund"],
      ["EURUSD", "Call", "$10.00", "N/A", "open"],
    ]);
    expect(rows[0]?.[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2}$/);
    // No pagination for a single page.
    expect(screen.queryByRole("navigation", { name: /pages$/ })).not.toBeInTheDocument();
  });

  it("maps every status: won → profits, lost → loss, tie → refund, anything else → open", () => {
    expect(tradeStatusLabel("won")).toBe("profits");
    expect(tradeStatusLabel("lost")).toBe("loss");
    expect(tradeStatusLabel("tie")).toBe("refund");
    expect(tradeStatusLabel("open")).toBe("open");
  });

  it("says Loading... first and No tradings found when there are none", async () => {
    storeSession();
    let answer: (reply: FakeReply) => void = () => {};
    renderApp("/user/trade-history", {
      "GET /real-trade-history": () =>
        new Promise<FakeReply>((resolve) => {
          answer = resolve;
        }),
    });
    // The page's own Loading... (the sign-in check shows one too, before the page).
    expect(await screen.findByRole("status", { name: "Loading trades" })).toHaveTextContent(
      "Loading...",
    );
    answer(historyPage([]));
    expect(await screen.findByText("No tradings found")).toBeInTheDocument();
  });

  it("shows page number buttons when there is more than one page, and asks for the page pressed", async () => {
    storeSession();
    const { user, callsTo } = renderApp("/user/trade-history", {
      "GET /real-trade-history": (call) => {
        const page = Number(new URL(call.path, "http://x").searchParams.get("page"));
        return historyPage(
          [
            tradeFixture({
              id: 100 + page,
              is_practice: false,
              asset: page === 1 ? "EURUSD" : "GBPUSD",
            }),
          ],
          page,
          10,
          25,
        );
      },
    });
    const pages = within(
      await screen.findByRole("navigation", { name: "Real Trading History pages" }),
    );
    expect(
      pages.getAllByRole("button", { name: /^Page \d$/ }).map((button) => button.textContent),
    ).toEqual(["1", "2", "3"]);
    expect(pages.getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();

    await user.click(pages.getByRole("button", { name: "Page 2" }));
    expect(await screen.findByText("GBPUSD")).toBeInTheDocument();
    expect(callsTo("GET /real-trade-history?page=2&limit=10")).toHaveLength(1);
    expect(pages.getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "page");

    await user.click(pages.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(callsTo("GET /real-trade-history?page=3&limit=10")).toHaveLength(1));
    expect(pages.getByRole("button", { name: "Next" })).toBeDisabled();
  });

  it("page numbers: first, last, the current one and its neighbours, gaps between", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([1, "gap", 4, 5, 6, "gap", 10]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, "gap", 10]);
    expect(pageWindow(10, 10)).toEqual([1, "gap", 9, 10]);
  });

  it("switches between real and practice history", async () => {
    storeSession();
    const { user, callsTo, router } = renderApp("/user/trade-history", {
      "GET /practice-trade-history": historyPage([
        tradeFixture({ id: 7, asset: "XAUUSD", entry_price: 2300 }),
      ]),
    });
    await screen.findByText("No tradings found");
    expect(screen.getByRole("tab", { name: "Real Trading History" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await user.click(screen.getByRole("tab", { name: "Practice Trading History" }));
    expect(
      await screen.findByRole("heading", { name: "Practice Trading History" }),
    ).toBeInTheDocument();
    expect(await screen.findByText("XAUUSD")).toBeInTheDocument();
    expect(callsTo("GET /practice-trade-history?page=1&limit=10")).toHaveLength(1);
    expect(router.state.location.search).toBe("?account=practice");
  });

  it("a row opens the trade's audit: entry and exit, feed, payout, settlement lag and the ticks around both", async () => {
    storeSession();
    const trade = { ...settled.won, is_practice: false };
    const { user, callsTo } = renderApp("/user/trade-history", {
      "GET /real-trade-history": historyPage([trade]),
      "GET /trades/4/receipt": success({}),
      "GET /trades/4": success({
        trade,
        audit: {
          entry_ticks: [
            { price: 1.07995, at: "2026-01-15T11:59:59.750Z" },
            { price: 1.08, at: "2026-01-15T12:00:00.000Z" },
            { price: 1.08002, at: "2026-01-15T12:00:00.250Z" },
          ],
          exit_ticks: [
            { price: 1.081, at: "2026-01-15T12:00:30.000Z" },
            { price: 1.08104, at: "2026-01-15T12:00:30.250Z" },
          ],
          settlement_lag_ms: 150,
          note: null,
          refund_reason: null,
        },
      }),
    });
    await user.click(await screen.findByText("EURUSD"));
    const dialogElement = await screen.findByRole("dialog", { name: "Trade #4 · EURUSD Call" });
    const dialog = within(dialogElement);
    expect(await dialog.findByText("150 ms")).toBeInTheDocument();
    const facts = Object.fromEntries(
      [...dialogElement.querySelectorAll("dt")].map((term) => [
        term.textContent,
        term.nextElementSibling?.textContent,
      ]),
    );
    expect(facts).toMatchObject({
      Account: "Real",
      "Entry price": "1.08000",
      "Exit price": "1.08100",
      Feed: "simulated",
      Payout: "85% ($8.50)",
      "Profit/Loss": "+$8.50",
      Status: "profits",
      "Settlement lag": "150 ms",
      Duration: "30 seconds",
      // Timing (issue 15 item 5): the order's arrival, and its acceptance after it.
      "Order received": expect.stringMatching(/:59\.988$/),
      Accepted: expect.stringMatching(/:00\.000 \(12 ms after\)$/),
      Rules: "Version 1",
    });
    const entryTicks = within(dialog.getByRole("table", { name: "Ticks around entry" }));
    expect(entryTicks.getAllByRole("row")).toHaveLength(4);
    expect(entryTicks.getByText("entry").closest("tr")).toHaveTextContent("1.08000");
    const exitTicks = within(dialog.getByRole("table", { name: "Ticks around expiry" }));
    expect(exitTicks.getByText("exit").closest("tr")).toHaveTextContent("1.08100");
    expect(callsTo("GET /trades/4")).toHaveLength(1);

    // The signed receipt (issue 15 item 1) downloads with the trader's token.
    URL.createObjectURL = vi.fn(() => "blob:receipt");
    URL.revokeObjectURL = vi.fn();
    // jsdom cannot follow the download link; the browser journey sees the real file.
    const save = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    await user.click(dialog.getByRole("button", { name: "Download receipt" }));
    expect(await screen.findByText("Downloaded trade-4-receipt.json")).toBeInTheDocument();
    const [receiptCall] = callsTo("GET /trades/4/receipt");
    expect(receiptCall?.authorization).toBe("Bearer token-123");
    expect(save).toHaveBeenCalledTimes(1);
    save.mockRestore();

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("an open trade's audit says N/A and has no exit yet", async () => {
    storeSession();
    const trade = { ...settled.open, is_practice: false };
    const { user } = renderApp("/user/trade-history", {
      "GET /real-trade-history": historyPage([trade]),
      "GET /trades/1": success({
        trade,
        audit: {
          entry_ticks: [],
          exit_ticks: [],
          settlement_lag_ms: null,
          note: null,
          refund_reason: null,
        },
      }),
    });
    await user.click(await screen.findByRole("button", { name: /^Audit of trade 1:/ }));
    const dialog = within(await screen.findByRole("dialog"));
    expect(await dialog.findAllByText("No ticks recorded")).toHaveLength(2);
    expect(dialog.getByText("N/A")).toBeInTheDocument();
    expect(dialog.getByText("open")).toBeInTheDocument();
  });
});

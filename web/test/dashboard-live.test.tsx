import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { tickerSymbols } from "../src/routes/dashboard/ticker-strip.tsx";
import { type FakeRoutes, failure, historyPage, storeSession, tradeFixture } from "./fake-api.ts";
import { findToast, renderApp } from "./render-app.tsx";

async function openDashboard(routes: FakeRoutes = {}) {
  storeSession();
  const view = renderApp("/user/dashboard", routes);
  await screen.findByRole("button", { name: "Call" });
  // The fake socket opens at once and accepts the token: the shell says so.
  expect(await screen.findByText("Online")).toBeInTheDocument();
  return view;
}

const marketOverview = () => within(screen.getByRole("complementary", { name: "Market overview" }));
const chart = () =>
  within(screen.getByRole("region", { name: /^(BINANCE:|NASDAQ:|OANDA:)?[A-Z0-9]+$/ }));

describe("live dashboard (PRODUCT.md D10)", () => {
  it("subscribes to what it shows, and ticks move the prices of the overview, the chart and the ticker", async () => {
    const { stream } = await openDashboard();
    await waitFor(() => expect(stream.subscribed()).toContain("EURUSD"));
    const subscribed = stream.subscribed();
    for (const symbol of [...tickerSymbols, "AUDCAD", "USDJPY", "XAUUSD"]) {
      expect(subscribed).toContain(symbol);
    }
    // The token goes in the first message, never in the URL.
    expect(stream.current().sent[0]).toEqual({ type: "auth", token: "token-123" });
    expect(stream.current().url).toBe("ws://localhost:3000/api/v1/stream");

    stream.tick("EURUSD", 1.23456);
    expect(await marketOverview().findByText("1.23456")).toBeInTheDocument();
    expect(chart().getByText("1.23456")).toBeInTheDocument();
    expect(
      within(screen.getByRole("region", { name: "Ticker" })).getAllByText("1.23456"),
    ).not.toHaveLength(0);
    // The 24 h change is measured from the reference close GET /markets implies (+0.5 % at 1.08).
    expect(marketOverview().getByText("+14.88%")).toBeInTheDocument();
  });

  it("a socket trade event opens a trade that counts down and says where it stands; its settlement is a toast and updates the rows", async () => {
    const { stream } = await openDashboard();
    const expiresAt = new Date(Date.now() + 30_000).toISOString();
    const open = tradeFixture({
      id: 21,
      start_time: new Date().toISOString(),
      expires_at: expiresAt,
    });
    stream.trade(open);

    const openTrades = within(screen.getByRole("region", { name: "Open trades" }));
    const row = await openTrades.findByRole("button", { name: /EURUSD Call/ });
    expect(within(row).getByText(/^0:[23]\d$/)).toBeInTheDocument();

    stream.tick("EURUSD", 1.081);
    expect(await within(row).findByText("In the money")).toBeInTheDocument();
    stream.tick("EURUSD", 1.079, new Date(Date.now() + 1));
    expect(await within(row).findByText("Out of the money")).toBeInTheDocument();

    const recent = within(screen.getByRole("region", { name: "Recent practice trades" }));
    expect(recent.getByText("open")).toBeInTheDocument();

    stream.trade({
      ...open,
      status: "won",
      exit_price: 1.081,
      exit_at: expiresAt,
      profit_loss: 8.5,
      settled_at: new Date().toISOString(),
    });
    expect(await findToast("Trade won: +$8.50 on EURUSD Call (practice)")).toBeInTheDocument();
    expect(await recent.findByText("profits")).toBeInTheDocument();
    expect(recent.getByText("+$8.50")).toBeInTheDocument();
    expect(recent.getByText("1.08100")).toBeInTheDocument();
    expect(within(row).getByText("profits")).toBeInTheDocument();
  });

  it("a lost and a tied trade get their own toasts, once each", async () => {
    const { stream } = await openDashboard();
    const settledAt = new Date().toISOString();
    const lost = tradeFixture({
      id: 31,
      status: "lost",
      exit_price: 1.07,
      profit_loss: -10,
      settled_at: settledAt,
    });
    stream.trade(lost);
    stream.trade(lost);
    expect(await findToast("Trade lost: -$10.00 on EURUSD Call (practice)")).toBeInTheDocument();
    stream.trade(
      tradeFixture({
        id: 32,
        type: "put",
        status: "tie",
        exit_price: 1.08,
        profit_loss: 0,
        settled_at: settledAt,
      }),
    );
    expect(
      await findToast("Trade tie: $10.00 refunded on EURUSD Put (practice)"),
    ).toBeInTheDocument();
    const region = within(screen.getByRole("region", { name: "Notifications" }));
    expect(region.getAllByText(/^Trade lost:/)).toHaveLength(1);
  });

  it("balance events update both balances", async () => {
    const { stream } = await openDashboard();
    stream.balance(500, 9990.5);
    expect(await screen.findByText("$500.00")).toBeInTheDocument();
    expect(screen.getByText("$9,990.50")).toBeInTheDocument();
  });

  it("when the socket drops it says Reconnecting and polls every 3 s; back online it reads everything again", async () => {
    const { stream, callsTo } = await openDashboard({
      "GET /practice-trade-history": historyPage([]),
    });
    stream.acceptConnections = false;
    act(() => stream.current().drop());
    expect(await screen.findByText("Reconnecting")).toBeInTheDocument();

    const markets = callsTo("GET /markets").length;
    const history = callsTo("GET /practice-trade-history").length;
    const user = callsTo("GET /user").length;
    await waitFor(
      () => {
        expect(callsTo("GET /markets").length).toBeGreaterThan(markets);
        expect(callsTo("GET /practice-trade-history").length).toBeGreaterThan(history);
        expect(callsTo("GET /user").length).toBeGreaterThan(user);
      },
      { timeout: 4_500 },
    );

    stream.acceptConnections = true;
    act(() => {
      window.dispatchEvent(new Event("online"));
    });
    expect(await screen.findByText("Online")).toBeInTheDocument();
    const sockets = stream.sockets.length;
    expect(sockets).toBeGreaterThanOrEqual(2);
    // The new socket asks for the same symbols again.
    await waitFor(() => expect(stream.subscribed()).toContain("EURUSD"));
  }, 15_000);

  it("a market_state message updates the market in place: closed with a countdown, halted, open again; no refetch", async () => {
    const { stream, callsTo } = await openDashboard();
    const markets = callsTo("GET /markets").length;
    const call = screen.getByRole("button", { name: "Call" });
    expect(call).toBeEnabled();
    const tradeForm = () => within(screen.getByRole("form", { name: "Trade form" }));

    const opensAt = new Date(Date.now() + 47 * 60_000 - 10_000).toISOString();
    stream.current().push({
      type: "market_state",
      symbol: "EURUSD",
      state: "closed",
      next_open_at: opensAt,
    });
    expect(await tradeForm().findByText("Market closed — opens in 47 min")).toBeInTheDocument();
    expect(call).toBeDisabled();
    expect(within(marketOverview().getByRole("button", { name: /^EURUSD/ })).getByText("Closed"));
    expect(screen.getByRole("note", { name: "EUR/USD market state" })).toHaveTextContent(
      "Market closed — opens in 47 min",
    );

    stream
      .current()
      .push({ type: "market_state", symbol: "EURUSD", state: "halted", next_open_at: null });
    expect(await tradeForm().findByText("Prices delayed — trading paused")).toBeInTheDocument();
    expect(within(marketOverview().getByRole("button", { name: /^EURUSD/ })).getByText("Delayed"));

    // A malformed state is ignored.
    stream
      .current()
      .push({ type: "market_state", symbol: "EURUSD", state: "asleep", next_open_at: null });
    stream
      .current()
      .push({ type: "market_state", symbol: "EURUSD", state: "open", next_open_at: null });
    await waitFor(() => expect(call).toBeEnabled());
    expect(screen.queryByRole("note", { name: "EUR/USD market state" })).not.toBeInTheDocument();
    expect(callsTo("GET /markets").length).toBe(markets);
  });

  it("a refetch message reads again what the page shows (the server's bus may have lost events)", async () => {
    const { stream, callsTo } = await openDashboard();
    const before = {
      markets: callsTo("GET /markets").length,
      history: callsTo("GET /practice-trade-history").length,
      user: callsTo("GET /user").length,
    };
    stream.current().push({ type: "refetch" });
    await waitFor(() => {
      expect(callsTo("GET /markets").length).toBeGreaterThan(before.markets);
      expect(callsTo("GET /practice-trade-history").length).toBeGreaterThan(before.history);
      expect(callsTo("GET /user").length).toBeGreaterThan(before.user);
    });
  });

  it("a trade placed after the page's first read but before the socket signed in shows once it does", async () => {
    storeSession();
    const placed = tradeFixture({
      id: 31,
      start_time: new Date().toISOString(),
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    let tradesOnServer: ReturnType<typeof tradeFixture>[] = [];
    const { stream, callsTo } = renderApp(
      "/user/dashboard",
      { "GET /practice-trade-history": () => historyPage(tradesOnServer) },
      { holdAuth: true },
    );
    await screen.findByRole("button", { name: "Call" });
    await waitFor(() => expect(callsTo("GET /practice-trade-history").length).toBe(1));
    const openTrades = within(screen.getByRole("region", { name: "Open trades" }));
    expect(openTrades.queryByRole("button", { name: /EURUSD Call/ })).not.toBeInTheDocument();

    // Placed elsewhere (another tab, the API) while the server had not yet indexed this
    // socket: its event went to no one.
    tradesOnServer = [placed];
    await waitFor(() => expect(stream.current().sent.some((m) => m.type === "auth")).toBe(true));
    stream.current().answerAuth();
    expect(await screen.findByText("Online")).toBeInTheDocument();
    expect(await openTrades.findByRole("button", { name: /EURUSD Call/ })).toBeInTheDocument();
  });

  it("a trade event reads the history again when its first read failed: nothing polls while live", async () => {
    const placed = tradeFixture({
      id: 33,
      start_time: new Date().toISOString(),
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    let failing = true;
    const { stream, callsTo } = await openDashboard({
      // A 4xx is not retried (dashboardRetry): the query stays failed until something reads it.
      "GET /practice-trade-history": () =>
        failing ? failure(429, "Too many requests") : historyPage([placed]),
    });
    const openTrades = within(screen.getByRole("region", { name: "Open trades" }));
    await waitFor(() => expect(callsTo("GET /practice-trade-history").length).toBeGreaterThan(0));
    // Settled into its failed state: no read on its way.
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    const before = callsTo("GET /practice-trade-history").length;
    expect(openTrades.queryByRole("button", { name: /EURUSD Call/ })).not.toBeInTheDocument();

    failing = false;
    stream.trade(placed);
    expect(await openTrades.findByRole("button", { name: /EURUSD Call/ })).toBeInTheDocument();
    expect(callsTo("GET /practice-trade-history").length).toBeGreaterThan(before);
  });

  it("a trade event during a read of the history that predates it is not undone when the read lands", async () => {
    const placed = tradeFixture({
      id: 32,
      start_time: new Date().toISOString(),
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    let tradesOnServer: ReturnType<typeof tradeFixture>[] = [];
    let hold: Promise<void> | null = null;
    let release = () => {};
    const { stream, callsTo } = await openDashboard({
      "GET /practice-trade-history": async () => {
        // The server reads now and answers later, as a slow reply does.
        const answer = historyPage([...tradesOnServer]);
        if (hold) await hold;
        return answer;
      },
    });
    const openTrades = within(screen.getByRole("region", { name: "Open trades" }));
    await waitFor(() => expect(callsTo("GET /practice-trade-history").length).toBeGreaterThan(0));
    const before = callsTo("GET /practice-trade-history").length;

    hold = new Promise((resolve) => {
      release = () => resolve();
    });
    stream.current().push({ type: "refetch" });
    await waitFor(() =>
      expect(callsTo("GET /practice-trade-history").length).toBeGreaterThan(before),
    );
    tradesOnServer = [placed];
    stream.trade(placed);
    expect(await openTrades.findByRole("button", { name: /EURUSD Call/ })).toBeInTheDocument();

    hold = null;
    act(() => release());
    // The stale read (without the trade) lands; the page must still show the trade.
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(openTrades.getByRole("button", { name: /EURUSD Call/ })).toBeInTheDocument();
  });

  it("a refused token leaves the socket short of live, so the page keeps polling", async () => {
    storeSession();
    const { callsTo } = renderApp("/user/dashboard", {}, { acceptAuth: false });
    await screen.findByRole("button", { name: "Call" });
    expect(await screen.findByText("Reconnecting")).toBeInTheDocument();
    const markets = callsTo("GET /markets").length;
    await waitFor(() => expect(callsTo("GET /markets").length).toBeGreaterThan(markets), {
      timeout: 4_500,
    });
  });

  it("picking a market shows a spinner for a second, then that market's chart; the form takes the asset", async () => {
    const { user } = await openDashboard();
    expect(screen.getByRole("heading", { name: "EURUSD" })).toBeInTheDocument();
    await user.click(marketOverview().getByRole("tab", { name: "Crypto" }));
    await user.click(marketOverview().getByRole("button", { name: /^BTCUSDT/ }));

    // Simulated prices carry no venue prefix (issue 11 item 8).
    expect(screen.getByText("Loading BTCUSDT chart")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "BTCUSDT" })).toBeInTheDocument();
    expect(screen.getByLabelText("Option type")).toHaveValue("crypto");
    expect(screen.getByLabelText("Asset")).toHaveValue("BTCUSDT");
    await waitFor(
      () => expect(screen.queryByText("Loading BTCUSDT chart")).not.toBeInTheDocument(),
      {
        timeout: 2_000,
      },
    );
    expect(marketOverview().getByRole("button", { name: /^BTCUSDT/ })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    await user.click(marketOverview().getByRole("tab", { name: "Stock" }));
    await user.click(marketOverview().getByRole("button", { name: /^TSLA/ }));
    expect(screen.getByRole("heading", { name: "TSLA" })).toBeInTheDocument();

    // Commodities and Indices are in the panel too (issue 11).
    await user.click(marketOverview().getByRole("tab", { name: "Indices" }));
    await user.click(marketOverview().getByRole("button", { name: /^US500/ }));
    expect(screen.getByLabelText("Option type")).toHaveValue("indices");
    expect(screen.getByLabelText("Asset")).toHaveValue("US500");
  });

  it("says Simulated prices on the chart while its asset's prices come from the simulator", async () => {
    const { stream } = await openDashboard();
    expect(chart().getByText("Simulated prices")).toBeInTheDocument();
    stream.tick("EURUSD", 1.0811, new Date(), "finnhub");
    await waitFor(() => expect(chart().queryByText("Simulated prices")).not.toBeInTheDocument());
  });

  it("the chart's theme follows class changes on <html> and storage events", async () => {
    const { user } = await openDashboard();
    const host = screen.getByTestId("price-chart");
    expect(host).toHaveAttribute("data-chart-theme", "light");

    act(() => document.documentElement.classList.add("dark"));
    await waitFor(() => expect(host).toHaveAttribute("data-chart-theme", "dark"));
    act(() => document.documentElement.classList.remove("dark"));
    await waitFor(() => expect(host).toHaveAttribute("data-chart-theme", "light"));

    // Another tab switches the theme: the storage event reaches this one.
    window.localStorage.setItem("theme", "dark");
    act(() => {
      fireEvent(window, new StorageEvent("storage", { key: "theme", newValue: "dark" }));
    });
    await waitFor(() => expect(host).toHaveAttribute("data-chart-theme", "dark"));

    await user.click(screen.getAllByRole("button", { name: "Switch to light theme" })[0]!);
    await waitFor(() => expect(host).toHaveAttribute("data-chart-theme", "light"));
  });

  it("platform time ticks every second", async () => {
    await openDashboard();
    const clock = document.querySelector("section time");
    if (clock === null) throw new Error("no platform time shown");
    const first = clock.getAttribute("datetime");
    await waitFor(() => expect(clock.getAttribute("datetime")).not.toBe(first), { timeout: 2_500 });
  });
});

import { screen, waitFor, within } from "@testing-library/react";
import { stateMessages } from "@tp/domain/messages";
import { describe, expect, it } from "vitest";
import {
  type FakeReply,
  failure,
  historyPage,
  marketsFixture,
  storeSession,
  success,
  tradeFixture,
  trader,
} from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

/**
 * Issue 13 item 5: every list tells loading, empty and failed apart, and a failure offers
 * Try again; the connection indicator follows failing requests; Top-up says why it is off;
 * the account status explains itself.
 */

/** A route that answers `failed` until `recover()` is called, then `ok`. */
function failingUntilRecovered(failed: FakeReply, ok: FakeReply) {
  let failing = true;
  return {
    route: () => (failing ? failed : ok),
    recover: () => {
      failing = false;
    },
  };
}

const connection = () => screen.getByRole("status", { name: /^Connection: / });

describe("the dashboard's recent trades when the API fails", () => {
  it("says the trades could not be loaded (not No tradings found), flags the connection, and Try again recovers", async () => {
    storeSession();
    const trades = failingUntilRecovered(
      failure(503, "Service Unavailable"),
      historyPage([tradeFixture({ id: 41, status: "won", profit_loss: 8.5 })]),
    );
    const { user, callsTo } = renderApp("/user/dashboard", {
      "GET /practice-trade-history": trades.route,
    });
    const recent = within(await screen.findByRole("region", { name: "Recent practice trades" }));
    // The dashboard's two retries run first (1 s, 2 s), then the failure shows.
    expect(await recent.findByRole("alert")).toHaveTextContent("Your trades could not be loaded");
    expect(recent.getByText(stateMessages.serverFailed(503))).toBeInTheDocument();
    expect(recent.queryByText("No tradings found")).not.toBeInTheDocument();
    // The socket is up, but the requests fail: the indicator does not say Online.
    await waitFor(() => expect(connection()).toHaveTextContent("Connection problem"));
    expect(connection()).toHaveAccessibleName(/Requests to the platform are failing \(HTTP 503\)/);
    const failedCalls = callsTo("GET /practice-trade-history").length;
    expect(failedCalls).toBe(3);

    trades.recover();
    await user.click(recent.getByRole("button", { name: "Try again" }));
    expect(await recent.findByRole("button", { name: /^Audit of trade 41/ })).toBeInTheDocument();
    expect(callsTo("GET /practice-trade-history")).toHaveLength(failedCalls + 1);
    expect(recent.queryByRole("alert")).not.toBeInTheDocument();
    await waitFor(() => expect(connection()).toHaveTextContent("Online"));
  }, 30_000);

  it("says Offline with the reason when requests get no answer at all", async () => {
    storeSession();
    renderApp("/user/dashboard", {
      "GET /practice-trade-history": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const recent = within(await screen.findByRole("region", { name: "Recent practice trades" }));
    expect(await recent.findByText(stateMessages.unreachable)).toBeInTheDocument();
    await waitFor(() => expect(connection()).toHaveTextContent("Offline"));
    expect(connection()).toHaveAccessibleName(/The platform cannot be reached/);
  }, 30_000);
});

describe("lists: loading, empty and failed", () => {
  it("transaction history: a refused read shows the reason and Try again, which then finds none", async () => {
    storeSession();
    const history = failingUntilRecovered(
      failure(429, "Too many requests: wait a minute"),
      success({ data: [], pagination: { last_page: 1, current_page: 1, total: 0 } }),
    );
    const { user, callsTo } = renderApp("/user/transaction-history", {
      "GET /transaction-history": history.route,
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Error loading transactions");
    expect(screen.getByText("Too many requests: wait a minute")).toBeInTheDocument();
    expect(screen.queryByText("No transactions yet.")).not.toBeInTheDocument();
    history.recover();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No transactions yet.")).toBeInTheDocument();
    expect(callsTo("GET /transaction-history")).toHaveLength(2);
  });

  it("notifications: Loading..., then failed with Try again, then the list", async () => {
    storeSession();
    // Reads are held open, then fail, then succeed. Every read of a phase gets that phase's
    // answer: the bell and the page share one cached read, but a busy machine may still see
    // a second read start before the first is answered.
    let phase: "held" | "failing" | "recovered" = "held";
    const held: Array<(reply: FakeReply) => void> = [];
    const refused = () => failure(403, "You are not allowed to do this");
    const { user } = renderApp("/user/notifications", {
      "GET /notifications": () => {
        if (phase === "held") return new Promise<FakeReply>((resolve) => held.push(resolve));
        if (phase === "failing") return refused();
        return success({
          data: [
            {
              id: 3,
              kind: "deposit_confirmed",
              title: "Deposit confirmed",
              message: "Your deposit of $50.00 was confirmed.",
              is_read: false,
              created_at: "2026-01-15T12:00:00.000Z",
            },
          ],
          unread_count: 1,
          pagination: { last_page: 1, current_page: 1, total: 1 },
        });
      },
    });
    expect(await screen.findByRole("status", { name: "Loading notifications" })).toHaveTextContent(
      "Loading...",
    );
    phase = "failing";
    for (const answer of held.splice(0)) answer(refused());
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load notifications");
    phase = "recovered";
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Deposit confirmed")).toBeInTheDocument();
  });
});

describe("panels and back-office tables", () => {
  it("the dashboard's market panel says prices could not be loaded, and Try again reads them", async () => {
    storeSession();
    const markets = failingUntilRecovered(
      failure(429, "Too many requests: wait a minute"),
      success({ markets: marketsFixture }),
    );
    const { user } = renderApp("/user/dashboard", { "GET /markets": markets.route });
    const panel = within(await screen.findByRole("complementary", { name: "Market overview" }));
    expect(await panel.findByRole("alert")).toHaveTextContent("Prices could not be loaded");
    expect(panel.getByText("Too many requests: wait a minute")).toBeInTheDocument();
    markets.recover();
    await user.click(panel.getByRole("button", { name: "Try again" }));
    expect(await panel.findByText("1.08000")).toBeInTheDocument();
    expect(panel.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("the back office's users table: failed with the reason and Try again, then the rows", async () => {
    const staff = { ...trader, id: 1, email: "staff@example.com", role: "admin" as const };
    storeSession("staff-token", staff);
    const users = failingUntilRecovered(
      failure(429, "Too many requests: wait a minute"),
      success({ data: [], pagination: { last_page: 1, current_page: 1, total: 0 } }),
    );
    const { user } = renderApp("/admin/users", {
      "GET /user": success({ user: staff }),
      "GET /admin/users": users.route,
    });
    expect(await screen.findByText("The users could not be loaded")).toHaveAttribute(
      "role",
      "alert",
    );
    users.recover();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No user matches.")).toBeInTheDocument();
  });
});

describe("practice Top-up", () => {
  it("is disabled with the reason while the practice balance is at the top-up level", async () => {
    storeSession();
    renderApp("/user/dashboard", {
      "GET /trading-conditions": success({
        real_trading_on_simulated_prices: false,
        practice_top_up_level: 10_000,
      }),
    });
    const reason = await screen.findByText(stateMessages.topUpAtLevel("$10,000.00"));
    const topUp = screen.getByRole("button", { name: "Top-up" });
    expect(topUp).toBeDisabled();
    expect(topUp).toHaveAccessibleDescription(reason.textContent ?? "");
  });

  it("is enabled below the level", async () => {
    const spent = { ...trader, account: { ...trader.account, practice_balance: 9_250 } };
    storeSession("token-123", spent);
    const { user, callsTo } = renderApp("/user/dashboard", {
      "GET /user": success({ user: spent }),
      "GET /trading-conditions": success({
        real_trading_on_simulated_prices: false,
        practice_top_up_level: 10_000,
      }),
      "POST /practice-balance/top-up": success({ practice_balance: 10_000 }),
    });
    // Wait for the conditions: until then the button is enabled anyway.
    await waitFor(() => expect(callsTo("GET /trading-conditions").length).toBeGreaterThan(0));
    const topUp = await screen.findByRole("button", { name: "Top-up" });
    expect(topUp).toBeEnabled();
    expect(screen.queryByText(/at its top-up level/)).not.toBeInTheDocument();
    await user.click(topUp);
    expect(callsTo("POST /practice-balance/top-up")).toHaveLength(1);
  });
});

describe("account status", () => {
  it("Inactive explains itself and links to the Security page's ID verification", async () => {
    storeSession();
    renderApp("/user/dashboard");
    const status = await screen.findByRole("link", { name: /^Inactive\s+Verify your identity$/ });
    expect(status).toHaveAttribute("href", "/user/security#verification-title");
    // The desktop top bar: the account status where SPEC §2 puts the Status indicator, and
    // the connection state beside it.
    const bar = status.closest("header");
    expect(bar).not.toBeNull();
    expect(within(bar as HTMLElement).getByText("Status")).toBeInTheDocument();
    expect(
      await within(bar as HTMLElement).findByRole("status", { name: /^Connection: Online/ }),
    ).toBeInTheDocument();
  });

  it("Active once the identity is verified", async () => {
    const verified = {
      ...trader,
      account: { ...trader.account, kyc_verified_at: "2026-01-10T09:00:00.000Z" },
    };
    storeSession("token-123", verified);
    renderApp("/user/dashboard", { "GET /user": success({ user: verified }) });
    // The top bar and the (closed) mobile panel both hold it.
    const statuses = await screen.findAllByTitle(stateMessages.activeExplained);
    for (const status of statuses) expect(status).toHaveTextContent("Active");
    expect(
      screen.queryByRole("link", { name: /^Inactive\s+Verify your identity$/ }),
    ).not.toBeInTheDocument();
  });
});

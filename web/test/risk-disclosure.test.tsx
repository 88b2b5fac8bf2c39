import { screen, within } from "@testing-library/react";
import { losingAccountsMethod, notEnoughDataSentence } from "@tp/domain/losing-accounts";
import { describe, expect, it } from "vitest";
import { success } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

/** The real share of losing accounts (issue 14 item 5) as the server states it. */
const figure = success({
  snapshot: {
    computed_at: "2026-01-15T00:05:00.000Z",
    period_start: "2025-01-15T00:05:00.000Z",
    period_end: "2026-01-15T00:05:00.000Z",
    accounts_traded: 250,
    accounts_lost: 185,
    min_accounts: 100,
    lost_percent: 74,
  },
  sentence: "74% of real-money accounts on this platform lost money trading in the last 12 months.",
  method: losingAccountsMethod(100),
});

describe("the share of losing accounts", () => {
  it("is added to the footer's risk warning, after the operator's own text", async () => {
    renderApp("/about", { "GET /risk-disclosure": figure });
    const footer = screen.getByRole("contentinfo");
    await within(footer).findByText(/74% of real-money accounts on this platform lost money/);
    expect(footer).toHaveTextContent(
      /Risk warning: .+ 74% of real-money accounts on this platform lost money trading in the last 12 months\./,
    );
    expect(within(footer).getByRole("link", { name: "Risk disclosure" })).toHaveAttribute(
      "href",
      "/risk-disclosure",
    );
  });

  it("says there is not enough data when the server states no figure", async () => {
    renderApp("/about");
    const footer = screen.getByRole("contentinfo");
    await within(footer).findByText(notEnoughDataSentence);
    expect(footer).not.toHaveTextContent(/\d+% of real-money/);
  });

  it("states nothing of its own when the figure cannot be read", async () => {
    renderApp("/about", { "GET /risk-disclosure": { status: 500, body: null } });
    await screen.findByRole("heading", { level: 1 });
    const footer = screen.getByRole("contentinfo");
    expect(footer).not.toHaveTextContent(/real-money accounts/);
  });

  it("has a public page with the figure, the period, the counts and the method", async () => {
    renderApp("/risk-disclosure", { "GET /risk-disclosure": figure });
    await screen.findByRole("heading", { level: 1, name: "Risk disclosure" });
    const main = await screen.findByRole("region", { name: "The figure" });
    expect(main).toHaveTextContent(
      "74% of real-money accounts on this platform lost money trading in the last 12 months.",
    );
    expect(main).toHaveTextContent("Real-money accounts that traded in the period250");
    expect(main).toHaveTextContent("Of those, accounts that lost money185");
    const method = screen.getByRole("region", { name: "How it is computed" });
    expect(method).toHaveTextContent("stakes count as negative, payouts and refunds as positive");
    expect(method).toHaveTextContent("When fewer than 100 accounts traded");
  });
});

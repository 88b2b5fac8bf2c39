import { screen, within } from "@testing-library/react";
import { rulebookView } from "@tp/domain/rulebook";
import { describe, expect, it } from "vitest";
import { success } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

/** The rulebook as the server publishes it (issue 15 item 4), with an operator's limits. */
const rulebook = success(
  rulebookView({ commodities: 2000, crypto: 2000, forex: 2000, stocks: 3000, indices: 2000 }),
);

describe("the trading rules page", () => {
  it("is linked from every page's footer", async () => {
    renderApp("/about", { "GET /rules": rulebook });
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("link", { name: "Trading rules" })).toHaveAttribute(
      "href",
      "/rules",
    );
  });

  it("shows the version, each rule, the payout table, the operator's limits and the change log", async () => {
    renderApp("/rules", { "GET /rules": rulebook });
    await screen.findByRole("heading", { level: 1, name: "Trading rules" });
    const rules = await screen.findByRole("region", { name: "Version 1" });
    expect(rules).toHaveTextContent("OutcomeA call wins when the exit price is above");
    const payouts = within(screen.getByRole("table", { name: "Payout table" }));
    expect(payouts.getAllByRole("row")).toHaveLength(7);
    expect(payouts.getByText("30 Seconds").closest("tr")).toHaveTextContent("85% of the stake");
    expect(payouts.getByText("1 Hour").closest("tr")).toHaveTextContent("60% of the stake");
    expect(screen.getByRole("region", { name: "Entry-price age limit" })).toHaveTextContent(
      "Stocks: 3 s",
    );
    expect(screen.getByRole("region", { name: "Change log" })).toHaveTextContent(
      "Version 1, in force from 2026-11-24",
    );
  });

  it("says so when the rules cannot be loaded", async () => {
    renderApp("/rules", { "GET /rules": { status: 500, body: null } });
    expect(await screen.findByText("The rules could not be loaded")).toBeInTheDocument();
  });
});

import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { simulatedRealBannerText } from "../src/components/simulated-real-banner.tsx";
import { success } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

describe("the simulated-prices banner (PRODUCT.md D2)", () => {
  it("shows on every page while real balances trade on simulated prices", async () => {
    renderApp("/about", {
      "GET /trading-conditions": success({
        real_trading_on_simulated_prices: true,
        practice_top_up_level: 10_000,
      }),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent(simulatedRealBannerText);
  });

  it("shows nothing otherwise", async () => {
    const { calls } = renderApp("/about", {
      "GET /trading-conditions": success({
        real_trading_on_simulated_prices: false,
        practice_top_up_level: 10_000,
      }),
    });
    await screen.findAllByRole("button", { name: "Switch to dark theme" });
    await vi.waitFor(() =>
      expect(calls.some((call) => call.path === "/trading-conditions")).toBe(true),
    );
    expect(screen.queryByText(simulatedRealBannerText)).toBeNull();
  });
});

import { screen, within } from "@testing-library/react";
import { type CryptoMarketData, marketInfoMessages } from "@tp/domain/market-info";
import { describe, expect, it } from "vitest";
import { failure, storeSession, success } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

const market: CryptoMarketData = {
  source: "CoinMarketCap",
  fetched_at: "2026-01-15T12:00:00.000Z",
  data: [
    {
      id: 1,
      name: "Bitcoin",
      symbol: "BTC",
      circulating_supply: 19_976_843.75,
      last_updated: "2026-01-15T11:59:00.000Z",
      quote: {
        USD: {
          price: 96_512.37,
          volume_24h: 41_235_512_211.63,
          market_cap: 1_928_012_535_432.19,
          percent_change_24h: -1.12,
        },
      },
    },
    {
      id: 74,
      name: "Dogecoin",
      symbol: "DOGE",
      circulating_supply: null,
      last_updated: "2026-01-15T11:59:00.000Z",
      // The provider gave no volume, cap or change: shown as unknown, never as 0.
      quote: {
        USD: { price: 0.2531, volume_24h: null, market_cap: null, percent_change_24h: null },
      },
    },
  ],
};

describe("crypto market page", () => {
  it("lists each coin with its logo from our own API, price, 24 h change, volume and cap", async () => {
    storeSession();
    const { callsTo } = renderApp("/user/crypto-market", {
      "GET /crypto-market-data": success(market),
    });
    const table = await screen.findByRole("table", { name: /Top 2 cryptocurrencies/ });
    const bitcoin = within(within(table).getByRole("row", { name: /Bitcoin/ }));
    expect(bitcoin.getAllByText("$96,512.37").length).toBeGreaterThan(0);
    expect(bitcoin.getAllByText("-1.12%").length).toBeGreaterThan(0);
    expect(bitcoin.getByRole("cell", { name: "$41.24B" })).toBeInTheDocument();
    expect(bitcoin.getByRole("cell", { name: "$1.93T" })).toBeInTheDocument();
    const logo = table.querySelector('img[src="/api/v1/crypto-market-data/images/1"]');
    expect(logo).not.toBeNull();

    const doge = within(within(table).getByRole("row", { name: /Dogecoin/ }));
    expect(doge.getAllByText("$0.2531").length).toBeGreaterThan(0);
    expect(doge.getAllByText("—").length).toBeGreaterThanOrEqual(3);
    expect(callsTo("GET /crypto-market-data")[0]?.path).toBe("/crypto-market-data?limit=20");
  });

  it("says why when market data is not set up, with a way to try again", async () => {
    storeSession();
    renderApp("/user/crypto-market", {
      "GET /crypto-market-data": failure(503, marketInfoMessages.cryptoMarketNotConfigured),
    });
    expect(await screen.findByText(marketInfoMessages.cryptoMarketNotConfigured)).toBeVisible();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

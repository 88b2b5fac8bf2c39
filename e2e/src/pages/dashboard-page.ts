import { expirations } from "@tp/domain/catalogue";
import type { Locator, Page } from "playwright-core";
import { expectVisible } from "./common.ts";

/**
 * /user/dashboard (SPEC §2 "Trading dashboard"): ticker strip, market overview (a
 * slide-over at ≤ 1024 px), chart, trade box with the account switcher, open trades and the
 * recent history.
 */
export class DashboardPage {
  readonly ticker: Locator;
  readonly chartSymbol: Locator;
  readonly chartCanvasHost: Locator;
  readonly marketsButton: Locator;
  readonly marketsSlideOver: Locator;
  readonly optionType: Locator;
  readonly asset: Locator;
  readonly amount: Locator;
  readonly expiration: Locator;
  readonly potentialProfit: Locator;
  readonly call: Locator;
  readonly put: Locator;
  readonly dialog: Locator;
  readonly openTrades: Locator;
  readonly recentTrades: Locator;

  constructor(readonly page: Page) {
    this.ticker = page.getByRole("region", { name: "Ticker" });
    this.chartSymbol = page.getByTestId("chart-symbol");
    this.chartCanvasHost = page.getByTestId("price-chart");
    this.marketsButton = page.getByRole("button", { name: "Markets", exact: true });
    this.marketsSlideOver = page.getByRole("dialog", { name: "Markets" });
    this.optionType = page.getByLabel("Option type", { exact: true });
    this.asset = page.getByLabel("Asset", { exact: true });
    this.amount = page.getByLabel("Amount (USD)", { exact: true });
    this.expiration = page.getByLabel("Expiration", { exact: true });
    this.potentialProfit = page.getByRole("status", { name: "Potential profit" });
    this.call = page.getByRole("button", { name: "Call", exact: true });
    this.put = page.getByRole("button", { name: "Put", exact: true });
    this.dialog = page.getByRole("dialog");
    this.openTrades = page.getByRole("region", { name: "Open trades" });
    this.recentTrades = page.getByRole("region", { name: /^Recent (practice|real) trades$/ });
  }

  async open(): Promise<void> {
    await this.page.goto("/user/dashboard");
    await expectVisible(this.call);
  }

  account(name: "Real Account" | "Practice Account"): Locator {
    return this.page.getByRole("radio", { name, exact: true });
  }

  /** The market overview, in the left column or (narrow screens) the slide-over. */
  async pickMarket(
    kind: "Forex" | "Crypto" | "Stock" | "Commodities" | "Indices",
    symbol: string,
  ): Promise<void> {
    if (await this.marketsButton.isVisible()) {
      await this.marketsButton.click();
      await expectVisible(this.marketsSlideOver);
    }
    const overview = this.page
      .getByRole("complementary", { name: "Market overview" })
      .or(this.marketsSlideOver);
    await overview.getByRole("tab", { name: kind, exact: true }).click();
    await overview.getByRole("button", { name: new RegExp(`^${symbol}\\b`) }).click();
  }

  /** `expiration` by its spec label ("30 Seconds", "1 Minute", …). */
  async fillTrade(options: {
    amount: string;
    expiration: (typeof expirations)[number]["label"];
  }): Promise<void> {
    const seconds = expirations.find((option) => option.label === options.expiration)?.seconds;
    await this.amount.fill(options.amount);
    await this.expiration.selectOption(String(seconds));
  }

  /**
   * The chart's background as r,g,b: the commonest colour of every pixel of its first canvas
   * (candles, grid lines and labels each cover only a little of it). Every pixel, not a grid of
   * samples: when the time scale's tick spacing divides the samples' spacing, whole columns of
   * samples sit on grid lines, and a CI run read the grid's colour for 15 s.
   */
  async chartBackgroundPixel(): Promise<string> {
    return this.chartCanvasHost.evaluate((host) => {
      const canvas = host.querySelector("canvas");
      const context = canvas?.getContext("2d");
      if (!canvas || !context || canvas.width === 0 || canvas.height === 0) return "no canvas";
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = new Map<number, number>();
      for (let offset = 0; offset < pixels.length; offset += 4) {
        const [red = 0, green = 0, blue = 0] = pixels.subarray(offset, offset + 3);
        const rgb = (red << 16) | (green << 8) | blue;
        counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
      }
      const commonest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      if (commonest === undefined) return "empty";
      return `${commonest >> 16},${(commonest >> 8) & 255},${commonest & 255}`;
    });
  }
}

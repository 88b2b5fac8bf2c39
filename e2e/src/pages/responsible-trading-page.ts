import type { Locator, Page } from "playwright-core";

/**
 * /user/responsible-trading (issue 14): one section per tool; the reality check's section
 * first. Also the reality check's dialog, which any signed-in page may show.
 */
export class ResponsibleTradingPage {
  readonly realityCheckHeading: Locator;
  readonly realityCheckEnabled: Locator;
  readonly realityCheckInterval: Locator;
  readonly saveRealityCheck: Locator;
  readonly dialog: Locator;
  readonly dialogs: Locator;

  constructor(readonly page: Page) {
    this.realityCheckHeading = page.getByRole("heading", { name: "Reality check" });
    this.realityCheckEnabled = page.getByLabel(
      "Show me a reality check while I trade with real money",
    );
    this.realityCheckInterval = page.getByLabel("Every");
    this.saveRealityCheck = page.getByRole("button", { name: "Save", exact: true });
    this.dialog = page.getByRole("dialog", { name: "Reality check" });
    this.dialogs = page.getByRole("dialog");
  }

  async setRealityCheckInterval(minutes: number): Promise<void> {
    await this.realityCheckInterval.selectOption(String(minutes));
    await this.saveRealityCheck.click();
  }

  /** A figure of the dialog ("Trades", "Stakes", "Result") as it reads. */
  async dialogFigure(label: string): Promise<string | null> {
    return this.dialog.locator("dt", { hasText: label }).locator("+ dd").textContent();
  }

  get continueButton(): Locator {
    return this.dialog.getByRole("button", { name: "Continue" });
  }

  get logOutButton(): Locator {
    return this.dialog.getByRole("button", { name: "Log out" });
  }
}

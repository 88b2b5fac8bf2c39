import type { Locator, Page } from "playwright-core";

/** /user/trade-history (SPEC §2 "History pages"): real and practice tabs, table, pages. */
export class TradeHistoryPage {
  readonly audit: Locator;

  constructor(readonly page: Page) {
    this.audit = page.getByRole("dialog", { name: /^Trade #\d+/ });
  }

  tab(name: "Real Trading History" | "Practice Trading History"): Locator {
    return this.page.getByRole("tab", { name, exact: true });
  }

  /** Trade `id`: its table row on wide screens, its card on phones. */
  row(id: number): Locator {
    return this.page.locator(`[data-trade-id="${id}"]:visible`);
  }

  async openAudit(id: number): Promise<void> {
    await this.row(id).click();
  }
}

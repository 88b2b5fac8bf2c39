import type { Locator, Page } from "playwright-core";

/**
 * The signed-in frame of every /user page (SPEC §2 "Navigation"): the desktop top bar and
 * secondary nav, and at ≤ 768 px the mobile top bar, its slide-in panel and the bottom bar.
 */
export class UserShell {
  // Desktop
  readonly logout: Locator;
  readonly depositFunds: Locator;
  readonly sectionsNav: Locator;
  // Mobile
  readonly menuButton: Locator;
  readonly panel: Locator;
  readonly bottomBar: Locator;

  constructor(readonly page: Page) {
    this.logout = page.getByRole("button", { name: "LOGOUT", exact: true });
    this.depositFunds = page.getByRole("link", { name: "Deposit Funds", exact: true }).first();
    this.sectionsNav = page.getByRole("navigation", { name: "Account sections" });
    this.menuButton = page.getByRole("button", { name: "Open menu" });
    this.panel = page.getByRole("dialog", { name: "Menu" });
    this.bottomBar = page.getByRole("navigation", { name: "Quick links" });
  }

  /** A top item of the secondary nav (TRADING, ACCOUNT, …): a link or a menu button. */
  sectionItem(name: string): Locator {
    return this.sectionsNav
      .getByRole("link", { name, exact: true })
      .or(this.sectionsNav.getByRole("button", { name, exact: true }));
  }

  /** Opens a secondary-nav menu (SETTINGS, …) and follows one of its links. */
  async goThroughMenu(menu: string, item: string): Promise<void> {
    await this.sectionItem(menu).click();
    await this.sectionsNav.getByRole("link", { name: item, exact: true }).click();
  }

  themeToggle(): Locator {
    return this.page.getByRole("button", { name: /^Switch to (dark|light) theme$/ }).first();
  }
}

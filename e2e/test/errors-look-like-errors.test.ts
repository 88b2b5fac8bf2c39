import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openSession, viewports } from "../src/browser.ts";
import { expectPath, expectVisible } from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { newTrader, registerByApi, startBrowserPlatform, type Trader } from "../src/platform.ts";

/**
 * Issue 13 item 5 in Chromium: with an API route failing, the dashboard says its trades
 * could not be loaded (not "No tradings found"), the connection indicator says so, and Try
 * again recovers once the route answers; a new account's Top-up is off with the reason; the
 * account status explains itself; toasts stay clear of the top bar. Layout and replies do
 * not depend on the database, so this runs on PGlite only.
 */
describeBrowser("errors that look like errors in Chromium", () => {
  let platform: TestPlatform;
  let browser: Browser;
  let trader: Trader;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startBrowserPlatform("pglite"), launchBrowser()]);
    trader = newTrader({ first_name: "Grace", last_name: "Hopper" });
    await registerByApi(platform, trader);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /**
   * The sign-in toast ("Login successful!") lies below the visible top bar. Its box is read
   * in the page the moment it shows: a success toast lasts 2 s, less than a slow CI step.
   */
  async function expectToastClearOf(page: Page) {
    // The top bar shown at this width (the other one is display: none).
    const header = page.locator("header:visible").first();
    const toast = await page.waitForFunction(() => {
      const item = document.querySelector('section[aria-label="Notifications"] > *');
      return item === null ? null : { top: item.getBoundingClientRect().top };
    });
    const { top } = (await toast.jsonValue()) as { top: number };
    // The shell is a lazy chunk: the toast can show before its top bar is drawn, and the
    // sign-in page's top bar can be swapped for the dashboard's between two reads, so the
    // box is read again until one top bar holds still long enough to be measured.
    let headerBottom = Number.NaN;
    await expect
      .poll(
        async () => {
          const found = await header.boundingBox({ timeout: 1_000 }).catch(() => null);
          headerBottom = found === null ? Number.NaN : found.y + found.height;
          return Number.isFinite(headerBottom);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(top).toBeGreaterThanOrEqual(headerBottom);
  }

  it("a failing trades route: the failure with Try again, the connection flagged, then recovery", async () => {
    const session = await openSession(browser, platform.baseUrl, viewports.desktop, {
      blockServiceWorkers: true,
    });
    const { page } = session;
    try {
      let failing = true;
      await page.route("**/api/v1/practice-trade-history*", async (route) => {
        if (!failing) return route.fallback();
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ status: "error", message: "Service Unavailable" }),
        });
      });
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(trader.email, trader.password);
      await expectPath(page, "/user/dashboard");
      await expectToastClearOf(page);

      const recent = page.getByRole("region", { name: "Recent practice trades" });
      await expectVisible(
        recent.getByRole("alert").filter({ hasText: "Your trades could not be loaded" }),
      );
      await expectVisible(
        recent.getByText("The server had a problem (HTTP 503)", { exact: false }),
      );
      expect(await recent.getByText("No tradings found").count()).toBe(0);
      const connection = page.getByRole("status", { name: /^Connection: / });
      await expectVisible(connection.filter({ hasText: "Connection problem" }));
      await expect
        .poll(() => connection.getAttribute("aria-label"))
        .toMatch(/Requests to the platform are failing \(HTTP 503\)/);

      // A new account sits at the top-up level: Top-up is off and says why.
      const topUp = page.getByRole("button", { name: "Top-up" });
      await expect.poll(() => topUp.isDisabled()).toBe(true);
      await expectVisible(page.getByText(/at its top-up level \(\$10,000\.00\)/));
      // Not verified yet: the top bar says Inactive, and what to do about it.
      const status = page.getByRole("link", { name: /^Inactive\s+Verify your identity$/ });
      await expectVisible(status);

      failing = false;
      await recent.getByRole("button", { name: "Try again" }).click();
      await expectVisible(recent.getByText("No tradings found"));
      expect(await recent.getByRole("alert").count()).toBe(0);
      await expect.poll(() => connection.textContent()).not.toMatch(/Connection problem|Offline/);

      await status.click();
      await expectPath(page, "/user/security");
      await expectVisible(page.getByRole("heading", { name: "ID verification" }));
      expect(session.problems).toEqual([]);
    } finally {
      await session.close();
    }
  }, 120_000);

  it("at 375 px: the toast sits below the top bar and the account status explains itself in the menu", async () => {
    const session = await openSession(browser, platform.baseUrl, viewports.mobile, {
      blockServiceWorkers: true,
    });
    const { page } = session;
    try {
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(trader.email, trader.password);
      await expectPath(page, "/user/dashboard");
      await expectToastClearOf(page);
      await page.getByRole("button", { name: "Open menu" }).click();
      const panel = page.getByRole("dialog", { name: "Menu" });
      await expectVisible(panel.getByRole("link", { name: /^Inactive\s+Verify your identity$/ }));
      await expectVisible(panel.getByRole("status", { name: /^Connection: / }));
      expect(session.problems).toEqual([]);
    } finally {
      await session.close();
    }
  }, 90_000);
});

import {
  excludedMessage,
  moneyLimitReachedMessage,
  traderLimitMessages,
  utcMomentText,
} from "@tp/domain/trader-limits";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { paths } from "../../web/src/paths.ts";
import { describeViolations, seriousViolations } from "../src/accessibility.ts";
import {
  type BrowserSession,
  describeBrowser,
  launchBrowser,
  openSession,
  type Viewport,
  viewports,
} from "../src/browser.ts";
import {
  approvedDepositByApi,
  configureBitcoinByApi,
  signInByApi,
  staff,
  staff_env,
} from "../src/funding.ts";
import {
  dismissToasts,
  expectHidden,
  expectNoHorizontalOverflow,
  expectPath,
  expectToast,
  expectVisible,
  storedItem,
} from "../src/pages/common.ts";
import { DashboardPage } from "../src/pages/dashboard-page.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { TraderLimitsSections } from "../src/pages/trader-limits-sections.ts";
import { api, newTrader, registerByApi, startBrowserPlatform } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

const themes = ["light", "dark"] as const;
type Theme = (typeof themes)[number];
const day_ms = 24 * 60 * 60_000;

/**
 * Issue 14 items 1 and 2 in Chromium: a trader sets a daily loss limit on the Responsible
 * trading page and sees it in force; raises it and sees the raise wait out the 24 hours with
 * its time; a real trade that would cross the limit is refused in the trade box with the
 * limit and what is used; then a 1-day time-out taken through its dialog stops trading. The
 * server's clock is the test platform's manual clock (not advanced: the raise stays pending);
 * the page's clock starts at the same time.
 */
describeBrowser.each(journeyOn("pglite"))("trader limits in Chromium on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;
  let staffToken: string;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startBrowserPlatform(kind, {
        ...staff_env,
        // Real trades on the test's own ticks (the platform's simulated prices).
        ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true",
      }),
      launchBrowser(),
    ]);
    staffToken = await signInByApi(platform, staff.email, staff.password);
    await configureBitcoinByApi(platform, staffToken);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /**
   * The whole page from its top: scrolled (the Save click scrolls), a full-page picture draws the
   * sticky top bar over the middle of the form.
   */
  async function wholePage(page: Page, name: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, name);
  }

  /** A fresh EURUSD price at the server's (manual) time, through the real ingestion path. */
  async function tick(price = 1.05) {
    platform.context.marketData.offer({
      symbol: "EURUSD",
      price,
      at: platform.clock.now().getTime(),
      source: "simulated",
    });
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** A trader with $200 of real money, signed in on the Responsible trading page. */
  async function fundedTraderOnPage(viewport: Viewport, theme: Theme): Promise<BrowserSession> {
    const trader = newTrader();
    await registerByApi(platform, trader);
    const apiToken = await signInByApi(platform, trader.email, trader.password);
    await approvedDepositByApi(platform, apiToken, staffToken, 200);

    const session = await openSession(browser, platform.baseUrl, viewport);
    await session.context.addInitScript((value) => {
      window.localStorage.setItem("theme", value);
    }, theme);
    await session.page.clock.install({ time: platform.clock.now() });
    await session.page.goto(paths.user.responsibleTrading);
    await expectPath(session.page, paths.signIn);
    await new SignInPage(session.page).signIn(trader.email, trader.password);
    await expectPath(session.page, paths.user.responsibleTrading);
    await expectVisible(new TraderLimitsSections(session.page).limitsHeading);
    return session;
  }

  /** A real 30-second Call of `amount` dollars on EURUSD through the trade box. */
  async function realCall(page: Page, amount: string, firstRealTrade: boolean) {
    await tick();
    const dashboard = new DashboardPage(page);
    await dashboard.open();
    await dashboard.account("Real Account").click();
    await dashboard.pickMarket("Forex", "EURUSD");
    await dashboard.fillTrade({ amount, expiration: "30 Seconds" });
    await expect.poll(() => dashboard.call.isEnabled()).toBe(true);
    await dashboard.call.click();
    if (firstRealTrade) {
      await page
        .getByRole("dialog", { name: "Risk warning" })
        .getByRole("button", { name: "I understand the risk" })
        .click();
    }
    await page
      .getByRole("dialog", { name: "Confirm Call trade" })
      .getByRole("button", { name: "Confirm Trade" })
      .click();
  }

  it("sets a daily loss limit, raises it (pending 24 h), is refused a trade past it, and takes a time-out (1280 px, light)", async () => {
    const session = await fundedTraderOnPage(viewports.desktop, "light");
    const { page } = session;
    const sections = new TraderLimitsSections(page);
    try {
      // Set where there was none: in force at once.
      expect(await sections.field("loss_day").inputValue()).toBe("");
      await sections.setLimit("loss_day", "50");
      await expectToast(page, traderLimitMessages.limitsSaved);
      await expect
        .poll(() => sections.limitBox("loss_day").textContent())
        .toContain("In force: $50.00. Used: $0.00");
      expect(await sections.field("loss_day").inputValue()).toBe("50");

      // Raised: the $50 stays in force for 24 hours, the raise shows with its time.
      const raisedAt = platform.clock.now().getTime();
      await sections.setLimit("loss_day", "100");
      await expectToast(page, traderLimitMessages.limitsSavedWithPending);
      const pending = `Raise to $100.00: takes effect ${utcMomentText(new Date(raisedAt + day_ms).toISOString())}`;
      await expectVisible(sections.limitBox("loss_day").getByText(pending, { exact: true }));
      expect(await sections.limitBox("loss_day").textContent()).toContain("In force: $50.00");
      expect(await sections.field("loss_day").inputValue()).toBe("50");
      await dismissToasts(page);
      await wholePage(page, "trader-limits-1280-light");

      // $25 at stake counts as lost while open; $30 more would pass the $50.
      await realCall(page, "25", true);
      await expectToast(page, "Trade placed successfully");
      await dismissToasts(page);
      await realCall(page, "30", false);
      const refusal = moneyLimitReachedMessage("loss_day", 50_00, 25_00);
      expect(refusal).toBe(
        "This trade would exceed your daily loss limit of $50.00 (used: $25.00)",
      );
      await expectToast(page, refusal);
      await screenshot(page, "trader-limits-refused-trade-1280-light", { fullPage: false });

      // The page says the same: $25 used.
      await page.goto(paths.user.responsibleTrading);
      await expect
        .poll(() => sections.limitBox("loss_day").textContent())
        .toContain("In force: $50.00. Used: $25.00");

      // A 1-day time-out through its dialog.
      await sections.chooseBreak("Time-out: 1 day");
      const dialog = sections.confirmDialog("time-out");
      await expectVisible(dialog);
      const startedAt = platform.clock.now().getTime();
      const endsAt = new Date(startedAt + day_ms).toISOString();
      const dialogText = (await dialog.textContent()) ?? "";
      // Counted in the page from its own clock (a few seconds on from the server's).
      expect(
        [endsAt, new Date(startedAt + day_ms + 60_000).toISOString()].some((end) =>
          dialogText.includes(
            `Trading and deposits stop at once and stay stopped until ${utcMomentText(end)}.`,
          ),
        ),
        dialogText,
      ).toBe(true);
      expect(dialogText).toContain("cannot be shortened or undone");
      expect(dialogText).toContain("Withdrawals stay available");
      expect(dialogText).toContain("trades already open settle normally");
      await screenshot(page, "trader-limits-break-dialog-1280-light", { fullPage: false });
      await dialog.getByRole("button", { name: "Start my time-out" }).click();
      await expectToast(page, traderLimitMessages.exclusionStarted);
      await expectHidden(dialog);
      const timeOutMessage = excludedMessage("time_out", endsAt);
      expect(await sections.breakInForce.textContent()).toBe(timeOutMessage);
      // Only longer breaks are offered now.
      expect(await sections.breakLength.locator("option").allTextContents()).not.toContain(
        "Time-out: 1 day",
      );
      await dismissToasts(page);
      await wholePage(page, "trader-limits-break-in-force-1280-light");

      // The trade box says so in place of Call and Put, and the server refuses a trade.
      await tick();
      const dashboard = new DashboardPage(page);
      await page.goto(paths.user.dashboard);
      const tradeBox = page.getByRole("region", { name: "Trade", exact: true });
      await expectVisible(tradeBox.getByRole("note", { name: "Break in force" }));
      expect(await tradeBox.getByRole("note", { name: "Break in force" }).textContent()).toBe(
        timeOutMessage,
      );
      expect(await dashboard.call.count()).toBe(0);
      await tradeBox.getByRole("note", { name: "Break in force" }).scrollIntoViewIfNeeded();
      await screenshot(page, "trader-limits-trade-box-break-1280-light", { fullPage: false });
      const refused = await api(platform, "POST", "/place-trade", {
        token: await storedItem(page, "token"),
        body: { asset: "EURUSD", type: "call", amount: 5, duration: 30, is_practice: false },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe("EXCLUDED");
      expect(refused.body.message).toBe(timeOutMessage);
      const practice = await api(platform, "POST", "/place-trade", {
        token: await storedItem(page, "token"),
        body: { asset: "EURUSD", type: "call", amount: 5, duration: 30, is_practice: true },
      });
      expect(practice.status, JSON.stringify(practice.body)).toBe(403);
      expect(practice.body.message).toBe(timeOutMessage);
      const deposit = await api(platform, "POST", "/deposits", {
        token: await storedItem(page, "token"),
        body: { payment_method_id: "bitcoin", amount: 50 },
      });
      expect(deposit.status, JSON.stringify(deposit.body)).toBe(403);
      expect(deposit.body.code).toBe("EXCLUDED");
      expect(deposit.body.message).toBe(timeOutMessage);
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-trader-limits-journey", { fullPage: false }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await session.close();
    }
  }, 180_000);

  const pictures: Array<[string, Theme, Viewport]> = [
    ["1280", "dark", viewports.desktop],
    ["375", "light", viewports.mobile],
    ["375", "dark", viewports.mobile],
  ];
  it.each(pictures)(
    "the limits, the break's dialog and the break in force at %s px, %s",
    async (width, theme, viewport) => {
      const session = await fundedTraderOnPage(viewport, theme);
      const { page } = session;
      const sections = new TraderLimitsSections(page);
      try {
        await sections.setLimit("loss_day", "50");
        await expectToast(page, traderLimitMessages.limitsSaved);
        await sections.setLimit("loss_day", "");
        await expectToast(page, traderLimitMessages.limitsSavedWithPending);
        await expectVisible(sections.limitBox("loss_day").getByText(/^Removal: takes effect /));
        await dismissToasts(page);
        await expectNoHorizontalOverflow(page);
        await wholePage(page, `trader-limits-${width}-${theme}`);
        const onPage = await seriousViolations(page);
        expect(onPage, describeViolations(onPage)).toEqual([]);

        await sections.chooseBreak("Self-exclusion: 6 months");
        const dialog = sections.confirmDialog("self-exclusion");
        await expectVisible(dialog);
        await screenshot(page, `trader-limits-break-dialog-${width}-${theme}`, {
          fullPage: false,
        });
        const inDialog = await seriousViolations(page);
        expect(inDialog, describeViolations(inDialog)).toEqual([]);
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await expectHidden(dialog);

        await sections.chooseBreak("Time-out: 1 day");
        await sections
          .confirmDialog("time-out")
          .getByRole("button", { name: "Start my time-out" })
          .click();
        await expectVisible(sections.breakInForce);
        await dismissToasts(page);
        await wholePage(page, `trader-limits-break-in-force-${width}-${theme}`);
        await page.goto(paths.user.dashboard);
        const tradeBox = page.getByRole("region", { name: "Trade", exact: true });
        await expectVisible(tradeBox.getByRole("note", { name: "Break in force" }));
        await tradeBox.getByRole("note", { name: "Break in force" }).scrollIntoViewIfNeeded();
        // Practice pauses too (the server refuses it during a break): no Call on either account.
        const dashboard = new DashboardPage(page);
        expect(await dashboard.account("Practice Account").isChecked()).toBe(true);
        expect(await dashboard.call.count()).toBe(0);
        await dashboard.account("Real Account").click();
        await expectVisible(tradeBox.getByRole("note", { name: "Break in force" }));
        expect(await dashboard.call.count()).toBe(0);
        await tradeBox.getByRole("note", { name: "Break in force" }).scrollIntoViewIfNeeded();
        await screenshot(page, `trader-limits-trade-box-break-${width}-${theme}`, {
          fullPage: false,
        });
        expect(session.problems).toEqual([]);
      } catch (error) {
        await screenshot(page, `failure-trader-limits-${width}-${theme}`, {
          fullPage: false,
        }).catch(() => undefined);
        throw error;
      } finally {
        await session.close();
      }
    },
    120_000,
  );
});

import { responsibleTradingMessages } from "@tp/domain/responsible-trading";
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
  expectHidden,
  expectPath,
  expectToast,
  expectVisible,
  storedItem,
} from "../src/pages/common.ts";
import { ResponsibleTradingPage } from "../src/pages/responsible-trading-page.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { UserShell } from "../src/pages/user-shell.ts";
import { api, newTrader, registerByApi, startBrowserPlatform } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

const themes = ["light", "dark"] as const;
type Theme = (typeof themes)[number];

/**
 * Issue 14 item 3 in Chromium: the Responsible trading page sets the reality check's
 * interval; after a real trade in the session the dialog comes at each interval from the
 * sign-in (the browser's clock is Playwright's, fast-forwarded; the server's is the test
 * platform's manual clock, started at the same time), Continue closes it until the next one
 * and Log out signs out.
 */
describeBrowser.each(journeyOn("pglite"))("the reality check in Chromium on %s", (kind) => {
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

  /** A funded trader signed in on the Responsible trading page, the page's clock at the server's. */
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
    await expectVisible(new ResponsibleTradingPage(session.page).realityCheckHeading);
    return session;
  }

  /** A tick of `symbol` at the server's (manual) time, through the real ingestion path. */
  async function tick(symbol: string, price: number, afterMs: number) {
    platform.clock.advance(afterMs);
    platform.context.marketData.offer({
      symbol,
      price,
      at: platform.clock.now().getTime(),
      source: "simulated",
    });
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** A real $25 call placed in the browser's session and settled as won: its profit. */
  async function realTradeWon(page: Page): Promise<number> {
    await tick("EURUSD", 1.05, 1_000);
    const placed = await api(platform, "POST", "/place-trade", {
      token: await storedItem(page, "token"),
      body: { asset: "EURUSD", type: "call", amount: 25, duration: 30, is_practice: false },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await tick("EURUSD", 1.2, 10_000);
    await tick("EURUSD", 1.1, 19_900);
    await tick("EURUSD", 1.1, 300);
    await platform.context.settlement.settleDue();
    const settled = await api(platform, "GET", `/trades/${placed.body.data.trade.id}`, {
      token: await storedItem(page, "token"),
    });
    expect(settled.body.data.trade.status).toBe("won");
    return settled.body.data.trade.profit as number;
  }

  /** The dialog, alone, 10 minutes into the session, with the trade's figures. */
  async function expectDialog(responsible: ResponsibleTradingPage, profit: number) {
    await expectVisible(responsible.dialog);
    await expect
      .poll(async () => responsible.dialog.textContent())
      .toMatch(/You have been signed in for 10 min\./);
    expect(await responsible.dialogFigure("Trades")).toBe("1");
    expect(await responsible.dialogFigure("Stakes")).toBe("$25.00");
    expect(await responsible.dialogFigure("Result")).toBe(`+$${profit.toFixed(2)}`);
    expect(await responsible.dialogs.count()).toBe(1);
  }

  it("set to 10 minutes on the page: the dialog at 10 min, Continue, and Log out at 20 min (1280 px, light)", async () => {
    const session = await fundedTraderOnPage(viewports.desktop, "light");
    const { page } = session;
    const responsible = new ResponsibleTradingPage(page);
    try {
      await expect.poll(async () => responsible.realityCheckInterval.inputValue()).toBe("60");
      expect(await responsible.realityCheckEnabled.isChecked()).toBe(true);
      await responsible.setRealityCheckInterval(10);
      await expectToast(page, responsibleTradingMessages.realityCheckSaved);
      await screenshot(page, "responsible-trading-1280-light");

      const profit = await realTradeWon(page);
      // Nine minutes in: not yet.
      await page.clock.fastForward("09:00");
      await page.waitForTimeout(300);
      await expectHidden(responsible.dialogs);
      await page.clock.fastForward("01:00");
      await expectDialog(responsible, profit);
      await screenshot(page, "reality-check-dialog-1280-light", { fullPage: false });

      await responsible.continueButton.click();
      await expectHidden(responsible.dialogs);
      // Another page of the app, and a reload: the timer follows the session, not the page.
      await new UserShell(page).goThroughMenu("STATEMENTS", "Trade History");
      await expectPath(page, paths.user.tradeHistory);
      await page.reload();
      await expectPath(page, paths.user.tradeHistory);
      await page.clock.fastForward("09:00");
      await page.waitForTimeout(300);
      await expectHidden(responsible.dialogs);
      await page.clock.fastForward("01:00");
      await expectVisible(responsible.dialog);
      await expect
        .poll(async () => responsible.dialog.textContent())
        .toMatch(/signed in for 20 min\./);
      await responsible.logOutButton.click();
      await expectPath(page, paths.signIn);
      expect(await storedItem(page, "token")).toBeNull();
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-reality-check-journey", { fullPage: false }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await session.close();
    }
  }, 120_000);

  const pictures: Array<[string, Theme, Viewport]> = [
    ["1280", "dark", viewports.desktop],
    ["375", "light", viewports.mobile],
    ["375", "dark", viewports.mobile],
  ];
  it.each(pictures)(
    "the page and the dialog at %s px, %s (the default interval: 60 min)",
    async (width, theme, viewport) => {
      const session = await fundedTraderOnPage(viewport, theme);
      const { page } = session;
      try {
        await screenshot(page, `responsible-trading-${width}-${theme}`);
        const onPage = await seriousViolations(page);
        expect(onPage, describeViolations(onPage)).toEqual([]);
        const profit = await realTradeWon(page);
        // The default interval: 60 minutes from the sign-in.
        await page.clock.fastForward("59:00");
        await page.waitForTimeout(300);
        await expectHidden(new ResponsibleTradingPage(page).dialogs);
        await page.clock.fastForward("01:00");
        const dialog = new ResponsibleTradingPage(page).dialog;
        await expectVisible(dialog);
        await expect.poll(async () => dialog.textContent()).toMatch(/signed in for 1 h 0 min\./);
        expect(await dialog.textContent()).toContain(`+$${profit.toFixed(2)}`);
        await screenshot(page, `reality-check-dialog-${width}-${theme}`, { fullPage: false });
        const inDialog = await seriousViolations(page);
        expect(inDialog, describeViolations(inDialog)).toEqual([]);
        expect(session.problems).toEqual([]);
      } catch (error) {
        await screenshot(page, `failure-reality-check-${width}-${theme}`, {
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

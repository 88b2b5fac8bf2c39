import {
  depositsRestrictedNotice,
  signUpRestrictedMessage,
  tradingRestrictedNotice,
} from "@tp/domain/restricted-countries";
import { ensureTodaysSnapshot } from "@tp/server/disclosure/losing-accounts";
import {
  houseAccountCode,
  postEntry,
  systemAccountId,
  traderAccountId,
} from "@tp/server/ledger/ledger";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seriousViolations } from "../src/accessibility.ts";
import {
  type BrowserSession,
  describeBrowser,
  launchBrowser,
  openSession,
  type Viewport,
  viewports,
} from "../src/browser.ts";
import { expectFieldError, expectPath, expectVisible } from "../src/pages/common.ts";
import { DashboardPage } from "../src/pages/dashboard-page.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { SignUpPage } from "../src/pages/sign-up-page.ts";
import { newTrader, registerByApi, startBrowserPlatform, type Trader } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

const day_ms = 24 * 60 * 60_000;

/**
 * Issue 14 items 4 and 5 in the browser: the share of losing accounts in the footer and on
 * /risk-disclosure, computed from a seeded ledger (3 traders, 2 lost: 67 %); France
 * restricted: the sign-up form says so as it is picked, a French trader's dashboard and
 * deposit page say what is off and why.
 */
describeBrowser.each(journeyOn("pglite"))(
  "restricted countries and the risk disclosure in Chromium on %s",
  (kind) => {
    let platform: TestPlatform;
    let browser: Browser;

    beforeAll(async () => {
      [platform, browser] = await Promise.all([
        startBrowserPlatform(kind, { RESTRICTED_COUNTRIES: "FR" }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await platform?.close();
    });

    async function registered(overrides: Partial<Trader> = {}) {
      const trader = newTrader({ country: "Brazil", ...overrides });
      await registerByApi(platform, trader);
      const row = await platform.database.query<{ id: number }>(
        "SELECT id FROM users WHERE email = $1",
        [trader.email.toLowerCase()],
      );
      return { ...trader, id: row.rows[0]!.id };
    }

    /** A deposit of $100, then one trade of $40 staked and paid `payoutCents` (0: lost). */
    async function traded(userId: number, reference: string, payoutCents: number) {
      const at = platform.clock.now();
      await platform.database.transaction(async (transaction) => {
        const real = await traderAccountId(transaction, userId, "real");
        const clearing = await systemAccountId(transaction, "deposits:clearing");
        const house = await systemAccountId(transaction, houseAccountCode(false, userId));
        await postEntry(transaction, {
          kind: "deposit",
          reference: `e2e:deposit:${reference}`,
          at,
          postings: [
            { accountId: real, amountCents: 100_00 },
            { accountId: clearing, amountCents: -100_00 },
          ],
        });
        await postEntry(transaction, {
          kind: "trade_stake",
          reference: `trade:e2e-${reference}`,
          at,
          postings: [
            { accountId: real, amountCents: -40_00 },
            { accountId: house, amountCents: 40_00 },
          ],
        });
        if (payoutCents > 0) {
          await postEntry(transaction, {
            kind: "trade_payout",
            reference: `trade:e2e-${reference}`,
            at,
            postings: [
              { accountId: real, amountCents: payoutCents },
              { accountId: house, amountCents: -payoutCents },
            ],
          });
        }
      });
    }

    async function signedIn(trader: Trader, viewport: Viewport): Promise<BrowserSession> {
      const session = await openSession(browser, platform.baseUrl, viewport);
      const signIn = new SignInPage(session.page);
      await signIn.open();
      await signIn.signIn(trader.email, trader.password);
      await expectPath(session.page, "/user/dashboard");
      return session;
    }

    it("states the share of losing accounts in the footer and on its page", async () => {
      const winner = await registered();
      const loserOne = await registered();
      const loserTwo = await registered();
      await traded(winner.id, "win", 74_00);
      await traded(loserOne.id, "lose-1", 0);
      await traded(loserTwo.id, "lose-2", 0);
      // The next day's figure, as the worker stores it after midnight (minimum 3 here).
      platform.clock.advance(day_ms);
      expect(await ensureTodaysSnapshot(platform.database, platform.clock.now(), 3)).toBe(true);
      const sentence =
        "67% of real-money accounts on this platform lost money trading in the last 12 months.";

      for (const [name, viewport] of Object.entries(viewports)) {
        const session = await openSession(browser, platform.baseUrl, viewport);
        try {
          const { page } = session;
          await page.goto("/");
          const footer = page.getByRole("contentinfo");
          await expectVisible(footer.getByText(sentence));
          await footer.getByRole("link", { name: "Risk disclosure" }).click();
          await expectPath(page, "/risk-disclosure");
          const figure = page.getByRole("region", { name: "The figure" });
          await expectVisible(figure.getByText(sentence));
          await expectVisible(figure.getByText("Real-money accounts that traded in the period"));
          await expectVisible(
            page.getByRole("region", { name: "How it is computed" }).getByText(/stakes count/),
          );
          await screenshot(page, `risk-disclosure-${name}`);
          expect(await seriousViolations(page)).toEqual([]);
          expect(session.problems).toEqual([]);
        } finally {
          await session.close();
        }
      }
    });

    it("the sign-up form refuses France as it is picked", async () => {
      const session = await openSession(browser, platform.baseUrl, viewports.desktop);
      try {
        const signUp = new SignUpPage(session.page);
        await signUp.open();
        await signUp.country.selectOption({ label: "France" });
        await expectFieldError(signUp.country, signUpRestrictedMessage("France"));
        await screenshot(session.page, "sign-up-restricted-country", { fullPage: false });
        expect(await seriousViolations(session.page)).toEqual([]);
        await signUp.country.selectOption({ label: "Brazil" });
        await expectFieldError(signUp.country, "");
        expect(session.problems).toEqual([]);
      } finally {
        await session.close();
      }
    });

    it("a French trader's dashboard and deposit page say what is off and why", async () => {
      const trader = await registered();
      // Declared France before it was restricted (the operator added it later).
      await platform.database.query("UPDATE users SET country = 'France' WHERE id = $1", [
        trader.id,
      ]);
      for (const [name, viewport] of Object.entries(viewports)) {
        const session = await signedIn(trader, viewport);
        try {
          const { page } = session;
          const trading = page.getByRole("note", { name: "Real-money trading" });
          await expectVisible(trading);
          expect(await trading.textContent()).toBe(tradingRestrictedNotice("France"));
          // On the real account the trade box says so and Call / Put are off before anything
          // is pressed; its link back to practice lifts the block.
          const dashboard = new DashboardPage(page);
          const tradeBox = page.getByRole("region", { name: "Trade", exact: true });
          await dashboard.account("Real Account").click();
          await expectVisible(tradeBox.getByText(tradingRestrictedNotice("France")));
          expect(await dashboard.call.isDisabled()).toBe(true);
          expect(await dashboard.put.isDisabled()).toBe(true);
          await screenshot(page, `dashboard-restricted-country-${name}`, { fullPage: false });
          await tradeBox.getByRole("button", { name: "Use the Practice Account" }).click();
          expect(await dashboard.account("Practice Account").isChecked()).toBe(true);
          expect(await tradeBox.getByText(tradingRestrictedNotice("France")).count()).toBe(0);
          expect(await seriousViolations(page)).toEqual([]);
          await page.goto("/user/fund-wallet");
          const deposits = page.getByRole("note", { name: "Deposits" });
          await expectVisible(deposits);
          expect(await deposits.textContent()).toBe(depositsRestrictedNotice("France"));
          expect(await page.getByRole("button", { name: "Fund Account" }).count()).toBe(0);
          await screenshot(page, `deposit-restricted-country-${name}`, { fullPage: false });
          expect(await seriousViolations(page)).toEqual([]);
          expect(session.problems).toEqual([]);
        } finally {
          await session.close();
        }
      }
    });
  },
);

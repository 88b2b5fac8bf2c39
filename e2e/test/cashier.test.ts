import { fundingMessages } from "@tp/domain/funding";
import { expireUnpaidDeposits } from "@tp/server/funding/deposits";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
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
  filePayload,
  receiptPng,
  signInByApi,
  staff,
  staff_env,
} from "../src/funding.ts";
import { expectPath, expectToast, expectVisible } from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { api, newTrader, registerByApi, startBrowserPlatform } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

const hour_ms = 60 * 60 * 1000;

/** A transaction history row (table row or phone card), by its transaction id. */
function transactionRow(page: Page, transactionId: string): Locator {
  return page.locator(`[data-transaction="${transactionId}"]:visible`);
}

/**
 * Issue 13 item 4's browser journeys, a cashier with no dead ends: a deposit left unpaid
 * expires and the trader is told; an unpaid deposit is continued from the history to its
 * proof step; a pending withdrawal's timeline is read and the withdrawal cancelled.
 */
describeBrowser.each(journeyOn("postgres"))("the cashier in Chromium on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;
  let staffToken: string;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startBrowserPlatform(kind, {
        ...staff_env,
        // The withdrawal journey is about the timeline, not the gates before it.
        REQUIRE_VERIFIED_EMAIL_FOR_WITHDRAWAL: "false",
        REQUIRE_KYC_FOR_WITHDRAWAL: "false",
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

  async function traderWithToken() {
    const trader = newTrader();
    await registerByApi(platform, trader);
    return { trader, token: await signInByApi(platform, trader.email, trader.password) };
  }

  async function signedIn(
    email: string,
    password: string,
    viewport: Viewport,
    start: string,
  ): Promise<BrowserSession> {
    const session = await openSession(browser, platform.baseUrl, viewport);
    await session.page.goto(start);
    await expectPath(session.page, "/account/sign-in");
    await new SignInPage(session.page).signInThroughSecondFactor(platform, email, password);
    await expectPath(session.page, start);
    return session;
  }

  const openDeposit = async (token: string, amount: number) => {
    const created = await api(platform, "POST", "/deposits", {
      token,
      body: { payment_method_id: "bitcoin", amount },
    });
    expect(created.status).toBe(201);
    return created.body.data as { deposit_id: number; transaction_hash: string };
  };

  it("a deposit left unpaid expires, the trader is told; another is continued to its proof step and sent", async () => {
    const { trader, token } = await traderWithToken();
    const forgotten = await openDeposit(token, 75);
    const window_hours = platform.context.config.DEPOSIT_PAYMENT_WINDOW_HOURS;
    platform.clock.advance(window_hours * hour_ms - 60_000);
    const unpaid = await openDeposit(token, 150);
    platform.clock.advance(60_000);
    // The expiry worker's pass, at the platform's clock (the worker polls once a minute).
    expect(await expireUnpaidDeposits(platform.context, platform.clock.now())).toBe(1);

    const session = await signedIn(
      trader.email,
      trader.password,
      viewports.desktop,
      "/user/transaction-history",
    );
    const { page } = session;
    try {
      const expired = transactionRow(page, forgotten.transaction_hash);
      await expectVisible(expired.getByText("expired unpaid"));
      await expect(expired.getByRole("link", { name: /Continue/ }).count()).resolves.toBe(0);
      const open = transactionRow(page, unpaid.transaction_hash);
      await expectVisible(open.getByText("awaiting payment"));
      await screenshot(page, "cashier-history-unpaid-and-expired-1280", { fullPage: false });

      await page.goto("/user/notifications");
      await expectVisible(page.getByText("Deposit expired").first());
      await expectVisible(page.getByText(new RegExp(forgotten.transaction_hash)).first());

      await page.goto("/user/transaction-history");
      await transactionRow(page, unpaid.transaction_hash)
        .getByRole("link", { name: /Continue deposit/ })
        .click();
      await expectPath(page, "/user/fund-wallet");
      await expectVisible(page.getByRole("heading", { name: "Upload Payment Proof" }));
      await expectVisible(page.getByText("$150.00").first());
      await expect(page.getByLabel("Transaction hash").inputValue()).resolves.toBe(
        unpaid.transaction_hash,
      );
      await page
        .locator('input[type="file"]')
        .setInputFiles(filePayload("receipt.png", "image/png", receiptPng()));
      await page.getByRole("button", { name: "Submit Payment Proof" }).click();
      await expectToast(page, fundingMessages.depositSubmitted);
      const statusText = page.getByTestId("deposit-status-text");
      await expectVisible(statusText.getByText(/is under review/));

      // Staff approve it: the card's words follow, with no reload (the decision's
      // notification on the live stream reloads the deposit; a poll backs it up).
      // A day has passed on the platform's clock since beforeAll: staff sign in again.
      const reviewerToken = await signInByApi(platform, staff.email, staff.password);
      const approved = await api(platform, "POST", `/admin/deposits/${unpaid.deposit_id}/approve`, {
        token: reviewerToken,
      });
      expect(approved.status).toBe(200);
      await statusText
        .getByText(/has been confirmed and credited to your real account/)
        .waitFor({ state: "visible", timeout: 30_000 });
      await expectVisible(page.getByRole("heading", { name: "Deposit confirmed" }));
      expect(await statusText.getAttribute("data-status")).toBe("confirmed");
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, `failure-cashier-deposit-${kind}`, { fullPage: false }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await session.close();
    }
  }, 120_000);

  it("a pending withdrawal's timeline, and Cancel returns the amount", async () => {
    const { trader, token } = await traderWithToken();
    // The first journey moved the clock by a day: staff sign in afresh.
    staffToken = await signInByApi(platform, staff.email, staff.password);
    await approvedDepositByApi(platform, token, staffToken, 100);
    const requested = await api(platform, "POST", "/withdrawals", {
      token,
      body: {
        payment_method_id: "bitcoin",
        amount: 40,
        withdrawal_details: { wallet_address: "bc1qcashiertimeline00000000000" },
      },
    });
    expect(requested.status).toBe(201);
    const { transaction_hash } = requested.body.data;

    const session = await signedIn(
      trader.email,
      trader.password,
      viewports.mobile,
      "/user/transaction-history",
    );
    const { page } = session;
    try {
      const row = transactionRow(page, transaction_hash);
      await expectVisible(row.getByText("pending"));
      await row.getByRole("button", { name: /Timeline of withdrawal/ }).click();
      const dialog = page.getByRole("dialog");
      const timeline = dialog.getByRole("list", { name: "Withdrawal timeline" });
      await expectVisible(timeline.locator('[data-step="requested"][data-done="true"]'));
      const next = timeline.locator('[data-step="confirmed"][data-done="false"]');
      await expectVisible(next.getByText(/^Expected by /));
      await screenshot(page, "cashier-withdrawal-timeline-375", { fullPage: false });

      await dialog.getByRole("button", { name: "Cancel withdrawal" }).click();
      await expectToast(page, fundingMessages.withdrawalCancelled);
      await expectVisible(timeline.locator('[data-step="cancelled"][data-done="true"]'));
      await expect(dialog.getByRole("button", { name: "Cancel withdrawal" }).count()).resolves.toBe(
        0,
      );
      await dialog.getByRole("button", { name: "Close" }).last().click();
      await expectVisible(transactionRow(page, transaction_hash).getByText("cancelled"));
      const me = await api(platform, "GET", "/user", { token });
      expect(me.body.data.user.account.account_balance).toBe(100);
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, `failure-cashier-withdrawal-${kind}`, { fullPage: false }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await session.close();
    }
  }, 120_000);
});

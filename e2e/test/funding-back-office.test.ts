import { adminMessages } from "@tp/domain/admin-api";
import { fundingMessages } from "@tp/domain/funding";
import { journeyOn } from "@tp/server/testing/fresh-database";
import { linkIn } from "@tp/server/testing/smtp-capture";
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
  approvedIdentityByApi,
  configureBitcoinByApi,
  confirmPendingChangesByApi,
  filePayload,
  identityPdf,
  platform_btc_address,
  receiptPng,
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
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { UserShell } from "../src/pages/user-shell.ts";
import {
  api,
  newTrader,
  onPlatform,
  registerByApi,
  startProxiedBrowserPlatform,
  type Trader,
} from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

/** The <dd> that a <dt> with exactly `label` describes. */
function definitionOf(container: Locator, label: string): Locator {
  return container
    .locator("dt")
    .getByText(label, { exact: true })
    .locator("xpath=ancestor-or-self::dt[1]/following-sibling::dd[1]");
}

/** A method of a funding method list, by its name ("Bitcoin", not "Bitcoin Cash"). */
function methodButton(page: Page, list: string, name: string): Locator {
  return page
    .getByRole("list", { name: list })
    .getByRole("listitem")
    .filter({ has: page.getByText(name, { exact: true }) })
    .getByRole("button");
}

/** The funding banner's real balance (the page's own, not the dashboard switcher's). */
function bannerBalance(page: Page): Locator {
  return page.getByTestId("real-balance");
}

/** A back-office queue row, by the trader's e-mail (each journey's trader is new). */
function queueRow(page: Page, email: string): Locator {
  return page
    .getByRole("main")
    .getByRole("listitem")
    .filter({ hasText: email })
    .getByRole("button");
}

/** A transaction history row (table row or phone card), by its transaction id. */
function transactionRow(page: Page, transactionId: string): Locator {
  return page.locator(`[data-transaction="${transactionId}"]:visible`);
}

/**
 * Issue 5's browser journeys: money moves end to end. A trader deposits with a receipt and
 * staff approve it in /admin (the real balance shows it, live); a trader withdraws and staff
 * pay it (transaction history shows it paid); a trader uploads an identity document and staff
 * approve it (Account Status Active). Staff are the first admin (ADMIN_EMAIL/ADMIN_PASSWORD);
 * payment methods start unconfigured, so staff configure Bitcoin first. The platform sits
 * behind the pass-through proxy so the live stream takes the page's socket (balance events).
 */
describeBrowser.each(journeyOn("postgres"))(
  "funding and the back office in Chromium on %s",
  (kind) => {
    let platform: TestPlatform;
    let browser: Browser;

    beforeAll(async () => {
      [platform, browser] = await Promise.all([
        startProxiedBrowserPlatform(kind, { env: staff_env }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await platform?.close();
    });

    async function registered(overrides: Partial<Trader> = {}): Promise<Trader> {
      const trader = newTrader(overrides);
      await registerByApi(platform, trader);
      return trader;
    }

    /** A fresh profile at `viewport`, signed in through the form at `start` (a signed-in page). */
    async function signedIn(
      email: string,
      password: string,
      viewport: Viewport,
      start = "/user/dashboard",
    ): Promise<BrowserSession> {
      const session = await openSession(browser, platform.baseUrl, viewport);
      await session.page.goto(start);
      await expectPath(session.page, "/account/sign-in");
      await new SignInPage(session.page).signInThroughSecondFactor(platform, email, password);
      await expectPath(session.page, start);
      return session;
    }

    const staffSignedIn = (viewport: Viewport = viewports.desktop, start = "/admin/deposits") =>
      signedIn(staff.email, staff.password, viewport, start);

    /** Runs `run` on the sessions, then checks they saw no page errors; a failure leaves pictures. */
    async function withSessions(
      name: string,
      sessions: Record<string, BrowserSession>,
      run: () => Promise<void>,
    ): Promise<void> {
      try {
        await run();
        for (const [who, session] of Object.entries(sessions)) {
          expect(session.problems, `${who}'s page errors`).toEqual([]);
        }
      } catch (error) {
        for (const [who, session] of Object.entries(sessions)) {
          await screenshot(session.page, `failure-funding-${name}-${who}-${kind}`, {
            fullPage: false,
          }).catch(() => undefined);
        }
        throw error;
      } finally {
        for (const session of Object.values(sessions)) await session.close();
      }
    }

    /**
     * A PDF preview (an iframe of a blob: URL) is painted by Chromium's viewer a moment after
     * the frame loads; a picture taken at once shows its empty grey background.
     */
    async function settlePdfPreviews(page: Page): Promise<void> {
      const frames = page.getByRole("main").locator("iframe");
      if ((await frames.count()) === 0) return;
      for (const frame of await frames.elementHandles()) {
        await (await frame.contentFrame())?.waitForLoadState("load");
      }
      await page.waitForTimeout(1_500);
    }

    /**
     * Screenshots without the toasts of the last action over them. The whole page from its top
     * (so sticky bars sit where they belong), or with `show`, the screen with that part of the
     * page at its top (the phone shots: a whole-page picture paints the fixed bars mid-page).
     */
    async function picture(
      page: Page,
      name: string,
      options: { fullPage?: boolean; show?: Locator } = {},
    ): Promise<void> {
      await dismissToasts(page);
      await settlePdfPreviews(page);
      if (options.show) {
        await options.show.evaluate((element) => {
          element.scrollIntoView({ block: "start" });
          window.scrollBy(0, -72); // clear of the sticky top bar
        });
      } else if (options.fullPage ?? true) {
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      await screenshot(page, name, { fullPage: options.show ? false : (options.fullPage ?? true) });
    }

    it("deposit with a receipt → staff configure Bitcoin and approve in /admin → the trader's real balance shows it, live", async () => {
      const trader = await registered({ first_name: "Dora", last_name: "Deposit" });
      const desk = await staffSignedIn();
      const staffPage = desk.page;
      const traderSession = await signedIn(trader.email, trader.password, viewports.desktop);
      const page = traderSession.page;
      await withSessions("deposit", { staff: desk, trader: traderSession }, async () => {
        await traderSession.context.grantPermissions(["clipboard-read", "clipboard-write"], {
          origin: platform.baseUrl,
        });

        // A fresh install: no method is set up, so the page says so and why (issue 13),
        // instead of a list of methods that cannot be chosen.
        await new UserShell(page).depositFunds.click();
        await expectPath(page, "/user/fund-wallet");
        await expectVisible(bannerBalance(page).getByText("$0.00"));
        await expectVisible(page.getByText(fundingMessages.noDepositMethods));
        await expectVisible(page.getByText(fundingMessages.noDepositMethodsReason));
        expect(await page.getByRole("list", { name: "Payment methods" }).count()).toBe(0);
        expect(await page.getByLabel("Amount (USD)", { exact: true }).count()).toBe(0);
        const bitcoin = methodButton(page, "Payment methods", "Bitcoin");

        // Staff configure Bitcoin on the Payment methods page.
        await staffPage
          .getByRole("navigation", { name: "Back office sections" })
          .getByRole("link", { name: "Payment methods" })
          .click();
        await expectPath(staffPage, "/admin/payment-methods");
        const bitcoinCard = staffPage
          .getByRole("article")
          .filter({ has: staffPage.getByRole("heading", { name: "Bitcoin", exact: true }) });
        await expectVisible(bitcoinCard.getByText("Unavailable", { exact: true }));
        await bitcoinCard.getByRole("button", { name: "Edit Bitcoin", exact: true }).click();
        const edit = staffPage.getByRole("dialog", { name: "Edit Bitcoin", exact: true });
        await expectVisible(edit);
        await edit.getByLabel("Wallet address", { exact: true }).fill(platform_btc_address);
        await edit.getByLabel("Recommended", { exact: true }).check();
        await edit.getByRole("button", { name: "+ Add instruction" }).click();
        await edit
          .getByLabel("Instruction 1", { exact: true })
          .fill("Send only BTC to this address.");
        await screenshot(staffPage, "admin-payment-method-edit-1280", { fullPage: false });
        await edit.getByRole("button", { name: "Propose change" }).click();
        await expectToast(staffPage, adminMessages.paymentMethodChangeProposed);
        await expectHidden(edit);
        // Four eyes: the change waits for a second admin; the method is unchanged until then.
        const pendingChanges = staffPage.getByRole("region", { name: /Awaiting second approval/ });
        await expectVisible(pendingChanges.getByText(platform_btc_address));
        await expectVisible(pendingChanges.getByText("Another admin must confirm your change."));
        await expectVisible(bitcoinCard.getByText("Unavailable", { exact: true }));
        await confirmPendingChangesByApi(platform);
        await staffPage.reload();
        await expectVisible(bitcoinCard.getByText("Available", { exact: true }));
        await expectVisible(bitcoinCard.getByText(platform_btc_address));

        // The trader's list shows it Recommended once reloaded; the others stay unavailable.
        await page.reload();
        await expectVisible(bitcoin.getByText("Recommended"));
        const ethereum = methodButton(page, "Payment methods", "Ethereum");
        await expectVisible(ethereum.getByText("Currently unavailable"));
        // aria-disabled, not disabled: pressing it says why (SPEC §5).
        await ethereum.click({ force: true });
        await expectVisible(
          page.getByRole("alert").getByText(fundingMessages.methodUnavailableNotice),
        );
        await picture(page, "deposit-1-methods-1280");

        // Amount → wallet details (address, QR, copy) → "I've Made The Payment" → receipt.
        await bitcoin.click();
        const amount = page.getByLabel("Amount (USD)", { exact: true });
        await expectVisible(amount);
        await amount.fill("250");
        await picture(page, "deposit-2-amount-1280");
        await page.getByRole("button", { name: "Fund Account" }).click();
        await expectVisible(page.getByRole("heading", { name: "Payment details" }));
        expect(await page.getByTestId("wallet-address").textContent()).toBe(platform_btc_address);
        await expectVisible(page.getByRole("img", { name: "QR code of the Bitcoin address" }));
        await expectVisible(page.getByText("Send only BTC to this address."));
        await page.getByRole("button", { name: "Copy wallet address" }).click();
        await expectToast(page, fundingMessages.addressCopied);
        await expectVisible(page.getByRole("button", { name: "wallet address: copied" }));
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
          platform_btc_address,
        );
        await picture(page, "deposit-3-wallet-details-1280");
        await page.getByRole("button", { name: "I've Made The Payment" }).click();

        const receiptCard = page.getByRole("region", { name: "Upload Payment Proof" });
        await expectVisible(receiptCard);
        const hash = await receiptCard.getByLabel("Transaction hash").inputValue();
        expect(hash.length).toBeGreaterThan(0);
        await receiptCard
          .locator('input[type="file"]')
          .setInputFiles(filePayload("bank-receipt.png", "image/png", receiptPng()));
        await expectVisible(receiptCard.getByText("bank-receipt.png"));
        await picture(page, "deposit-4-receipt-1280");
        await receiptCard.getByRole("button", { name: "Submit Payment Proof" }).click();
        await expectToast(page, fundingMessages.depositSubmitted);
        const success = page.getByRole("region", { name: fundingMessages.depositSubmitted });
        await expectVisible(success);
        await expectVisible(success.getByRole("button", { name: "Make Another Deposit" }));
        await picture(page, "deposit-5-success-1280");
        // Nothing is credited before staff approve.
        expect(await bannerBalance(page).textContent()).toBe("$0.00");

        // Staff: the deposit waits under review, with the trader, the reference and the receipt.
        await staffPage
          .getByRole("navigation", { name: "Back office sections" })
          .getByRole("link", { name: "Deposits" })
          .click();
        await expectPath(staffPage, "/admin/deposits");
        await queueRow(staffPage, trader.email).click();
        const detail = staffPage.getByRole("region", { name: /^Deposit #\d+/ });
        await expectVisible(detail);
        await expectVisible(detail.getByText("$250.00", { exact: true }));
        await expectVisible(detail.getByText(hash, { exact: true }));
        await expectVisible(detail.getByText("Dora Deposit"));
        const receipt = detail.getByRole("img", { name: /^Receipt of deposit #\d+$/ });
        await expectVisible(receipt);
        await expect
          .poll(() => receipt.evaluate((image) => (image as HTMLImageElement).naturalWidth))
          .toBe(240);
        await picture(staffPage, "admin-deposits-review-1280", { fullPage: false });
        await detail.getByRole("button", { name: "Approve", exact: true }).click();
        const confirm = staffPage.getByRole("dialog", { name: /^Approve deposit #\d+\?$/ });
        await expectVisible(confirm.getByText(trader.email));
        await confirm.getByRole("button", { name: "Approve and credit $250.00" }).click();
        await expectToast(staffPage, adminMessages.depositApproved);
        await expectHidden(confirm);

        // The trader's open page shows the new real balance without a reload (stream).
        await expect
          .poll(() => bannerBalance(page).textContent(), { timeout: 10_000 })
          .toBe("$250.00");
        // The dashboard's Real Account agrees, and the history says confirmed (green).
        await page.goto("/user/dashboard");
        await expect.poll(() => page.getByTestId("real-balance").textContent()).toBe("$250.00");
        await page.goto("/user/transaction-history");
        const row = transactionRow(page, hash);
        await expectVisible(row);
        expect(await row.textContent()).toContain("+$250.00");
        expect(await row.locator("[data-tone]").getAttribute("data-tone")).toBe("confirmed");
        expect(await row.locator("[data-tone]").textContent()).toBe("confirmed");

        // The server's books agree.
        const token = await storedItem(page, "token");
        const me = await api(platform, "GET", "/user", { token });
        expect(me.body.data.user.account.account_balance).toBe(250);
        expect(await platform.ledgerViolations()).toEqual([]);

        // And the back office is hidden from a trader: its pages are the 404 page.
        await page.goto("/admin/deposits");
        await expectVisible(page.getByText("404", { exact: true }));
        expect(await page.getByRole("navigation", { name: "Back office sections" }).count()).toBe(
          0,
        );
      });
    });

    it("deposit steps at 375 px: back from the wallet details cancels the deposit; the receipt goes to review", async () => {
      const staffToken = await signInByApi(platform, staff.email, staff.password);
      await configureBitcoinByApi(platform, staffToken);
      const trader = await registered({ first_name: "Mo", last_name: "Bile" });
      const session = await signedIn(trader.email, trader.password, viewports.mobile);
      const { page } = session;
      await withSessions("deposit-375", { trader: session }, async () => {
        await page.goto("/user/fund-wallet");
        const bitcoin = methodButton(page, "Payment methods", "Bitcoin");
        await expectVisible(bitcoin.getByText("Recommended"));
        await picture(page, "deposit-1-methods-375");
        await bitcoin.click();
        await page.getByLabel("Amount (USD)", { exact: true }).fill("40");
        await picture(page, "deposit-2-amount-375", {
          show: page.getByRole("region", { name: "Deposit with Bitcoin" }),
        });
        await page.getByRole("button", { name: "Fund Account" }).click();
        await expectVisible(page.getByRole("heading", { name: "Payment details" }));
        await expectNoHorizontalOverflow(page);
        await picture(page, "deposit-3-wallet-details-375", {
          show: page.getByRole("region", { name: "Payment details" }),
        });

        // Back from the wallet details cancels the deposit (SPEC §4) and starts over.
        await page.getByRole("button", { name: "Back" }).click();
        await expectVisible(methodButton(page, "Payment methods", "Bitcoin"));
        await expectHidden(page.getByRole("heading", { name: "Payment details" }));

        await methodButton(page, "Payment methods", "Bitcoin").click();
        await page.getByLabel("Amount (USD)", { exact: true }).fill("40");
        await page.getByRole("button", { name: "Fund Account" }).click();
        await page.getByRole("button", { name: "I've Made The Payment" }).click();
        const receiptCard = page.getByRole("region", { name: "Upload Payment Proof" });
        await receiptCard
          .locator('input[type="file"]')
          .setInputFiles(filePayload("receipt.pdf", "application/pdf", identityPdf("MO BILE")));
        await expectNoHorizontalOverflow(page);
        await picture(page, "deposit-4-receipt-375", { show: receiptCard });
        await receiptCard.getByRole("button", { name: "Submit Payment Proof" }).click();
        await expectToast(page, fundingMessages.depositSubmitted);
        await expectVisible(page.getByRole("button", { name: "Make Another Deposit" }));
        await picture(page, "deposit-5-success-375", {
          show: page.getByRole("region", { name: fundingMessages.depositSubmitted }),
        });

        // The history: the cancelled one (red) and the one under review (yellow).
        await page.goto("/user/transaction-history");
        const token = await storedItem(page, "token");
        const history = await api(platform, "GET", "/transaction-history?page=1&limit=10", {
          token,
        });
        const rows = history.body.data.data as Array<{ status: string; transactionId: string }>;
        expect(rows.map((row) => row.status)).toEqual(["under_review", "cancelled"]);
        const [review, cancelled] = rows;
        expect(
          await transactionRow(page, review?.transactionId ?? "")
            .locator("[data-tone]")
            .getAttribute("data-tone"),
        ).toBe("pending");
        expect(
          await transactionRow(page, cancelled?.transactionId ?? "")
            .locator("[data-tone]")
            .getAttribute("data-tone"),
        ).toBe("failed");
        await expectNoHorizontalOverflow(page);
        await picture(page, "transaction-history-deposits-375");
      });
    });

    it("withdrawal → staff pay with a payout reference → the trader's transaction history shows it paid", async () => {
      const staffToken = await signInByApi(platform, staff.email, staff.password);
      await configureBitcoinByApi(platform, staffToken);
      const trader = await registered({ first_name: "Walt", last_name: "Withdraw" });
      const traderToken = await signInByApi(platform, trader.email, trader.password);
      await approvedDepositByApi(platform, traderToken, staffToken, 300);
      const payoutAddress = "bc1qtraderpayout0wallet9x8c7v6b5n4m";

      const traderSession = await signedIn(trader.email, trader.password, viewports.desktop);
      const page = traderSession.page;
      const desk = await staffSignedIn(viewports.desktop, "/admin/withdrawals");
      const staffPage = desk.page;
      await withSessions("withdrawal", { staff: desk, trader: traderSession }, async () => {
        const form = {
          amount: page.getByLabel("Amount (USD)", { exact: true }),
          wallet: page.getByLabel("Wallet address", { exact: true }),
        };
        const fillAndReview = async (amount: string) => {
          await methodButton(page, "Withdrawal methods", "Bitcoin").click();
          await form.amount.fill(amount);
          await form.wallet.fill(payoutAddress);
          await page.getByRole("button", { name: "Continue" }).click();
        };
        const confirmCard = page.getByRole("region", { name: "Confirm withdrawal" });

        // Unverified: the page says what is missing, and the server refuses with its message.
        await page.goto("/user/withdraw-funds");
        const checks = page.getByText("Verification needed");
        await expectVisible(checks);
        await expectVisible(page.getByText("Your e-mail address is not verified."));
        await expectVisible(page.getByText("Your identity is not verified."));
        await expectVisible(bannerBalance(page).getByText("$300.00"));
        await picture(page, "withdraw-verification-needed-1280");
        await fillAndReview("100");
        await confirmCard.getByRole("button", { name: "Confirm" }).click();
        await expectVisible(
          confirmCard.getByRole("alert").getByText(fundingMessages.emailNotVerified),
        );

        // The e-mailed link verifies the address; staff approve an identity document (the
        // identity journey below does that part through the pages).
        const mail = await platform.smtp.waitFor(trader.email, /^Verify your e-mail address/);
        const link = linkIn(mail, `${platform.baseUrl}/account/verify-email?`);
        await page.goto(onPlatform(platform, link));
        await expectVisible(page.getByText("Email verified successfully"));
        await approvedIdentityByApi(platform, traderToken, staffToken);

        // Form → confirmation; Back resets and nothing is stored (PRODUCT.md D4).
        await page.goto("/user/withdraw-funds");
        await expectVisible(methodButton(page, "Withdrawal methods", "Bitcoin"));
        expect(await checks.count()).toBe(0);
        await methodButton(page, "Withdrawal methods", "Bitcoin").click();
        await expectVisible(page.getByText("Available: $300.00. Minimum $1.00."));
        await form.amount.fill("120");
        await form.wallet.fill(payoutAddress);
        await picture(page, "withdraw-form-1280");
        await page.getByRole("button", { name: "Continue" }).click();
        await expectVisible(confirmCard);
        expect(await definitionOf(confirmCard, "Method").textContent()).toBe("Bitcoin");
        expect(await definitionOf(confirmCard, "Amount").textContent()).toBe("$120.00");
        expect(await definitionOf(confirmCard, "Wallet address").textContent()).toBe(payoutAddress);
        await picture(page, "withdraw-confirm-1280");
        await confirmCard.getByRole("button", { name: "Back" }).click();
        await expectHidden(confirmCard);
        expect(
          await methodButton(page, "Withdrawal methods", "Bitcoin").getAttribute("aria-pressed"),
        ).toBe("false");
        const before = await api(platform, "GET", "/transaction-history?page=1&limit=10", {
          token: traderToken,
        });
        expect(before.body.data.data.map((row: { type: string }) => row.type)).toEqual(["deposit"]);

        // Confirm stores it: the amount moves into a hold.
        await fillAndReview("120");
        await confirmCard.getByRole("button", { name: "Confirm" }).click();
        await expectToast(page, fundingMessages.withdrawalRequested);
        const success = page.getByRole("region", { name: "Withdrawal requested" });
        await expectVisible(success);
        const reference = (await definitionOf(success, "Reference").textContent()) ?? "";
        expect(reference.length).toBeGreaterThan(0);
        expect(await definitionOf(success, "Available balance").textContent()).toBe("$180.00");
        await expect.poll(() => bannerBalance(page).textContent()).toBe("$180.00");
        await picture(page, "withdraw-success-1280");

        await success.getByRole("link", { name: "View Transaction History" }).click();
        await expectPath(page, "/user/transaction-history");
        const row = transactionRow(page, reference);
        await expectVisible(row);
        expect(await row.locator("[data-tone]").textContent()).toBe("pending");
        expect(await row.locator("[data-tone]").getAttribute("data-tone")).toBe("pending");

        // The trader is e-mailed a single-use link; opening it confirms the withdrawal, and
        // only then does it reach the staff queue (issue 12).
        const confirmMail = await platform.smtp.waitFor(
          trader.email,
          new RegExp(`^Confirm your withdrawal ${reference} `),
        );
        await page.goto(
          onPlatform(
            platform,
            linkIn(confirmMail, `${platform.baseUrl}/account/confirm-withdrawal?`),
          ),
        );
        await expectVisible(page.getByText(fundingMessages.withdrawalConfirmed));
        await page.goto("/user/transaction-history");
        await expectVisible(row);

        // Staff pay it: the payout details, then the payout reference.
        await staffPage.reload();
        await queueRow(staffPage, trader.email).click();
        const detail = staffPage.getByRole("region", { name: /^Withdrawal #\d+/ });
        await expectVisible(detail.getByText(payoutAddress).first());
        await expectVisible(detail.getByText("$120.00", { exact: true }));
        await picture(staffPage, "admin-withdrawals-review-1280", { fullPage: false });
        await detail.getByRole("button", { name: "Mark as paid" }).click();
        const pay = staffPage.getByRole("dialog", { name: /^Mark withdrawal #\d+ as paid$/ });
        await pay.getByLabel("Payout reference").fill("BTC-TX-7f3a9c0e");
        await pay.getByRole("button", { name: "Confirm $120.00 paid" }).click();
        await expectToast(staffPage, adminMessages.withdrawalPaid);
        await expectHidden(pay);

        // The trader's history shows it paid (green); the balance stays $180.00.
        await page.reload();
        await expect.poll(() => row.locator("[data-tone]").textContent()).toBe("paid");
        expect(await row.locator("[data-tone]").getAttribute("data-tone")).toBe("confirmed");
        expect(await row.textContent()).toContain("-$120.00");
        await picture(page, "transaction-history-1280");
        const me = await api(platform, "GET", "/user", { token: traderToken });
        expect(me.body.data.user.account.account_balance).toBe(180);
        expect(await platform.ledgerViolations()).toEqual([]);
      });

      // The same at 375 px: the paid row as a card; the form and confirmation (Back, not sent).
      const phone = await signedIn(trader.email, trader.password, viewports.mobile);
      await withSessions("withdrawal-375", { trader: phone }, async () => {
        const page375 = phone.page;
        await page375.goto("/user/transaction-history");
        await expectVisible(page375.locator("[data-transaction]:visible").first());
        await expectNoHorizontalOverflow(page375);
        await picture(page375, "transaction-history-375");
        await page375.goto("/user/withdraw-funds");
        await methodButton(page375, "Withdrawal methods", "Bitcoin").click();
        await page375.getByLabel("Amount (USD)", { exact: true }).fill("25");
        await page375.getByLabel("Wallet address", { exact: true }).fill(payoutAddress);
        await expectNoHorizontalOverflow(page375);
        await picture(page375, "withdraw-form-375", {
          show: page375.getByRole("region", { name: "Withdraw with Bitcoin" }),
        });
        await page375.getByRole("button", { name: "Continue" }).click();
        const confirmCard = page375.getByRole("region", { name: "Confirm withdrawal" });
        await expectVisible(confirmCard);
        await expectNoHorizontalOverflow(page375);
        await picture(page375, "withdraw-confirm-375", { show: confirmCard });
        await confirmCard.getByRole("button", { name: "Back" }).click();
        await expectHidden(confirmCard);
      });
    });

    it("identity upload on the Security page → staff approve → Account Status Active", async () => {
      const trader = await registered({ first_name: "Ida", last_name: "Entity" });
      const traderSession = await signedIn(trader.email, trader.password, viewports.mobile);
      const page = traderSession.page;
      const desk = await staffSignedIn(viewports.desktop, "/admin/identity");
      const staffPage = desk.page;
      await withSessions("identity", { staff: desk, trader: traderSession }, async () => {
        const shell = new UserShell(page);
        const accountStatus = async () => {
          await shell.menuButton.click();
          await expectVisible(shell.panel);
          const status = (await definitionOf(shell.panel, "Account Status").textContent()) ?? "";
          return status.trim();
        };

        // Inactive until an identity document is approved (SPEC §4), saying what to do.
        expect(await accountStatus()).toMatch(/^Inactive\s*Verify your identity$/);
        await shell.panel.getByRole("link", { name: "Settings" }).click();
        await expectPath(page, "/user/security");
        await expectHidden(shell.panel);
        const section = page.getByRole("region", { name: "ID verification" });
        const status = section.getByTestId("verification-status");
        await expect.poll(() => status.textContent()).toBe("Not verified");

        // The terms come first (SPEC §5), then the upload goes to review.
        await section.getByLabel("ID type").selectOption({ label: "Passport" });
        await section
          .locator('input[type="file"]')
          .setInputFiles(filePayload("passport.pdf", "application/pdf", identityPdf("IDA ENTITY")));
        await section.getByRole("button", { name: "Upload documents" }).click();
        await expectToast(page, fundingMessages.acceptTermsFirst);
        await section.getByRole("checkbox", { name: /I confirm this document is mine/ }).check();
        await picture(page, "security-id-form-375", { show: section });
        await section.getByRole("button", { name: "Upload documents" }).click();
        await expectToast(page, fundingMessages.verificationUploaded);
        await expect.poll(() => status.textContent()).toBe("Pending review");
        await expectNoHorizontalOverflow(page);
        await picture(page, "security-id-pending-375", { show: section });

        // Staff: the document shows inline (a PDF in a frame) beside the trader's details.
        await staffPage.reload();
        await queueRow(staffPage, trader.email).click();
        const detail = staffPage.getByRole("region", { name: /^Document #\d+/ });
        await expectVisible(detail.getByText("Passport", { exact: true }).first());
        await expectVisible(detail.getByText("Ida Entity").first());
        await expectVisible(
          detail.locator(`iframe[title^="Identity document #"][title$="of Ida Entity"]`),
        );
        await picture(staffPage, "admin-identity-review-1280", { fullPage: false });
        await detail.getByRole("button", { name: "Approve", exact: true }).click();
        await expectToast(staffPage, adminMessages.verificationApproved);

        // The trader: approved on the Security page, and Account Status Active in the menu.
        await page.reload();
        await expect.poll(() => status.textContent()).toBe("Approved");
        await expectVisible(
          section.getByText("Your identity is verified. Your account status is Active."),
        );
        expect(await section.getByRole("button", { name: "Upload documents" }).count()).toBe(0);
        await picture(page, "security-id-approved-375", { show: section });
        expect(await accountStatus()).toBe("Active — identity verified");
        await screenshot(page, "account-status-active-375", { fullPage: false });

        const me = await api(platform, "GET", "/user", {
          token: await storedItem(page, "token"),
        });
        expect(me.body.data.user.account.kyc_verified_at).toBeTruthy();
      });

      // The section at 1280 px.
      const wide = await signedIn(
        trader.email,
        trader.password,
        viewports.desktop,
        "/user/security",
      );
      await withSessions("identity-1280", { trader: wide }, async () => {
        const section = wide.page.getByRole("region", { name: "ID verification" });
        await expect
          .poll(() => section.getByTestId("verification-status").textContent())
          .toBe("Approved");
        await picture(wide.page, "security-id-approved-1280");
      });
    });

    // Pictures of what the journeys above left behind (run with them, not alone).
    it("the back office at 1280 and 375 px: queues, user detail, payment methods, reconciliation", async () => {
      for (const [name, viewport] of [
        ["1280", viewports.desktop],
        ["375", viewports.mobile],
      ] as const) {
        const session = await staffSignedIn(viewport);
        const { page } = session;
        await withSessions(`admin-${name}`, { staff: session }, async () => {
          const nav = page.getByRole("navigation", { name: "Back office sections" });
          const all = page.getByRole("button", { name: "All", exact: true });

          for (const [section, path, heading] of [
            ["Deposits", "/admin/deposits", /^Deposit #\d+/],
            ["Withdrawals", "/admin/withdrawals", /^Withdrawal #\d+/],
            ["Identity", "/admin/identity", /^Document #\d+/],
          ] as const) {
            await nav.getByRole("link", { name: section }).click();
            await expectPath(page, path);
            await expectVisible(page.getByText(/\d+ in all/));
            await picture(page, `admin-${section.toLowerCase()}-queue-${name}`, {
              fullPage: name === "1280",
            });
            await all.click();
            await page.getByRole("main").getByRole("listitem").getByRole("button").first().click();
            await expectVisible(page.getByRole("region", { name: heading }));
            // On a phone the page scrolls (smoothly) to the detail: the picture waits for it.
            let lastY = -1;
            await expect
              .poll(async () => {
                const y = await page.evaluate(() => window.scrollY);
                const still = y === lastY;
                lastY = y;
                return still;
              })
              .toBe(true);
            await expectNoHorizontalOverflow(page);
            await picture(page, `admin-${section.toLowerCase()}-all-${name}`, {
              fullPage: name === "1280",
            });
          }

          // Users: search, then the detail of the deposit journey's trader.
          await nav.getByRole("link", { name: "Users" }).click();
          await page.getByLabel("Search users").fill("Deposit");
          await page.getByRole("button", { name: "Search", exact: true }).click();
          await page.getByRole("link", { name: "Dora Deposit" }).first().click();
          await expectVisible(page.getByRole("heading", { name: "Dora Deposit" }));
          await expectVisible(page.getByText("Real balance"));
          await expectNoHorizontalOverflow(page);
          await picture(page, `admin-user-detail-${name}`, { fullPage: name === "1280" });

          await nav.getByRole("link", { name: "Payment methods" }).click();
          await expectVisible(page.getByRole("button", { name: "Edit Bitcoin", exact: true }));
          await expectNoHorizontalOverflow(page);
          await picture(page, `admin-payment-methods-${name}`, { fullPage: name === "1280" });

          await nav.getByRole("link", { name: "Reconciliation" }).click();
          await expectVisible(page.getByText("The ledger balances: every invariant holds."));
          // After every journey above (deposits, payouts, four eyes, staff actions), the
          // journal's chains recompute and the audit log's chain holds.
          await expectVisible(page.getByText("All chains verify"));
          await expectNoHorizontalOverflow(page);
          await picture(page, `admin-reconciliation-${name}`, { fullPage: name === "1280" });
        });
      }
      expect(await platform.ledgerViolations()).toEqual([]);
    });
  },
);

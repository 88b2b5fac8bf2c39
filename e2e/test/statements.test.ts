import { readFile } from "node:fs/promises";
import { statementMessages } from "@tp/domain/statements";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openSession, viewports } from "../src/browser.ts";
import { staff, staff_env } from "../src/funding.ts";
import {
  expectFieldError,
  expectNoHorizontalOverflow,
  expectPath,
  expectVisible,
} from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { newTrader, registerByApi, startBrowserPlatform, type Trader } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

/**
 * Statements in the browser (issue 14 item 6): the Statements tab's period picker refuses
 * a bad period with the server's message, and its buttons download a CSV, a PDF and the
 * data export (Playwright's download event; the files are read back). The platform's
 * manual clock stands at 2026-01-15, so the period is typed, not left at this month.
 */
describeBrowser("statements and data export in Chromium", () => {
  let platform: TestPlatform;
  let browser: Browser;
  let trader: Trader;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startBrowserPlatform("pglite", staff_env),
      launchBrowser(),
    ]);
    trader = newTrader({ first_name: "Mary", last_name: "Jackson" });
    await registerByApi(platform, trader);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /** Clicks `button` and returns the downloaded file's suggested name and bytes. */
  async function downloadOf(page: Page, button: string) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: button, exact: true }).click(),
    ]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: await readFile(path) };
  }

  it("downloads a statement as CSV and PDF and the trader's data, after refusing a bad period", async () => {
    const session = await openSession(browser, platform.baseUrl, viewports.desktop);
    const page = session.page;
    try {
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(trader.email, trader.password);
      await expectPath(page, "/user/dashboard");
      await page.goto("/user/transaction-history");
      await page
        .getByRole("navigation", { name: "Statements" })
        .getByRole("link", { name: "Statements", exact: true })
        .click();
      await expectPath(page, "/user/statements");
      await expectVisible(page.getByRole("heading", { name: "Statements", level: 1 }));

      const from = page.getByLabel("From", { exact: true });
      const to = page.getByLabel("To", { exact: true });
      await from.fill("2026-01-10");
      await to.fill("2026-01-01");
      await page.getByRole("button", { name: "Download CSV", exact: true }).click();
      await expectFieldError(to, statementMessages.toBeforeFrom);

      await from.fill("2026-01-01");
      await to.fill("2026-01-15");
      await page.getByLabel("Account", { exact: true }).selectOption("practice");
      const csv = await downloadOf(page, "Download CSV");
      expect(csv.name).toBe("statement-practice-2026-01-01-to-2026-01-15.csv");
      const lines = csv.bytes.toString("utf8").trim().split("\n");
      expect(lines[0]).toBe(
        "date_utc,type,reference,transaction_id,description,amount,fee,change,balance",
      );
      expect(lines[1]).toContain("Opening balance");
      expect(lines.some((line) => line.includes("Practice top-up"))).toBe(true);
      expect(lines.at(-1)).toMatch(/Closing balance.*,10000\.00$/);

      const pdf = await downloadOf(page, "Download PDF");
      expect(pdf.name).toBe("statement-practice-2026-01-01-to-2026-01-15.pdf");
      expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

      const data = await downloadOf(page, "Download my data");
      expect(data.name).toBe("my-data-2026-01-15.json");
      const exported = JSON.parse(data.bytes.toString("utf8"));
      expect(exported.profile.email).toBe(trader.email.toLowerCase());
      expect(exported.trades).toEqual([]);

      await expectNoHorizontalOverflow(page);
      await screenshot(page, "statements-desktop");
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-statements", { fullPage: false }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  });
  it("staff download the auditors' ledger CSV from the reconciliation page", async () => {
    const session = await openSession(browser, platform.baseUrl, viewports.desktop);
    const page = session.page;
    try {
      await page.goto("/admin/reconciliation");
      await expectPath(page, "/account/sign-in");
      await new SignInPage(page).signInThroughSecondFactor(platform, staff.email, staff.password);
      await expectPath(page, "/admin/reconciliation");
      await expectVisible(page.getByRole("heading", { name: "Export for auditors" }));
      await page.getByLabel("From", { exact: true }).fill("2026-01-01");
      await page.getByLabel("To", { exact: true }).fill("2026-01-15");
      const ledger = await downloadOf(page, "Download ledger CSV");
      expect(ledger.name).toBe("ledger-2026-01-01-to-2026-01-15.csv");
      const lines = ledger.bytes.toString("utf8").trim().split("\n");
      expect(lines[0]).toBe(
        "entry_id,created_at,kind,reference,posting_id,account_id,account_code,user_id,currency,amount",
      );
      // The trader's practice balance, given at sign-up, is in the ledger of the period.
      expect(lines.some((line) => line.includes(",practice_topup,"))).toBe(true);
      await screenshot(page, "admin-reconciliation-export-desktop");
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-admin-export", { fullPage: false }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  });
});

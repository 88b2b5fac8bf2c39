import { readFileSync } from "node:fs";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openSession, viewports } from "../src/browser.ts";
import { expectPath, expectVisible } from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { TradeHistoryPage } from "../src/pages/trade-history-page.ts";
import { api, newTrader, registerByApi, startLiveBrowserPlatform } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

/** A 30-second trade settles about 2 s after expiry; room for a slow CI box. */
const settlement_wait_ms = 60_000;

/**
 * Issue 15 items 1-2 as a trader meets them: a trade placed and settled live, its signed
 * receipt downloaded from the audit view, then checked on the public /verify page, which
 * verifies it and refuses a copy with one price changed.
 */
describeBrowser.each(journeyOn("postgres"))("a trade's receipt, verified, on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startLiveBrowserPlatform(kind), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it("place, settle, download the receipt, verify it on /verify; a changed price fails", async () => {
    const trader = newTrader({ first_name: "Ada", last_name: "Receipt" });
    await registerByApi(platform, trader);
    const login = await api(platform, "POST", "/login", {
      body: { email: trader.email, password: trader.password },
    });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    const placed = await api(platform, "POST", "/place-trade", {
      token,
      body: { asset: "EURUSD", type: "call", amount: 10, duration: 30, is_practice: true },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const id = placed.body.data.trade.id as number;
    await expect
      .poll(
        async () => (await api(platform, "GET", `/trades/${id}`, { token })).body.data.trade.status,
        {
          timeout: settlement_wait_ms,
          interval: 1_000,
        },
      )
      .not.toBe("open");

    const session = await openSession(browser, platform.baseUrl, viewports.desktop);
    try {
      const { page } = session;
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(trader.email, trader.password);
      await expectPath(page, "/user/dashboard");
      await page.goto("/user/trade-history");
      const history = new TradeHistoryPage(page);
      await history.tab("Practice Trading History").click();
      await history.openAudit(id);
      await expectVisible(history.audit);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        history.audit.getByRole("button", { name: "Download receipt" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`trade-${id}-settlement-receipt.json`);
      const file = await download.path();
      const receipt = JSON.parse(readFileSync(file, "utf8"));
      expect(receipt.receipt.trade.id).toBe(id);

      await page.goto("/verify");
      await page.getByLabel("Open a receipt file").setInputFiles(file);
      await page.getByRole("button", { name: "Verify" }).click();
      const result = page.getByRole("region", { name: /Receipt of trade/ });
      await expectVisible(
        result.getByRole("heading", { name: `Receipt of trade #${id} verified` }),
      );
      expect(await result.textContent()).toContain("HoldsThe signature holds");
      await screenshot(page, "verify-receipt-1280-light");

      // One price changed: the page says it does not verify and which check fails.
      const changed = structuredClone(receipt);
      changed.receipt.trade.entry.price = receipt.receipt.trade.entry.price + 0.001;
      await page.getByLabel("Receipt", { exact: true }).fill(JSON.stringify(changed));
      await page.getByRole("button", { name: "Verify" }).click();
      await expectVisible(
        result.getByRole("heading", { name: `Receipt of trade #${id} does not verify` }),
      );
      expect(await result.textContent()).toContain("FailsThe signature does not hold");
      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(session.page, "failure-verify-receipt", { fullPage: false }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await session.close();
    }
  });
});

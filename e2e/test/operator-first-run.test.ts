import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fundingMessages } from "@tp/domain/funding";
import { createStaff } from "@tp/server/admin/first-admin";
import { hashPassword } from "@tp/server/auth/passwords";
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
  coin_images_path,
  type FakeProviders,
  fakeMarketProvidersEnv,
  listings_path,
  startFakeMarketProviders,
} from "../src/fake-market-providers.ts";
import {
  configureBitcoinByApi,
  confirmPendingChangesByApi,
  platform_btc_address,
  signInByApi,
  staff,
  staff_env,
} from "../src/funding.ts";
import {
  dismissToasts,
  expectNoHorizontalOverflow,
  expectPath,
  expectVisible,
} from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { newTrader, registerByApi, startBrowserPlatform } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

type Theme = "light" | "dark";

/** The content the platform ships with (the sample copy the checklist recognises). */
const shipped_content_dir = fileURLToPath(new URL("../../content/", import.meta.url));

/** The item of the setup checklist named `title`, and whether it shows as done. */
function setupItem(page: Page, title: string): Locator {
  return page
    .getByRole("list", { name: "Setup checklist" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: new RegExp(`^${title}`) }) });
}

async function expectItem(page: Page, title: string, done: boolean): Promise<void> {
  await expectVisible(setupItem(page, title).getByText(done ? "Done" : "To do", { exact: true }));
}

/** A fresh profile at `viewport` and `theme`, signed in through the form, at `start`. */
async function signedIn(
  browser: Browser,
  platform: TestPlatform,
  who: { email: string; password: string },
  viewport: Viewport,
  start: string,
  theme: Theme = "light",
): Promise<BrowserSession> {
  const session = await openSession(browser, platform.baseUrl, viewport);
  await session.context.addInitScript((stored) => {
    window.localStorage.setItem("theme", stored);
  }, theme);
  await session.page.goto(start);
  await expectPath(session.page, "/account/sign-in");
  await new SignInPage(session.page).signInThroughSecondFactor(platform, who.email, who.password);
  await expectPath(session.page, start);
  return session;
}

/** Runs `run`; the pages must have thrown nothing and the CSP refused nothing. */
async function checked(sessions: BrowserSession[], run: () => Promise<void>): Promise<void> {
  try {
    await run();
    for (const session of sessions) expect(session.problems).toEqual([]);
  } finally {
    for (const session of sessions) await session.close();
  }
}

/**
 * Issue 13 items 2 and 6 in the browser: the back office opens on a setup checklist that
 * turns green as the operator configures; a trader on a fresh install is told no deposit
 * method is available yet; the pages of providers that are not set up are not in the
 * navigation; with a market data provider, the crypto market page lists the top coins with
 * logos served by our own server.
 */
describeBrowser.each(journeyOn("postgres"))(
  "the operator's first run and the crypto market screen in Chromium on %s",
  (kind) => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });

    describeBrowser("a fresh install (no market data provider)", () => {
      let platform: TestPlatform;

      beforeAll(async () => {
        platform = await startBrowserPlatform(kind, staff_env);
      });
      afterAll(async () => {
        await platform?.close();
      });

      it("a trader sees no deposit method yet and no link to the news or market pages", async () => {
        const trader = newTrader({ first_name: "Fresh", last_name: "Install" });
        await registerByApi(platform, trader);
        const desk = await signedIn(
          browser,
          platform,
          trader,
          viewports.desktop,
          "/user/fund-wallet",
        );
        const phone = await signedIn(
          browser,
          platform,
          trader,
          viewports.mobile,
          "/user/fund-wallet",
          "dark",
        );
        await checked([desk, phone], async () => {
          for (const { page } of [desk, phone]) {
            await expectVisible(page.getByText(fundingMessages.noDepositMethods));
            await expectVisible(page.getByText(fundingMessages.noDepositMethodsReason));
            expect(await page.getByRole("list", { name: "Payment methods" }).count()).toBe(0);
          }
          const sections = desk.page.getByRole("navigation", { name: "Account sections" });
          await expectVisible(sections.getByRole("link", { name: "Blockchain stats" }));
          expect(await sections.getByRole("link", { name: "Crypto news" }).count()).toBe(0);
          expect(await sections.getByRole("link", { name: "Crypto market" }).count()).toBe(0);
          await screenshot(desk.page, "operator-no-deposit-methods-1280-light");
          await expectNoHorizontalOverflow(phone.page);
          await screenshot(phone.page, "operator-no-deposit-methods-375-dark");

          await phone.page.getByRole("button", { name: "Open menu" }).click();
          const panel = phone.page.getByRole("dialog", { name: "Menu" });
          await expectVisible(panel.getByRole("link", { name: "Blockchain stats" }));
          expect(await panel.getByRole("link", { name: "Crypto news" }).count()).toBe(0);
          expect(await panel.getByRole("link", { name: "Crypto market" }).count()).toBe(0);
        });
      });

      it("the back office opens on the setup checklist, which turns green as the operator configures", async () => {
        const desk = await signedIn(browser, platform, staff, viewports.desktop, "/admin");
        await checked([desk], async () => {
          const { page } = desk;
          await expectVisible(page.getByRole("heading", { level: 1, name: "Setup" }));
          await expectItem(page, "Payment methods", false);
          await expectItem(page, "Live prices", false);
          // The test platform mails through its capturing SMTP server.
          await expectItem(page, "Outgoing e-mail", true);
          await expectItem(page, "Site content", false);
          await expectItem(page, "Staff two-factor authentication", true);
          await screenshot(page, "operator-setup-1280-light");

          // Payment methods: configured from the item's own link, confirmed by a second admin.
          await setupItem(page, "Payment methods")
            .getByRole("link", { name: "Configure payment methods" })
            .click();
          await expectPath(page, "/admin/payment-methods");
          const bitcoinCard = page
            .getByRole("article")
            .filter({ has: page.getByRole("heading", { name: "Bitcoin", exact: true }) });
          await bitcoinCard.getByRole("button", { name: "Edit Bitcoin", exact: true }).click();
          const edit = page.getByRole("dialog", { name: "Edit Bitcoin", exact: true });
          await edit.getByLabel("Wallet address", { exact: true }).fill(platform_btc_address);
          await edit.getByRole("button", { name: "Propose change" }).click();
          await dismissToasts(page);
          // Proposed is not configured: four eyes hold it until a second admin confirms.
          await page
            .getByRole("navigation", { name: "Back office sections" })
            .getByRole("link", { name: "Setup" })
            .click();
          await expectItem(page, "Payment methods", false);
          await confirmPendingChangesByApi(platform);
          await page.reload();
          await expectItem(page, "Payment methods", true);
          await expectVisible(setupItem(page, "Payment methods").getByText(/^1 of 8 payment/));

          // Staff 2FA: a new member of staff turns it red until their first sign-in enrols them.
          const reviewer = { email: "new-reviewer@example.test", password: "Backoffice2026r" };
          const passwordHash = await hashPassword(reviewer.password);
          await platform.database.transaction((transaction) =>
            createStaff(
              transaction,
              reviewer.email,
              passwordHash,
              "reviewer",
              { userId: null, label: "e2e", ip: null },
              platform.clock.now(),
            ),
          );
          await page.reload();
          await expectItem(page, "Staff two-factor authentication", false);
          await signInByApi(platform, reviewer.email, reviewer.password);
          await page.reload();
          await expectItem(page, "Staff two-factor authentication", true);
        });
      });

      it("the checklist at 375 px and in the dark", async () => {
        const phone = await signedIn(browser, platform, staff, viewports.mobile, "/admin", "dark");
        await checked([phone], async () => {
          await expectVisible(phone.page.getByRole("list", { name: "Setup checklist" }));
          await expectNoHorizontalOverflow(phone.page);
          await screenshot(phone.page, "operator-setup-375-dark");
        });
      });
    });

    describeBrowser("set up: the operator's own copy, live feeds, SMTP, a payment method", () => {
      let platform: TestPlatform;
      let contentDir: string;

      beforeAll(async () => {
        // What the checklist tells the operator to do for the two items read at start: their
        // own company text and a support address in CONTENT_DIR/site.json, and FEED_SOURCES
        // for every asset class. The feeds' hosts are not reachable from a test box; the
        // checklist reads the configuration, not whether a tick has come.
        contentDir = mkdtempSync(path.join(tmpdir(), "tp-e2e-content-"));
        cpSync(shipped_content_dir, contentDir, { recursive: true });
        const sitePath = path.join(contentDir, "site.json");
        const site = JSON.parse(readFileSync(sitePath, "utf8"));
        site.company.description = "Example Markets Ltd runs fixed-time trading for its clients.";
        site.contact.general_email = "support@example.test";
        writeFileSync(sitePath, JSON.stringify(site));
        platform = await startBrowserPlatform(kind, {
          ...staff_env,
          CONTENT_DIR: contentDir,
          FEED_SOURCES: "all=finnhub,crypto=binance",
          FEED_API_KEY: "e2e-finnhub-key",
        });
        await configureBitcoinByApi(
          platform,
          await signInByApi(platform, staff.email, staff.password),
        );
      });
      afterAll(async () => {
        await platform?.close();
        if (contentDir) rmSync(contentDir, { recursive: true, force: true });
      });

      it("every item of the checklist is done, each saying what it found", async () => {
        const desk = await signedIn(browser, platform, staff, viewports.desktop, "/admin");
        await checked([desk], async () => {
          const { page } = desk;
          for (const title of [
            "Payment methods",
            "Live prices",
            "Outgoing e-mail",
            "Site content",
            "Staff two-factor authentication",
          ]) {
            await expectItem(page, title, true);
          }
          expect(await page.getByText("To do", { exact: true }).count()).toBe(0);
          await expectVisible(
            setupItem(page, "Live prices").getByText(/^All \d+ assets are priced by live feeds\.$/),
          );
          await expectVisible(
            setupItem(page, "Site content").getByText(
              "The public pages show your own company text and how to reach support.",
            ),
          );
          // The public pages carry the operator's copy, not the sample.
          await page.goto("/about");
          await expectVisible(
            page.getByText("Example Markets Ltd runs fixed-time trading for its clients.").first(),
          );
          await page.goto("/admin");
          await expectItem(page, "Site content", true);
          await screenshot(page, "operator-setup-done-1280-light");
        });
      });
    });

    describeBrowser("with a market data provider (the local fake)", () => {
      let platform: TestPlatform;
      let providers: FakeProviders;

      beforeAll(async () => {
        providers = await startFakeMarketProviders();
        platform = await startBrowserPlatform(kind, {
          ...staff_env,
          ...fakeMarketProvidersEnv(providers),
        });
      });
      afterAll(async () => {
        await platform?.close();
        await providers?.close();
      });

      it("the crypto market page lists the top coins with logos from our own server", async () => {
        const trader = newTrader({ first_name: "Coin", last_name: "Watcher" });
        await registerByApi(platform, trader);
        const desk = await signedIn(
          browser,
          platform,
          trader,
          viewports.desktop,
          "/user/dashboard",
        );
        const phone = await signedIn(
          browser,
          platform,
          trader,
          viewports.mobile,
          "/user/crypto-market",
          "dark",
        );
        await checked([desk, phone], async () => {
          const { page } = desk;
          await page
            .getByRole("navigation", { name: "Account sections" })
            .getByRole("link", { name: "Crypto market" })
            .click();
          await expectPath(page, "/user/crypto-market");
          const bitcoin = page.getByRole("row").filter({ hasText: "Bitcoin" }).first();
          await expectVisible(bitcoin.getByText("$96,512.37"));
          await expectVisible(bitcoin.getByRole("cell", { name: "-1.12%", exact: true }));
          await expectVisible(bitcoin.getByRole("cell", { name: "$41.24B", exact: true }));
          await expectVisible(bitcoin.getByRole("cell", { name: "$1.93T", exact: true }));
          // Every logo decoded from our origin (a CSP refusal would be a page problem); they
          // load lazily, so the whole list is scrolled through first.
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          const logos = page.locator("table img");
          const count = await logos.count();
          expect(count).toBeGreaterThan(0);
          await expect
            .poll(() =>
              logos.evaluateAll((images) =>
                images.every(
                  (image) =>
                    (image as HTMLImageElement).complete &&
                    (image as HTMLImageElement).naturalWidth === 64 &&
                    new URL((image as HTMLImageElement).src).origin === window.location.origin,
                ),
              ),
            )
            .toBe(true);
          expect(providers.hits(listings_path).length).toBe(1);
          expect(
            providers.requests.filter((request) => request.path.startsWith(coin_images_path))
              .length,
          ).toBe(count);
          await page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(page, "crypto-market-1280-light");

          const phoneBitcoin = phone.page.getByRole("row").filter({ hasText: "Bitcoin" }).first();
          // On a phone the change sits under the price (its own column is hidden).
          await expectVisible(phoneBitcoin.getByText("-1.12%").first());
          // Nothing of a row is cut off by the card's edge on a phone.
          expect(
            await phone.page
              .locator("table")
              .evaluate((table) => table.scrollWidth <= (table.parentElement?.clientWidth ?? 0)),
          ).toBe(true);
          await expectNoHorizontalOverflow(phone.page);
          await screenshot(phone.page, "crypto-market-375-dark");
        });
      });
    });
  },
);

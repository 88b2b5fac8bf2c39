import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, Page } from "playwright-core";
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
  backgroundRgb,
  dismissToasts,
  expectFieldError,
  expectHidden,
  expectNoHorizontalOverflow,
  expectPath,
  expectReceivesClicks,
  expectToast,
  expectVisible,
  storedItem,
} from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { SignUpPage } from "../src/pages/sign-up-page.ts";
import { UserShell } from "../src/pages/user-shell.ts";
import { newTrader, registerByApi, startBrowserPlatform, type Trader } from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

/**
 * SPEC §2 "Navigation" and the theme, plus the sign-up form's messages (SPEC §5). Layout
 * does not depend on the database, so this suite runs on PGlite only; the account journey
 * covers every database kind.
 */
describeBrowser("signed-in shell, theme and sign-up messages in Chromium", () => {
  let platform: TestPlatform;
  let browser: Browser;
  let trader: Trader;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startBrowserPlatform("pglite"), launchBrowser()]);
    trader = newTrader({ first_name: "Katherine", last_name: "Johnson" });
    await registerByApi(platform, trader);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /** A fresh profile at `viewport`, signed in through the form, on /user/dashboard. */
  async function signedIn(viewport: Viewport): Promise<BrowserSession> {
    const session = await openSession(browser, platform.baseUrl, viewport);
    const signIn = new SignInPage(session.page);
    await signIn.open();
    await signIn.signIn(trader.email, trader.password);
    await expectPath(session.page, "/user/dashboard");
    return session;
  }

  async function withSession(session: BrowserSession, run: (page: Page) => Promise<void>) {
    try {
      await run(session.page);
      expect(session.problems).toEqual([]);
    } catch (error) {
      const name = expect.getState().currentTestName ?? "test";
      const file = `failure-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80)}`;
      await screenshot(session.page, file, { fullPage: false }).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  }

  it("home page: Register leads to sign-up and Try Free Demo to sign-in, at desktop and 375 px", async () => {
    for (const [name, viewport] of [
      ["desktop", viewports.desktop],
      ["375", viewports.mobile],
    ] as const) {
      await withSession(await openSession(browser, platform.baseUrl, viewport), async (page) => {
        await page.goto("/", { waitUntil: "networkidle" });
        await expectVisible(page.getByText("Seize every opportunity").first());
        await expectVisible(page.getByText("Your security is our priority").first());
        await expectNoHorizontalOverflow(page);
        await screenshot(page, `home-${name}`);

        const register = page
          .getByRole("main")
          .getByRole("link", { name: /^register/i })
          .first();
        expect(
          new URL(await register.evaluate((link) => (link as HTMLAnchorElement).href)).pathname,
        ).toBe("/account/sign-up");
        const demo = page.getByRole("link", { name: /try free demo/i }).first();
        expect(
          new URL(await demo.evaluate((link) => (link as HTMLAnchorElement).href)).pathname,
        ).toBe("/account/sign-in");
        await demo.click();
        await expectPath(page, "/account/sign-in");
      });
    }
  });

  it("at 375×812: mobile top bar, slide-in panel with its items, bottom bar; desktop nav hidden", async () => {
    await withSession(await signedIn(viewports.mobile), async (page) => {
      const shell = new UserShell(page);
      await expectVisible(shell.menuButton);
      await expectVisible(shell.bottomBar);
      for (const item of ["Dashboard", "Deposit", "History"]) {
        await expectVisible(shell.bottomBar.getByRole("link", { name: item, exact: true }));
      }
      // The bottom bar's Theme switches the theme as the desktop toggle does.
      const bottomTheme = shell.bottomBar.getByRole("button", { name: /theme/i });
      const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
      expect(await isDark()).toBe(false);
      await bottomTheme.click();
      await expect.poll(isDark).toBe(true);
      expect(await storedItem(page, "theme")).toBe("dark");
      await bottomTheme.click();
      await expect.poll(isDark).toBe(false);
      await expectHidden(shell.sectionsNav);
      await expectHidden(shell.logout);
      await expectHidden(shell.panel);
      await expectNoHorizontalOverflow(page);
      await dismissToasts(page);
      // The viewport only: a full-page picture would paint the fixed bottom bar mid-page.
      await screenshot(page, "shell-375", { fullPage: false });

      await shell.menuButton.click();
      await expectVisible(shell.panel);
      await expectVisible(shell.panel.getByText("Account Status", { exact: true }));
      await expectVisible(shell.panel.getByText("Account Level", { exact: true }));
      await expectVisible(shell.panel.getByText("Basic", { exact: true }));
      const links: Array<[string, string]> = [
        ["Dashboard", "/user/dashboard"],
        ["Deposit Funds", "/user/fund-wallet"],
        ["Profile", "/user/personal-data"],
        ["Statements", "/user/transaction-history"],
        ["Settings", "/user/security"],
        ["Referrals", "/user/referrals"],
      ];
      for (const [name, path] of links) {
        const link = shell.panel.getByRole("link", { name, exact: true });
        await expectVisible(link);
        await expectReceivesClicks(link, { soft: true });
        expect(new URL(await link.evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe(
          path,
        );
      }
      const logout = shell.panel.getByRole("button", { name: /^log ?out$/i });
      await expectVisible(logout);
      await screenshot(page, "shell-375-panel", { fullPage: false });
      await expectReceivesClicks(logout, { soft: true });
      // "a red Logout": the button's background is red (R well above G and B).
      const { red, green, blue } = await backgroundRgb(logout);
      const rgb = `rgb(${red}, ${green}, ${blue})`;
      expect(red, `Logout background ${rgb} is red`).toBeGreaterThan(150);
      expect(red - Math.max(green, blue), `Logout background ${rgb} is red`).toBeGreaterThan(80);
      // The panel slides in from the right edge.
      const box = await shell.panel.boundingBox();
      expect(box).not.toBeNull();
      expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(viewports.mobile.width);

      // A panel link navigates and closes the panel.
      await shell.panel.getByRole("link", { name: "Settings", exact: true }).click();
      await expectPath(page, "/user/security");
      await expectHidden(shell.panel);

      // The panel's Logout signs out (a covered button cannot be tapped: the click times out).
      await shell.menuButton.click();
      await shell.panel.getByRole("button", { name: /^log ?out$/i }).click({ timeout: 5_000 });
      await expectPath(page, "/account/sign-in");
      expect(await storedItem(page, "token")).toBeNull();
    });
  });

  it("at 1280×800: desktop top bar and secondary nav; mobile bars hidden", async () => {
    await withSession(await signedIn(viewports.desktop), async (page) => {
      const shell = new UserShell(page);
      await expectVisible(shell.logout);
      await expectVisible(shell.depositFunds);
      await expectVisible(shell.sectionsNav);
      for (const item of ["TRADING", "ACCOUNT", "STATEMENTS", "SETTINGS", "MY REFERRALS"]) {
        await expectVisible(shell.sectionItem(item));
      }
      await expectVisible(shell.themeToggle());
      await expectHidden(shell.menuButton);
      await expectHidden(shell.bottomBar);
      await expectNoHorizontalOverflow(page);
      await expectReceivesClicks(shell.logout);
      await dismissToasts(page);
      await screenshot(page, "shell-desktop");

      // STATEMENTS opens its menu with both history pages.
      await shell.sectionItem("STATEMENTS").click();
      await expectVisible(
        shell.sectionsNav.getByRole("link", { name: "Transaction History", exact: true }),
      );
      await expectVisible(
        shell.sectionsNav.getByRole("link", { name: "Trade History", exact: true }),
      );
    });
  });

  it("the theme toggle flips `dark` on <html> and `theme` in localStorage, and survives a reload", async () => {
    await withSession(await signedIn(viewports.desktop), async (page) => {
      const shell = new UserShell(page);
      const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));

      // Default light (SPEC §2).
      expect(await isDark()).toBe(false);
      expect(await storedItem(page, "theme")).not.toBe("dark");

      await shell.themeToggle().click();
      await expect.poll(isDark).toBe(true);
      expect(await storedItem(page, "theme")).toBe("dark");

      await page.reload();
      await expectVisible(shell.logout);
      expect(await isDark()).toBe(true);
      expect(await storedItem(page, "theme")).toBe("dark");
      await dismissToasts(page);
      await screenshot(page, "shell-desktop-dark");

      await shell.themeToggle().click();
      await expect.poll(isDark).toBe(false);
      expect(await storedItem(page, "theme")).toBe("light");
      await page.reload();
      await expectVisible(shell.logout);
      expect(await isDark()).toBe(false);
    });
  });

  it("sign-up shows the spec's messages under the fields for an empty and an invalid form", async () => {
    await withSession(
      await openSession(browser, platform.baseUrl, viewports.desktop),
      async (page) => {
        const signUp = new SignUpPage(page);
        await signUp.open();
        await signUp.submit.click();
        await expectToast(page, "Please check all required fields");
        await expectFieldError(signUp.firstName, "First name is required");
        await expectFieldError(signUp.lastName, "Last name is required");
        await expectFieldError(
          signUp.email,
          /^(Email is required|Please enter a valid email address)$/,
        );
        await expectFieldError(signUp.password, "Password is required");
        await expectFieldError(signUp.phone, "Phone number is required");
        await expectFieldError(signUp.acceptTerms, /18/);
        await expectPath(page, "/account/sign-up");
        await screenshot(page, "sign-up-errors-desktop");

        // Wrong formats get the format messages.
        await signUp.fill(
          newTrader({
            first_name: "R2-D2",
            email: "not-an-address",
            password: "short",
            phone_number: "12",
          }),
          { confirmation: "different" },
        );
        await signUp.submit.click();
        await expectFieldError(
          signUp.firstName,
          "Only letters and spaces allowed, between 2-30 characters",
        );
        await expectFieldError(signUp.email, "Please enter a valid email address");
        await expectFieldError(
          signUp.password,
          "Password must be at least 8 characters with uppercase, lowercase and number",
        );
        await expectFieldError(signUp.phone, "Please enter a valid phone number");
        await expectPath(page, "/account/sign-up");

        // A matching-format form with a mismatched confirmation names the mismatch.
        await signUp.fill(newTrader(), { confirmation: "Another1password" });
        await signUp.submit.click();
        await expectFieldError(signUp.confirmPassword, "Passwords do not match");
        await expectPath(page, "/account/sign-up");

        // At 375 px the form with its errors still fits the screen.
        await page.setViewportSize(viewports.mobile);
        await signUp.firstName.fill("");
        await signUp.submit.click();
        await expectFieldError(signUp.firstName, "First name is required");
        await expectNoHorizontalOverflow(page);
        await screenshot(page, "sign-up-errors-375");
      },
    );
  });
});

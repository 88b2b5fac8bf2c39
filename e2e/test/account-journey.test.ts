import { journeyOn } from "@tp/server/testing/fresh-database";
import { linkIn } from "@tp/server/testing/smtp-capture";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openSession } from "../src/browser.ts";
import { expectPath, expectToast, expectVisible, storedItem } from "../src/pages/common.ts";
import { SecurityPage } from "../src/pages/security-page.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { SignUpPage } from "../src/pages/sign-up-page.ts";
import { UserShell } from "../src/pages/user-shell.ts";
import {
  api,
  emailed_origin,
  newTrader,
  onPlatform,
  startBrowserPlatform,
} from "../src/platform.ts";
import { screenshot } from "../src/screenshots.ts";

/**
 * SPEC §2 and §4: a visitor registers through the form, verifies the address from the real
 * e-mail, signs in, changes the password on /user/security, signs out, and only the new
 * password lets them back in.
 */
describeBrowser.each(journeyOn("pglite"))("account journey in Chromium on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([startBrowserPlatform(kind), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it("registers, verifies the e-mail, signs in, changes the password, signs out and back in", async () => {
    const trader = newTrader();
    const newPassword = "Fortran1957flies";
    const session = await openSession(browser, platform.baseUrl);
    const { page } = session;
    try {
      // Sign up through the form; the country starts on United States (SPEC §3).
      const signUp = new SignUpPage(page);
      await signUp.open();
      expect(await signUp.country.inputValue()).toBe("United States");
      await signUp.fill({ ...trader, country: "Canada" });
      await signUp.submit.click();
      await expectToast(page, "Registration successful!");
      await expectPath(page, "/welcome");
      await expectVisible(page.getByRole("main").getByText(trader.email));
      await expectVisible(page.getByRole("button", { name: /resend verification e-?mail/i }));

      // The verification e-mail really went out, with a link to the verify page.
      const mail = await platform.smtp.waitFor(trader.email, /^Verify your e-mail address/);
      const link = linkIn(mail, `${emailed_origin}/account/verify-email?`);
      const linkUrl = new URL(link);
      expect(linkUrl.searchParams.get("email")).toBe(trader.email);
      expect(linkUrl.searchParams.get("token")).toBeTruthy();

      await page.goto(onPlatform(platform, link));
      await expectVisible(page.getByText("Email verified successfully"));

      // Sign in from the verify page's own button.
      await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();
      await expectPath(page, "/account/sign-in");
      const signIn = new SignInPage(page);
      await signIn.signIn(trader.email, trader.password);
      await expectToast(page, "Login successful!");
      await expectPath(page, "/user/dashboard");
      const shell = new UserShell(page);
      await expectVisible(shell.logout);
      await expectVisible(shell.sectionsNav);

      // The browser holds a real session: the API confirms the address is verified.
      const token = await storedItem(page, "token");
      expect(token, "the bearer token is kept in localStorage under `token`").toBeTruthy();
      const me = await api(platform, "GET", "/user", { token });
      expect(me.status).toBe(200);
      expect(me.body.data.user.email).toBe(trader.email);
      expect(me.body.data.user.account.country).toBe("Canada");
      expect(me.body.data.user.email_verified_at).toBe(platform.clock.now().toISOString());

      // Settings → Security, change the password.
      await shell.goThroughMenu("SETTINGS", "Security");
      await expectPath(page, "/user/security");
      const security = new SecurityPage(page);
      await security.changePassword(trader.password, newPassword);
      await expectToast(page, "Password updated successfully");
      // The form empties after success.
      expect(await security.currentPassword.inputValue()).toBe("");

      // LOGOUT ends the session on the server too.
      await shell.logout.click();
      await expectPath(page, "/account/sign-in");
      expect(await storedItem(page, "token")).toBeNull();
      expect((await api(platform, "GET", "/user", { token })).status).toBe(401);

      // The old password no longer works: the server's message shows, nobody is signed in.
      await signIn.signIn(trader.email, trader.password);
      await expectToast(page, "Invalid email or password");
      expect(new URL(page.url()).pathname).toBe("/account/sign-in");
      expect(await storedItem(page, "token")).toBeNull();

      // The new one does, and a sign-in after a deliberate LOGOUT starts on the dashboard, not
      // on the page the previous session was last on (which may be someone else's session).
      await signIn.signIn(trader.email, newPassword);
      await expectToast(page, "Login successful!");
      await expectPath(
        page,
        "/user/dashboard",
        "a sign-in after LOGOUT starts on the dashboard, not where the previous session was",
      );
      await expectVisible(shell.logout);
      expect(await storedItem(page, "token")).toBeTruthy();

      expect(session.problems).toEqual([]);
    } catch (error) {
      await screenshot(page, `failure-account-journey-${kind}`).catch(() => undefined);
      throw error;
    } finally {
      await session.close();
    }
  });
});

import { serverMessages } from "@tp/domain/messages";
import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openSession } from "../src/browser.ts";
import { expectPath, expectToast, expectVisible } from "../src/pages/common.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { api, newTrader, registerByApi, startBrowserPlatform } from "../src/platform.ts";

/**
 * Issue 12 item 7 in Chromium: after someone else's bad attempts the owner is not locked out;
 * the sign-in form shows the real ALTCHA widget, which solves its proof of work in a worker
 * under the app's strict CSP, and the right password then signs in.
 */
describeBrowser.each(journeyOn("postgres"))("no lockout in Chromium on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startBrowserPlatform(kind, { RATE_LIMIT_FACTOR: "1" }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it("the owner signs in with a solved challenge after ten bad attempts by someone else", async () => {
    const owner = newTrader();
    await registerByApi(platform, owner);
    for (let attempt = 0; attempt < 10; attempt++) {
      const reply = await api(platform, "POST", "/login", {
        body: { email: owner.email, password: `Wrong${attempt}Guess` },
      });
      expect([401, 428]).toContain(reply.status);
    }

    const session = await openSession(browser, platform.baseUrl);
    const { page } = session;
    try {
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(owner.email, owner.password);
      await expectToast(page, serverMessages.challengeRequired);
      await expectPath(page, "/account/sign-in");

      // What a person does: tick "I'm not a robot" (its label; the drawn tick covers the box).
      const widget = page.locator("altcha-widget");
      await expectVisible(widget.getByRole("checkbox"));
      await widget.getByText("I'm not a robot").click();
      await expectVisible(widget.getByText(/verified/i));

      await signIn.submit.click();
      await expectToast(page, "Login successful!");
      await expectPath(page, "/user/dashboard");
      expect(session.problems).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

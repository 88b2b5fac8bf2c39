import { journeyOn } from "@tp/server/testing/fresh-database";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Browser, CDPSession } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBrowser, launchBrowser, openSession } from "../src/browser.ts";
import { dismissToasts, expectPath, expectToast, expectVisible } from "../src/pages/common.ts";
import { PasskeysSection } from "../src/pages/passkeys-section.ts";
import { SignInPage } from "../src/pages/sign-in-page.ts";
import { UserShell } from "../src/pages/user-shell.ts";
import { api, newTrader, registerByApi, startProxiedBrowserPlatform } from "../src/platform.ts";

/**
 * Issue 12 item 3: a trader registers a passkey on the Security page, signs out, and signs
 * back in with the passkey alone, in Chromium with a virtual authenticator (a platform
 * authenticator that holds discoverable credentials and verifies its user).
 *
 * WebAuthn needs a secure context and an RP ID that is a domain: the page is served from
 * http://localhost (secure by definition), which is also PUBLIC_URL, so the RP ID is
 * "localhost" and the page's origin is the one the server expects.
 */
describeBrowser.each(journeyOn("pglite"))("passkey journey in Chromium on %s", (kind) => {
  let platform: TestPlatform;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startProxiedBrowserPlatform(kind, { publicHost: "localhost" }),
      launchBrowser(),
    ]);
    origin = `http://localhost:${new URL(platform.baseUrl).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it("registers a passkey on the Security page, signs out, and signs in with it", async () => {
    const trader = newTrader();
    await registerByApi(platform, trader);
    const session = await openSession(browser, origin);
    const { page } = session;
    let cdp: CDPSession | null = null;
    try {
      cdp = await page.context().newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(trader.email, trader.password);
      await expectToast(page, "Login successful!");
      await expectPath(page, "/user/dashboard");
      await dismissToasts(page);

      // Add a passkey: the session is fresh from sign-in, so no step-up is asked for.
      await page.goto("/user/security");
      const passkeys = new PasskeysSection(page);
      await expectVisible(passkeys.section);
      await expectVisible(passkeys.section.getByText("No passkeys yet."));
      await passkeys.name.fill("This laptop");
      await passkeys.add.click();
      await expectToast(page, "Passkey added");
      await expectVisible(passkeys.list.getByText("This laptop"));
      await expectVisible(passkeys.list.getByText(/Never used/));
      await dismissToasts(page);

      // The authenticator holds one discoverable credential for RP ID "localhost".
      const held = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(held.credentials).toHaveLength(1);
      expect(held.credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });

      // Sign out, then back in with the passkey alone: no e-mail, no password.
      await new UserShell(page).logout.click();
      await expectPath(page, "/account/sign-in");
      await dismissToasts(page);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await expectToast(page, "Login successful!");
      await expectPath(page, "/user/dashboard");

      // A real session of this trader; the passkey's use is recorded and its counter moved.
      const token = await page.evaluate(() => localStorage.getItem("token"));
      const me = await api(platform, "GET", "/user", { token });
      expect(me.status).toBe(200);
      expect(me.body.data.user.email).toBe(trader.email.toLowerCase());
      const list = await api(platform, "GET", "/passkeys", { token });
      expect(list.body.data.passkeys).toHaveLength(1);
      expect(list.body.data.passkeys[0].name).toBe("This laptop");
      expect(list.body.data.passkeys[0].last_used_at).not.toBeNull();
      const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(after.credentials[0]?.signCount).toBeGreaterThan(held.credentials[0]?.signCount ?? 0);

      // The Security page shows the last use, and removes the passkey (still stepped up).
      await page.goto("/user/security");
      await expectVisible(passkeys.list.getByText(/Last used/));
      await passkeys.remove("This laptop").click();
      await expectToast(page, "Passkey removed");
      await expectVisible(passkeys.section.getByText("No passkeys yet."));
      expect(session.problems).toEqual([]);
    } finally {
      await cdp?.detach().catch(() => {});
      await session.close();
    }
  });
});

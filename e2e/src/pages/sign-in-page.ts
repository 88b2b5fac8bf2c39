import { keepRecoveryCodes, nextSecondFactorCode } from "@tp/server/testing/second-factor-sign-in";
import type { TestPlatform } from "@tp/server/testing/test-platform";
import type { Locator, Page } from "playwright-core";
import { expectVisible } from "./common.ts";

/** /account/sign-in, with its second steps (issue 12): the code, a staff member's enrolment. */
export class SignInPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly codeStep: Locator;
  readonly enrolmentStep: Locator;
  readonly code: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email", { exact: true });
    this.password = page.getByLabel("Password", { exact: true });
    this.submit = page.getByRole("button", { name: /^(sign in|log in|login)$/i });
    this.codeStep = page.getByRole("heading", { name: "Two-factor authentication" });
    this.enrolmentStep = page.getByRole("heading", { name: "Set up two-factor authentication" });
    this.code = page.getByLabel("Authentication code", { exact: true });
  }

  async open(): Promise<void> {
    await this.page.goto("/account/sign-in");
    await expectVisible(this.email);
  }

  /** The password step only (a trader without 2FA is then signed in). */
  async signIn(email: string, password: string): Promise<void> {
    await expectVisible(this.email);
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  /**
   * Signs anyone in through whatever the account asks after the password: nothing (a
   * trader without 2FA), a code (computed as the authenticator app would, with the shared
   * test helper), or a staff member's enrolment (QR key read off the page, recovery codes
   * kept for later sign-ins). Every browser suite signs staff in through here.
   */
  async signInThroughSecondFactor(
    platform: TestPlatform,
    email: string,
    password: string,
  ): Promise<void> {
    await this.signIn(email, password);
    const next = this.codeStep.or(this.enrolmentStep);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (new URL(this.page.url()).pathname !== "/account/sign-in") return;
      // The Security page has a "Two-factor authentication" heading too: a step counts only
      // while the page is still the sign-in page.
      if (await next.isVisible()) {
        if (new URL(this.page.url()).pathname !== "/account/sign-in") return;
        break;
      }
      await this.page.waitForTimeout(100);
    }
    if (new URL(this.page.url()).pathname !== "/account/sign-in") return;
    if (!(await next.isVisible())) return;
    if (await this.enrolmentStep.isVisible()) {
      await this.code.fill(await nextSecondFactorCode(platform, email));
      await this.page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
      const codes = this.page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      await expectVisible(codes.first());
      keepRecoveryCodes(platform, email, await codes.allTextContents());
      await this.page.getByRole("button", { name: "I have saved my recovery codes" }).click();
      return;
    }
    await this.code.fill(await nextSecondFactorCode(platform, email));
    await this.page.getByRole("button", { name: "Verify" }).click();
  }
}

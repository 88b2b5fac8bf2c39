import type { Locator, Page } from "playwright-core";
import { expectVisible } from "./common.ts";

/** /account/sign-in. */
export class SignInPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email", { exact: true });
    this.password = page.getByLabel("Password", { exact: true });
    this.submit = page.getByRole("button", { name: /^(sign in|log in|login)$/i });
  }

  async open(): Promise<void> {
    await this.page.goto("/account/sign-in");
    await expectVisible(this.email);
  }

  async signIn(email: string, password: string): Promise<void> {
    await expectVisible(this.email);
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }
}

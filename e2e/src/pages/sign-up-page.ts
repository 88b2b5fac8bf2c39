import type { Locator, Page } from "playwright-core";
import type { Trader } from "../platform.ts";
import { expectVisible } from "./common.ts";

/** /account/sign-up (SPEC §2, fields of SPEC §3 "Registration", messages of SPEC §5). */
export class SignUpPage {
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly confirmPassword: Locator;
  readonly country: Locator;
  readonly phone: Locator;
  readonly acceptTerms: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.firstName = page.getByLabel("First name", { exact: true });
    this.lastName = page.getByLabel("Last name", { exact: true });
    this.email = page.getByLabel("Email", { exact: true });
    this.password = page.getByLabel("Password", { exact: true });
    this.confirmPassword = page.getByLabel(/^confirm password$/i);
    this.country = page.getByLabel("Country", { exact: true });
    this.phone = page.getByLabel(/^phone( number)?$/i);
    this.acceptTerms = page.getByRole("checkbox", {
      name: /I am 18 or older and accept the Terms of Service/i,
    });
    this.submit = page.getByRole("button", { name: /^(register|sign up|create account)$/i });
  }

  async open(): Promise<void> {
    await this.page.goto("/account/sign-up");
    await expectVisible(this.firstName);
  }

  async fill(
    trader: Trader,
    options: { confirmation?: string; acceptTerms?: boolean } = {},
  ): Promise<void> {
    await this.firstName.fill(trader.first_name);
    await this.lastName.fill(trader.last_name);
    await this.email.fill(trader.email);
    await this.password.fill(trader.password);
    await this.confirmPassword.fill(options.confirmation ?? trader.password);
    await this.country.selectOption({ label: trader.country });
    await this.phone.fill(trader.phone_number);
    if (options.acceptTerms ?? true) await this.acceptTerms.check();
  }
}

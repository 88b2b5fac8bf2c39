import type { Locator, Page } from "playwright-core";

/** /user/security: change password, log out other sessions (SPEC §2). */
export class SecurityPage {
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly updatePassword: Locator;
  readonly logoutOtherSessions: Locator;

  constructor(readonly page: Page) {
    this.currentPassword = page.getByLabel(/^current password$/i);
    this.newPassword = page.getByLabel(/^new password$/i);
    this.confirmPassword = page.getByLabel(/^confirm (new )?password$/i);
    this.updatePassword = page.getByRole("button", { name: /^(update|change) password$/i });
    this.logoutOtherSessions = page.getByRole("button", {
      name: /log ?out (from )?(all )?other sessions/i,
    });
  }

  async changePassword(current: string, next: string): Promise<void> {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.confirmPassword.fill(next);
    await this.updatePassword.click();
  }
}

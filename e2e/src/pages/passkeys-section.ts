import type { Locator, Page } from "playwright-core";

/** The "Passkeys" section of /user/security (issue 12). */
export class PasskeysSection {
  readonly section: Locator;
  readonly name: Locator;
  readonly add: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole("region", { name: "Passkeys" });
    this.name = this.section.getByLabel("Passkey name", { exact: true });
    this.add = this.section.getByRole("button", { name: "Add a passkey" });
    this.list = this.section.getByRole("list", { name: "Your passkeys" });
  }

  remove(name: string): Locator {
    return this.section.getByRole("button", { name: `Remove passkey ${name}` });
  }
}

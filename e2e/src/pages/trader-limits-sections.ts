import type { TraderLimitKind } from "@tp/domain/trader-limits";
import type { Locator, Page } from "playwright-core";

/** The field labels of the limits form (limits-section.tsx fieldLabel). */
export const limitFieldLabels: Record<TraderLimitKind, string> = {
  loss_day: "Daily loss limit (USD)",
  loss_week: "Weekly loss limit (USD)",
  loss_month: "Monthly loss limit (USD)",
  stake_day: "Daily stake limit (USD)",
  stake_week: "Weekly stake limit (USD)",
  stake_month: "Monthly stake limit (USD)",
  deposit_day: "Daily deposit limit (USD)",
  deposit_week: "Weekly deposit limit (USD)",
  deposit_month: "Monthly deposit limit (USD)",
  open_trades: "Open trades limit",
  session_minutes: "Session time limit (minutes)",
};

/**
 * /user/responsible-trading, issue 14 items 1-2: the "Your limits" form (each field described
 * by what is in force and used, a pending change beside it) and "Take a break" with its
 * confirmation dialog.
 */
export class TraderLimitsSections {
  readonly limitsHeading: Locator;
  readonly limitsForm: Locator;
  readonly saveLimits: Locator;
  readonly breakHeading: Locator;
  readonly breakLength: Locator;
  readonly takeBreak: Locator;
  readonly breakInForce: Locator;

  constructor(readonly page: Page) {
    this.limitsHeading = page.getByRole("heading", { name: "Your limits" });
    this.limitsForm = page.getByRole("form", { name: "Your limits" });
    this.saveLimits = page.getByRole("button", { name: "Save limits" });
    this.breakHeading = page.getByRole("heading", { name: "Take a break" });
    this.breakLength = page.getByLabel(/^(Length of the break|Extend it with a longer break)$/);
    this.takeBreak = page.getByRole("button", { name: "Take a break" });
    this.breakInForce = page.getByRole("note", { name: "Break in force" });
  }

  field(kind: TraderLimitKind): Locator {
    return this.page.getByLabel(limitFieldLabels[kind], { exact: true });
  }

  /** The field's box: its input, the in-force and used line, and any pending change. */
  limitBox(kind: TraderLimitKind): Locator {
    return this.page.locator(`[data-limit="${kind}"]`);
  }

  async setLimit(kind: TraderLimitKind, text: string): Promise<void> {
    await this.field(kind).fill(text);
    await this.saveLimits.click();
  }

  /** The break's dialog: "Start a time-out?" or "Start a self-exclusion?". */
  confirmDialog(kind: "time-out" | "self-exclusion"): Locator {
    return this.page.getByRole("dialog", { name: `Start a ${kind}?` });
  }

  /** Picks a break by its option text ("Time-out: 1 day") and opens the confirmation. */
  async chooseBreak(label: string): Promise<void> {
    await this.breakLength.selectOption({ label });
    await this.takeBreak.click();
  }
}

import type { AdminFourEyes } from "@tp/domain/admin-api";
import { centsFromDollars } from "@tp/domain/money";
import type { Config } from "../config.ts";

/**
 * Four eyes on money (issue 12 item 8): a deposit or withdrawal whose amount is above
 * FOUR_EYES_THRESHOLD_DOLLARS is approved only when a second reviewer, different from the
 * first, approves too. review-transition.ts runs the steps; this file says which rows need
 * them and how the back office sees them.
 */

export function fourEyesThresholdCents(config: Pick<Config, "FOUR_EYES_THRESHOLD_DOLLARS">) {
  const cents = centsFromDollars(config.FOUR_EYES_THRESHOLD_DOLLARS);
  // The config schema allows only whole cents within the safe range.
  if (cents === null) throw new Error("FOUR_EYES_THRESHOLD_DOLLARS is not a whole number of cents");
  return cents;
}

/** Strictly above: an amount equal to the threshold needs one approval. */
export function needsSecondApproval(amount_cents: number, threshold_cents: number): boolean {
  return amount_cents > threshold_cents;
}

/** The first-approval columns a funding row carries (migration 017). */
export interface FirstApprovalColumns {
  amount_cents: number;
  first_approved_by_user_id: number | null;
  first_approver_email: string | null;
  first_approved_at: Date | null;
}

export function fourEyesView(row: FirstApprovalColumns, threshold_cents: number): AdminFourEyes {
  return {
    needs_second_approval: needsSecondApproval(row.amount_cents, threshold_cents),
    first_approved_by:
      row.first_approved_by_user_id === null
        ? null
        : { id: row.first_approved_by_user_id, email: row.first_approver_email ?? "" },
    first_approved_at: row.first_approved_at?.toISOString() ?? null,
  };
}

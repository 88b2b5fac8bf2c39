import type { AdminFourEyes } from "@tp/domain/admin-api";
import { formatDateTime } from "./admin-format.ts";

/**
 * Four eyes on a deposit or withdrawal above the threshold: which approval a reviewer's click
 * would be. "single": one is enough; "first": nothing moves yet; "second": completes it;
 * "own": this reviewer gave the first, so someone else must give the second.
 */
export type ApprovalStep = "single" | "first" | "second" | "own";

export function approvalStep(fourEyes: AdminFourEyes, userId: number | null): ApprovalStep {
  // A first approval, once given, always needs someone else (as the server says).
  if (fourEyes.first_approved_by) {
    return fourEyes.first_approved_by.id === userId ? "own" : "second";
  }
  return fourEyes.needs_second_approval ? "first" : "single";
}

/** Whether an open item waits for its second approval (shown as a badge in the queue). */
export function awaitingSecondApproval(item: { four_eyes: AdminFourEyes }, open: boolean) {
  return open && item.four_eyes.first_approved_by !== null;
}

/** A small amber pill: "Awaiting second approval". */
export function AwaitingSecondBadge() {
  return (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-semibold text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
      Awaiting second approval
    </span>
  );
}

/** The four-eyes facts of an item: who gave the first approval, and what is still needed. */
export function fourEyesFacts(fourEyes: AdminFourEyes, open: boolean): Array<[string, string]> {
  if (!fourEyes.needs_second_approval) return [];
  if (fourEyes.first_approved_by) {
    const when = formatDateTime(fourEyes.first_approved_at);
    return [
      [
        "Four eyes",
        `First approval by ${fourEyes.first_approved_by.email} (${when})${
          open ? " — awaiting second approval" : ""
        }`,
      ],
    ];
  }
  return open ? [["Four eyes", "Needs approvals from two different reviewers"]] : [];
}

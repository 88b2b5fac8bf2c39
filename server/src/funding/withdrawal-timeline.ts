import {
  type WithdrawalStatus,
  type WithdrawalTimelineEntry,
  withdrawal_processing_hours_max,
} from "@tp/domain/funding";

const hour_ms = 60 * 60 * 1000;

/** What of a withdrawal row its timeline reads. */
export interface WithdrawalTimelineFacts {
  status: WithdrawalStatus;
  created_at: Date;
  email_confirmed_at: Date | null;
  confirmation_expires_at: Date | null;
  first_approved_at: Date | null;
  reviewed_at: Date | null;
  updated_at: Date;
  rejection_reason: string | null;
  payout_reference: string | null;
}

/**
 * The trader's timeline of one withdrawal (issue 13): requested → confirmed by e-mail →
 * under review → paid | rejected, or cancelled at any point while pending. Each step that
 * happened carries its time; a pending withdrawal ends with the step expected next and the
 * time it is expected by (the link's expiry before confirmation, the normal processing time
 * of `withdrawal_processing_hours_max` after it). Read from the row alone: the time of an
 * end state is the row's last update, which is the transition that ended it.
 */
export function withdrawalTimeline(row: WithdrawalTimelineFacts): WithdrawalTimelineEntry[] {
  const iso = (at: Date) => at.toISOString();
  const done = (
    step: WithdrawalTimelineEntry["step"],
    at: Date,
    note: string | null = null,
  ): WithdrawalTimelineEntry => ({ step, at: iso(at), expected_by: null, note });
  const expected = (
    step: WithdrawalTimelineEntry["step"],
    by: Date | null,
    note: string | null,
  ): WithdrawalTimelineEntry => ({ step, at: null, expected_by: by ? iso(by) : null, note });

  const entries: WithdrawalTimelineEntry[] = [done("requested", row.created_at)];
  const confirmedAt = row.email_confirmed_at;
  if (confirmedAt) {
    entries.push(done("confirmed", confirmedAt));
    entries.push(
      done(
        "under_review",
        confirmedAt,
        row.first_approved_at ? "First approval given; a second reviewer completes it." : null,
      ),
    );
  }
  switch (row.status) {
    case "pending":
      if (!confirmedAt) {
        entries.push(
          expected(
            "confirmed",
            row.confirmation_expires_at,
            "Open the link we e-mailed you; unconfirmed by then, it is cancelled and the amount returned.",
          ),
        );
      } else {
        entries.push(
          expected(
            "processed",
            new Date(confirmedAt.getTime() + withdrawal_processing_hours_max * hour_ms),
            "Normally within 24-48 hours of your confirmation.",
          ),
        );
      }
      break;
    case "paid":
      entries.push(
        done(
          "paid",
          row.reviewed_at ?? row.updated_at,
          row.payout_reference ? `Payout reference: ${row.payout_reference}` : null,
        ),
      );
      break;
    case "rejected":
      entries.push(
        done(
          "rejected",
          row.reviewed_at ?? row.updated_at,
          row.rejection_reason ? `Reason: ${row.rejection_reason}` : null,
        ),
      );
      break;
    case "cancelled": {
      const byExpiry =
        !confirmedAt &&
        row.confirmation_expires_at !== null &&
        row.updated_at.getTime() >= row.confirmation_expires_at.getTime();
      entries.push(
        done(
          "cancelled",
          row.updated_at,
          byExpiry
            ? "Not confirmed from the e-mailed link in time; the amount was returned."
            : "Cancelled by you; the amount was returned.",
        ),
      );
      break;
    }
  }
  return entries;
}

import { serverMessages } from "@tp/domain/messages";
import type { Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";
import type { Session } from "./sessions.ts";

/**
 * Step-up (issue 12): money leaving the platform and changes to the account's keys
 * (password, e-mail, 2FA, passkeys) need a second factor proved on this session within
 * this window, or with 2FA off the password. Signing in counts: the session starts
 * stepped up.
 */
export const step_up_window_ms = 5 * 60 * 1000;

export async function markSteppedUp(queryable: Queryable, sessionId: number, at: Date) {
  await queryable.query("UPDATE sessions SET stepped_up_at = $1 WHERE id = $2", [at, sessionId]);
}

/** Throws STEP_UP_REQUIRED unless the session stepped up within the window. */
export async function requireFreshStepUp(
  queryable: Queryable,
  session: Session,
  now: Date,
): Promise<void> {
  const found = await queryable.query<{ stepped_up_at: Date | null }>(
    "SELECT stepped_up_at FROM sessions WHERE id = $1",
    [session.sessionId],
  );
  const at = found.rows[0]?.stepped_up_at;
  if (!at || now.getTime() - at.getTime() > step_up_window_ms) {
    throw new AppError("STEP_UP_REQUIRED", serverMessages.stepUpRequired);
  }
}

import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database, Queryable } from "../db/database.ts";
import { queueEmail } from "../mail/outbox.ts";
import { passwordResetEmail, verificationEmail } from "../mail/templates.ts";
import { findUserByEmail, type UserRow } from "../users/users.ts";
import { type PollingWorker, startPollingWorker } from "../workers/polling-worker.ts";
import { issueEmailToken } from "./email-tokens.ts";

/**
 * Forgot-password and resend-verification without a timing oracle (issue 12 item 7): the
 * request inserts one row into account_email_requests whatever the address, and answers; this
 * worker looks the address up, issues the token and queues the e-mail in the outbox. The
 * reply never waits on the lookup, so it takes the same time for an unknown address.
 */
export type AccountEmailPurpose = "reset_password" | "verify_email";

export interface MailOptions {
  publicUrl: string;
  siteName: string;
}

const batch_max = 20;
const poll_interval_ms = 2_000;
const failure_backoff_ms_max = 60_000;

/** The only database work of a forgot-password or resend request. */
export async function queueAccountEmailRequest(
  queryable: Queryable,
  purpose: AccountEmailPurpose,
  email: string,
  at: Date,
): Promise<void> {
  await queryable.query(
    "INSERT INTO account_email_requests (purpose, email, created_at) VALUES ($1, $2, $3)",
    [purpose, email, at],
  );
}

/** Issues a verification token and queues its e-mail in the caller's transaction. */
export async function sendVerificationLink(
  transaction: Queryable,
  mail: MailOptions,
  user: Pick<UserRow, "id" | "email" | "first_name">,
  at: Date,
) {
  const token = await issueEmailToken(transaction, user.id, "verify_email", at);
  const email = verificationEmail({ ...mail, to: user.email, firstName: user.first_name, token });
  await queueEmail(transaction, email, at);
}

/** One request: an unknown address (or a verified one, for resend) gets nothing. */
async function handleRequest(
  transaction: Queryable,
  mail: MailOptions,
  request: { purpose: AccountEmailPurpose; email: string },
  at: Date,
): Promise<void> {
  const user = await findUserByEmail(transaction, request.email);
  // A closed account gets no link and no token (issue 14 item 7): it has no way back in.
  if (!user || user.closed_at) return;
  if (request.purpose === "verify_email") {
    if (user.email_verified_at) return;
    await sendVerificationLink(transaction, mail, user, at);
    return;
  }
  const token = await issueEmailToken(transaction, user.id, "reset_password", at);
  await queueEmail(transaction, passwordResetEmail({ ...mail, to: user.email, token }), at);
}

/**
 * Claims a batch (FOR UPDATE SKIP LOCKED, so processes never share a request) and handles it
 * in one transaction: the requests are deleted together with the tokens and e-mails they
 * caused, so a crash mid-batch leaves them to be handled again, never half done. Kicks the
 * outbox after a batch that queued mail.
 */
export function startAccountEmailWorker(options: {
  database: Database;
  clock: Clock;
  mail: MailOptions;
  log: FastifyBaseLogger;
  onEmailsQueued: () => void;
}): PollingWorker {
  const { database, clock, mail, log, onEmailsQueued } = options;
  return startPollingWorker({
    async runBatch(now) {
      const claimed = await database.transaction(async (transaction) => {
        const requests = await transaction.query<{ purpose: AccountEmailPurpose; email: string }>(
          `DELETE FROM account_email_requests
           WHERE id IN (SELECT id FROM account_email_requests ORDER BY id LIMIT $1
                        FOR UPDATE SKIP LOCKED)
           RETURNING purpose, email`,
          [batch_max],
        );
        for (const request of requests.rows) await handleRequest(transaction, mail, request, now);
        return requests.rows.length;
      });
      if (claimed > 0) onEmailsQueued();
      return claimed;
    },
    batch_max,
    poll_interval_ms,
    failure_backoff_ms_max,
    clock,
    log,
    failure_message: "account e-mail request pass failed",
  });
}

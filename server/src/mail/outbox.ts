import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Clock } from "../clock.ts";
import type { Database, Queryable } from "../db/database.ts";
import { type PollingWorker, startPollingWorker } from "../workers/polling-worker.ts";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Delivery limits: a failing server is retried with backoff, then given up on. */
const delivery_attempts_max = 8;
const delivery_batch_max = 20;
const poll_interval_ms = 2_000;
const retry_base_ms = 5_000;
const smtp_timeout_ms = 15_000;
/** A pass that fails (the database, not one mail) is retried after at most this long. */
const pass_failure_backoff_ms_max = 60_000;
/** A claimed mail is left to its claimer this long before another process may retry it. */
const lease_ms = 2 * 60_000;

/**
 * Queues an e-mail in the caller's transaction, so a mail goes out if and only if the
 * change that caused it committed (a transactional outbox). Never to the address of a
 * closed account (issue 14 item 7: no e-mail after the closure's confirmation, which is
 * queued in the closing transaction before the account is marked closed): every send path
 * comes through here, so none can forget.
 */
export async function queueEmail(transaction: Queryable, email: Email, at: Date): Promise<void> {
  await transaction.query(
    `INSERT INTO outbox_emails (recipient, subject, body_text, body_html, created_at, next_attempt_at)
     SELECT $1, $2, $3, $4, $5, $5
     WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = $1 AND closed_at IS NOT NULL)`,
    [email.to, email.subject, email.text, email.html, at],
  );
}

/**
 * Erases the mail kept for an address (issue 14 item 7): at closing, what was already sent
 * (or given up), so the closure's confirmation still goes; at the end of the retention
 * time, everything.
 */
export async function eraseEmailsTo(
  transaction: Queryable,
  recipient: string,
  which: "delivered" | "all",
): Promise<void> {
  await transaction.query(
    `DELETE FROM outbox_emails WHERE recipient = $1
       AND ($2 = 'all' OR sent_at IS NOT NULL OR attempts >= $3)`,
    [recipient, which, delivery_attempts_max],
  );
}

/** smtp(s)://user:pass@host:port → nodemailer options, with our timeouts. */
function smtpTransportOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: smtp_timeout_ms,
    greetingTimeout: smtp_timeout_ms,
    socketTimeout: smtp_timeout_ms,
  };
}

/** Kick after a commit that queued mail; stop also closes the SMTP connections. */
/**
 * The outbox's depth, for the metrics: e-mails still to send (tries left), and e-mails given
 * up on after `delivery_attempts_max` tries. Both read the unsent rows of the partial index
 * `outbox_emails_due_idx`, so sent mail never costs the count anything.
 */
export async function outboxDepth(
  database: Queryable,
): Promise<{ pending: number; failed: number }> {
  const result = await database.query<{ pending: number; failed: number }>(
    `SELECT COUNT(*) FILTER (WHERE attempts < $1)::bigint AS pending,
            COUNT(*) FILTER (WHERE attempts >= $1)::bigint AS failed
     FROM outbox_emails WHERE sent_at IS NULL`,
    [delivery_attempts_max],
  );
  return result.rows[0] ?? { pending: 0, failed: 0 };
}

export type OutboxDelivery = PollingWorker;

/**
 * Delivers queued mail over SMTP_URL. Without SMTP_URL mail stays in the outbox table and
 * each one is written to the log once, so the embedded default works with no mail server.
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so several processes never send one twice.
 */
export function startOutboxDelivery(options: {
  database: Database;
  smtpUrl: string | undefined;
  from: string;
  clock: Clock;
  log: FastifyBaseLogger;
}): OutboxDelivery {
  const { database, smtpUrl, from, clock, log } = options;
  const transport = smtpUrl ? nodemailer.createTransport(smtpTransportOptions(smtpUrl)) : null;

  async function deliverBatch(now: Date): Promise<number> {
    // Claim a batch by leasing it: the lease (next_attempt_at in the future) keeps other
    // processes off these rows while we send outside any transaction; a crash mid-send
    // lets the lease run out and the mail is tried again (at-least-once delivery).
    const claimed = await database.query<{
      id: number;
      recipient: string;
      subject: string;
      body_text: string;
      body_html: string;
      attempts: number;
    }>(
      `UPDATE outbox_emails SET attempts = attempts + 1, next_attempt_at = $2
       WHERE id IN (
         SELECT id FROM outbox_emails
         WHERE sent_at IS NULL AND next_attempt_at <= $1 AND attempts < $3
         ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING id, recipient, subject, body_text, body_html, attempts`,
      [now, new Date(now.getTime() + lease_ms), delivery_attempts_max, delivery_batch_max],
    );
    for (const mail of claimed.rows) {
      try {
        if (transport) {
          await transport.sendMail({
            from,
            to: mail.recipient,
            subject: mail.subject,
            text: mail.body_text,
            html: mail.body_html,
          });
        } else {
          // The embedded default's delivery is the log, which is where a developer looks: the
          // links get their own field, so a JSON log shows them whole rather than inside an
          // escaped text (a pretty terminal log shows both).
          log.info(
            { to: mail.recipient, subject: mail.subject, links: linksIn(mail.body_text) },
            `e-mail not sent (no SMTP_URL); its text:\n${mail.body_text}`,
          );
        }
        await database.query("UPDATE outbox_emails SET sent_at = $1 WHERE id = $2", [
          clock.now(),
          mail.id,
        ]);
      } catch (error) {
        const delayMs = retry_base_ms * 2 ** (mail.attempts - 1);
        log.warn(
          { err: error, outboxId: mail.id, attempts: mail.attempts },
          "e-mail delivery failed",
        );
        await database.query(
          "UPDATE outbox_emails SET next_attempt_at = $1, last_error = $2 WHERE id = $3",
          [new Date(clock.now().getTime() + delayMs), String(error).slice(0, 500), mail.id],
        );
      }
    }
    return claimed.rows.length;
  }

  const worker = startPollingWorker({
    runBatch: deliverBatch,
    batch_max: delivery_batch_max,
    poll_interval_ms,
    failure_backoff_ms_max: pass_failure_backoff_ms_max,
    clock,
    log,
    failure_message: "outbox delivery pass failed",
  });

  return {
    kick: worker.kick,
    async stop() {
      await worker.stop();
      transport?.close();
    },
  };
}

/** The http(s) links of a mail's text, in order, each once. */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [])];
}

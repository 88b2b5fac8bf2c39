import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { PushOutcome } from "./web-push-request.ts";

/** A push is tried this many times in all before it is abandoned. */
export const push_attempts_max = 6;
/** The wait after the first failed attempt; it doubles with each further one. */
const retry_base_ms = 10_000;
const retry_delay_ms_max = 60 * 60_000;
/** Of a failure's detail, this much is kept in push_deliveries.last_error. */
const last_error_chars_max = 500;

/** The queued push an attempt was made for (a claimed row of push_deliveries). */
export interface AttemptedPush {
  id: number;
  /** Attempts so far, this one included. */
  attempts: number;
  subscription_id: number;
}

/**
 * Records what became of one attempt: a delivered push leaves the queue, a gone subscription
 * is deleted with its queued pushes, a refusal is abandoned, and a failure is tried again
 * with exponential backoff (or the push service's Retry-After) until push_attempts_max.
 */
export async function settlePush(
  context: { database: Database; clock: Clock; log: FastifyBaseLogger },
  push: AttemptedPush,
  outcome: PushOutcome,
): Promise<void> {
  const { database, clock, log } = context;
  const now = clock.now();
  switch (outcome.kind) {
    case "delivered":
      await database.query("DELETE FROM push_deliveries WHERE id = $1", [push.id]);
      await database.query("UPDATE push_subscriptions SET last_success_at = $2 WHERE id = $1", [
        push.subscription_id,
        now,
      ]);
      return;
    case "gone":
      log.info(
        { subscriptionId: push.subscription_id, status: outcome.status },
        "push subscription gone: removed",
      );
      // Its queued pushes go with it (ON DELETE CASCADE).
      await database.query("DELETE FROM push_subscriptions WHERE id = $1", [push.subscription_id]);
      return;
    case "refused":
      log.warn({ pushId: push.id, detail: outcome.detail }, "push refused: not retried");
      await abandon(database, push, now, outcome.detail);
      return;
    case "retry": {
      if (push.attempts >= push_attempts_max) {
        log.warn(
          { pushId: push.id, attempts: push.attempts, detail: outcome.detail },
          "push failed: giving up",
        );
        await abandon(database, push, now, outcome.detail);
        return;
      }
      const backoffMs = Math.min(retry_base_ms * 2 ** (push.attempts - 1), retry_delay_ms_max);
      const delayMs = Math.min(Math.max(backoffMs, outcome.retryAfterMs ?? 0), retry_delay_ms_max);
      log.warn(
        { pushId: push.id, attempts: push.attempts, detail: outcome.detail },
        "push failed: will retry",
      );
      await database.query(
        "UPDATE push_deliveries SET next_attempt_at = $2, last_error = $3 WHERE id = $1",
        [push.id, new Date(now.getTime() + delayMs), outcome.detail.slice(0, last_error_chars_max)],
      );
    }
  }
}

/** The push stays in the table, never tried again, with the reason kept. */
async function abandon(database: Database, push: AttemptedPush, now: Date, detail: string) {
  await database.query(
    "UPDATE push_deliveries SET abandoned_at = $2, last_error = $3 WHERE id = $1",
    [push.id, now, detail.slice(0, last_error_chars_max)],
  );
}

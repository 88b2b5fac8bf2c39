import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Database, Queryable } from "../db/database.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyKey,
  idempotencyKeyOf,
} from "../http/idempotency.ts";

/**
 * Idempotency-Key for the funding and back-office calls. The shared helper hashes the route
 * pattern and the body; these calls carry the thing they act on in the path
 * (`/deposits/12`), so the hash here covers the actual path too: the same key sent to
 * another deposit is a different request (409), not a replay of the first.
 */
export function idempotencyOf(request: FastifyRequest): IdempotencyKey | null {
  const key = idempotencyKeyOf(request);
  if (!key) return null;
  const requestHash = createHash("sha256")
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest("hex");
  return { key: key.key, requestHash };
}

export interface Reply<Body> {
  statusCode: number;
  body: Body;
  replayed: boolean;
}

/**
 * Runs `work` in one transaction with the key claimed first (see http/idempotency.ts): a
 * replay returns the stored reply and does nothing; a failure rolls the key back with the
 * work, so a retry runs again.
 */
export async function runIdempotent<Body>(
  database: Database,
  userId: number,
  idempotency: IdempotencyKey | null,
  at: Date,
  work: (transaction: Queryable) => Promise<{ statusCode: number; body: Body }>,
): Promise<Reply<Body>> {
  return database.transaction(async (transaction) => {
    if (idempotency) {
      const claim = await claimIdempotencyKey(transaction, userId, idempotency, at);
      if (claim.kind === "replay") {
        return { statusCode: claim.statusCode, body: claim.body as Body, replayed: true };
      }
    }
    const { statusCode, body } = await work(transaction);
    if (idempotency) {
      await completeIdempotencyKey(transaction, userId, idempotency, statusCode, body);
    }
    return { statusCode, body, replayed: false };
  });
}

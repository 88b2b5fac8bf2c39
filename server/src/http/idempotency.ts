import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Queryable } from "../db/database.ts";
import { AppError } from "./errors.ts";

/**
 * Idempotency-Key (STYLE.md, from Formance): the key and a hash of the request are stored
 * with the first reply, in the same transaction as the work; a replay returns that reply
 * with `Idempotency-Replayed: true`, the same key with another request is a 409.
 *
 * The key row is inserted first in the work's transaction: a concurrent request with the
 * same key waits on that row until the first commits (then replays) or rolls back (then
 * runs), so one key never does the work twice.
 */
export const idempotency_key_length_max = 200;

export interface IdempotencyKey {
  key: string;
  requestHash: string;
}

/** The key of a request, or null when it sent none; a malformed key is a 400. */
export function idempotencyKeyOf(request: FastifyRequest): IdempotencyKey | null {
  const header = request.headers["idempotency-key"];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > idempotency_key_length_max || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError(
      "MALFORMED_REQUEST",
      "Idempotency-Key must be 1-200 visible ASCII characters",
    );
  }
  const requestHash = createHash("sha256")
    .update(
      `${request.method} ${request.routeOptions.url}\n${JSON.stringify(request.body ?? null)}`,
    )
    .digest("hex");
  return { key, requestHash };
}

export type IdempotencyClaim =
  | { kind: "fresh" }
  | { kind: "replay"; statusCode: number; body: unknown };

export async function claimIdempotencyKey(
  transaction: Queryable,
  userId: number,
  idempotency: IdempotencyKey,
  at: Date,
): Promise<IdempotencyClaim> {
  const inserted = await transaction.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
     VALUES ($1, $2, $3, 0, 'null'::jsonb, $4) ON CONFLICT DO NOTHING`,
    [userId, idempotency.key, idempotency.requestHash, at],
  );
  if (inserted.rowCount === 1) return { kind: "fresh" };
  const stored = await transaction.query<{
    request_hash: string;
    status_code: number;
    response_body: unknown;
  }>(
    "SELECT request_hash, status_code, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2",
    [userId, idempotency.key],
  );
  const row = stored.rows[0]!;
  if (row.request_hash !== idempotency.requestHash) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used for a different request",
    );
  }
  return { kind: "replay", statusCode: row.status_code, body: row.response_body };
}

export async function completeIdempotencyKey(
  transaction: Queryable,
  userId: number,
  idempotency: IdempotencyKey,
  statusCode: number,
  body: unknown,
): Promise<void> {
  await transaction.query(
    "UPDATE idempotency_keys SET status_code = $1, response_body = $2 WHERE user_id = $3 AND key = $4",
    [statusCode, JSON.stringify(body), userId, idempotency.key],
  );
}

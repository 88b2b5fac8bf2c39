import { hash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Database, Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";

/**
 * Idempotency-Key (STYLE.md, from Formance and Stripe): the one module that checks keys and
 * the owner of `idempotency_keys`. The key and a hash of the request are stored with the
 * first reply, in the same transaction as the work; a replay returns that reply with
 * `Idempotency-Replayed: true`; the same key with another request is a 409.
 *
 * Claiming, completing and releasing keys are the database's `idempotency_claim_all`,
 * `idempotency_complete_all` and `idempotency_release_all` (server/sql/functions/
 * 020_idempotency.sql): `runIdempotent` calls them with one key for every money-moving
 * route, `place_trades` with the keys of its whole batch (each storing its trade's id, from
 * which trading/place-trade.ts rebuilds the same reply). The key row is inserted first in
 * the work's transaction: a concurrent request with the same key waits on that row until the
 * first commits (then replays) or rolls back (then runs), so one key never does the work
 * twice.
 *
 * A key is kept for 24 hours from its first use (`idempotency_key_retention_ms`); the
 * `idempotencyRetention` worker (workers.ts) deletes older ones with `pruneIdempotencyKeys`.
 */
export const idempotency_key_length_max = 200;

/**
 * How long a key is remembered, from its first use: a retry within it gets the stored reply;
 * after it the key is new again (Stripe's rule, 24 hours). Retries come seconds or minutes
 * later; without a limit the table grew with every trade forever.
 */
export const idempotency_key_retention_ms = 24 * 60 * 60 * 1000;

/** Keys pruned per statement: a pass deletes in batches of this many, oldest first. */
export const idempotency_prune_batch_max = 5_000;

/**
 * Deletes up to `limit` keys older than the retention, oldest first (the
 * `idempotency_keys_created_idx` index finds them); returns how many were deleted.
 */
export async function pruneIdempotencyKeys(
  queryable: Queryable,
  now: Date,
  limit: number,
): Promise<number> {
  const result = await queryable.query(
    `DELETE FROM idempotency_keys k
     USING (SELECT user_id, key FROM idempotency_keys
            WHERE created_at < $1 ORDER BY created_at LIMIT $2) old
     WHERE k.user_id = old.user_id AND k.key = old.key`,
    [new Date(now.getTime() - idempotency_key_retention_ms), limit],
  );
  return result.rowCount;
}

export interface IdempotencyKey {
  key: string;
  requestHash: string;
}

/**
 * The key of a request, or null when it sent none; a malformed key is a 400. The one
 * hashing rule: method, route pattern, path parameters, canonical body (object keys sorted)
 * and the signed-in user. So the same key sent to another deposit (another path parameter)
 * or with the body's fields in another order is judged by what the request means.
 */
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
  const fingerprint = canonicalJson([
    request.method,
    request.routeOptions.url ?? request.url,
    request.params ?? {},
    request.body ?? null,
    request.session?.userId ?? null,
  ]);
  return { key, requestHash: hash("sha256", fingerprint, "hex") };
}

/**
 * JSON with every object's keys in sorted order: one text per meaning. The text is what
 * `JSON.stringify` gives with the keys sorted (keys stored within the retention were hashed
 * from it; server/test/idempotency-hash.test.ts holds the two equal), written directly: a
 * replacer that rebuilt each object was 3 % of the server's CPU per placed trade.
 */
export function canonicalJson(value: unknown): string {
  return canonicalText(value) ?? "undefined";
}

/** A value's canonical text, or undefined where JSON.stringify leaves the value out. */
function canonicalText(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return canonicalText((value as { toJSON(): unknown }).toJSON());
  }
  if (Array.isArray(value)) {
    let text = "[";
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ",";
      text += canonicalText(value[index]) ?? "null";
    }
    return `${text}]`;
  }
  let text = "{";
  let first = true;
  for (const name of sortedKeys(value)) {
    const inner = canonicalText((value as Record<string, unknown>)[name]);
    if (inner === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(name)}:${inner}`;
    first = false;
  }
  return `${text}}`;
}

/**
 * The order the old text had, which went through an object: its array-index keys ("0",
 * "9", "10") first in numeric order, as every object lists them (and as Object.keys has
 * them already), then the other keys sorted.
 */
function sortedKeys(value: object): string[] {
  const names = Object.keys(value);
  let indexKeys = 0;
  while (indexKeys < names.length && isArrayIndex(names[indexKeys]!)) indexKeys += 1;
  if (indexKeys === 0) return names.sort();
  return names.slice(0, indexKeys).concat(names.slice(indexKeys).sort());
}

function isArrayIndex(name: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(name) && Number(name) < 4_294_967_295;
}

/** The same key with another request: refused, never replayed. */
export function idempotencyKeyReused(): AppError {
  return new AppError(
    "IDEMPOTENCY_KEY_REUSED",
    "This Idempotency-Key was already used for a different request",
  );
}

export interface Reply<Body> {
  statusCode: number;
  body: Body;
  replayed: boolean;
}

/**
 * Runs `work` in one transaction with the key claimed first: a replay returns the stored
 * reply and does nothing; a failure rolls the key back with the work, so a retry runs again.
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
      const claim = await transaction.query<{
        fresh: boolean;
        request_hash: string;
        status_code: number;
        response_body: unknown;
      }>("SELECT * FROM idempotency_claim_all(ARRAY[ROW($1, $2, $3, $4)::idempotency_key_in])", [
        userId,
        idempotency.key,
        idempotency.requestHash,
        at,
      ]);
      const stored = claim.rows[0]!;
      if (!stored.fresh) {
        if (stored.request_hash !== idempotency.requestHash) throw idempotencyKeyReused();
        return {
          statusCode: stored.status_code,
          body: stored.response_body as Body,
          replayed: true,
        };
      }
    }
    const { statusCode, body } = await work(transaction);
    if (idempotency) {
      await transaction.query(
        "SELECT idempotency_complete_all(ARRAY[ROW($1, $2, $3, $4::jsonb)::idempotency_reply_in])",
        [userId, idempotency.key, statusCode, JSON.stringify(body)],
      );
    }
    return { statusCode, body, replayed: false };
  });
}

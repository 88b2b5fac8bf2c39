import type { Role } from "@tp/domain/api";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/database.ts";
import { createRequestBatcher } from "../db/request-batcher.ts";
import type { Session } from "../http/authenticate.ts";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-token.ts";

const day_ms = 24 * 60 * 60 * 1000;
/** A session unused this long is over (the trader signs in again). */
export const session_idle_ms = 7 * day_ms;
/** However active, a session ends this long after sign-in. */
export const session_absolute_ms = 30 * day_ms;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const session_touch_interval_ms = 60 * 1000;
/** Longest bearer token we look up; anything longer is not ours. */
const token_length_max = 128;

export type { Session } from "../http/authenticate.ts";

export async function createSession(
  queryable: Queryable,
  userId: number,
  at: Date,
  client: { ip: string; userAgent: string | undefined },
): Promise<string> {
  const { token, hash } = newOpaqueToken();
  await queryable.query(
    `INSERT INTO sessions (user_id, token_hash, created_at, last_seen_at, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $3, $4, $5, $6)`,
    [
      userId,
      hash,
      at,
      new Date(at.getTime() + session_absolute_ms),
      client.ip,
      client.userAgent?.slice(0, 300) ?? null,
    ],
  );
  return token;
}

/** The live session a bearer token stands for, or null (unknown, revoked, idle or expired). */
export async function findSession(
  queryable: Queryable,
  token: string,
  now: Date,
): Promise<Session | null> {
  if (token.length === 0 || token.length > token_length_max) return null;
  const [session] = await liveSessionsByHash(queryable, [hashOpaqueToken(token)], now);
  return session ?? null;
}

/**
 * The live session of each token hash (null where none), in their order, touching
 * last_seen_at of those not seen for a while, in one query (and at most one update).
 */
async function liveSessionsByHash(
  queryable: Queryable,
  hashes: string[],
  now: Date,
): Promise<Array<Session | null>> {
  const result = await queryable.query<{
    id: number;
    user_id: number;
    role: Role;
    last_seen_at: Date;
    token_hash: string;
  }>(
    `SELECT s.id, s.user_id, u.role, s.last_seen_at, s.token_hash
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ANY($1::text[]) AND s.revoked_at IS NULL AND s.expires_at > $2
       AND s.last_seen_at > $3`,
    [hashes, now, new Date(now.getTime() - session_idle_ms)],
  );
  const stale = result.rows
    .filter((row) => now.getTime() - row.last_seen_at.getTime() > session_touch_interval_ms)
    .map((row) => row.id);
  if (stale.length > 0) {
    await queryable.query("UPDATE sessions SET last_seen_at = $1 WHERE id = ANY($2::bigint[])", [
      now,
      stale,
    ]);
  }
  const byHash = new Map(result.rows.map((row) => [row.token_hash, row]));
  return hashes.map((hash) => {
    const row = byHash.get(hash);
    return row ? { sessionId: row.id, userId: row.user_id, role: row.role } : null;
  });
}

/** Finds the live sessions of bearer tokens, many per query under load (RequestBatcher). */
export interface SessionLookup {
  find(token: string): Promise<Session | null>;
}

const session_lookup_batch_max = 200;
const session_lookups_in_flight_max = 2;

/**
 * The same answers as `findSession`, for every signed-in request: lookups that arrive while
 * others run go together in one query, so a busy process does not spend a round trip (and
 * a connection) per request on its sessions. Nothing is cached: a revoked session is
 * refused by the very next lookup.
 */
export function createSessionLookup(queryable: Queryable, clock: Clock): SessionLookup {
  const batcher = createRequestBatcher<string, Session | null>({
    batchMax: session_lookup_batch_max,
    inFlightMax: session_lookups_in_flight_max,
    run: (hashes) => liveSessionsByHash(queryable, hashes, clock.now()),
  });
  return {
    async find(token) {
      if (token.length === 0 || token.length > token_length_max) return null;
      return batcher.submit(hashOpaqueToken(token));
    },
  };
}

/**
 * Locks one of the user's sessions (staff revoking it) and returns when it was revoked, or
 * null when the user has no such session.
 */
export async function lockUserSession(
  transaction: Queryable,
  userId: number,
  sessionId: number,
): Promise<{ revoked_at: Date | null } | null> {
  const found = await transaction.query<{ revoked_at: Date | null }>(
    "SELECT revoked_at FROM sessions WHERE id = $1 AND user_id = $2 FOR UPDATE",
    [sessionId, userId],
  );
  return found.rows[0] ?? null;
}

export async function revokeSession(queryable: Queryable, sessionId: number, at: Date) {
  await queryable.query(
    "UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
    [at, sessionId],
  );
}

/** Revokes every live session of the user except `keepSessionId` (null: all of them). */
export async function revokeUserSessions(
  queryable: Queryable,
  userId: number,
  keepSessionId: number | null,
  at: Date,
): Promise<number> {
  const result = await queryable.query(
    `UPDATE sessions SET revoked_at = $1
     WHERE user_id = $2 AND revoked_at IS NULL AND ($3::bigint IS NULL OR id <> $3::bigint)`,
    [at, userId, keepSessionId],
  );
  return result.rowCount;
}

import type { Role } from "@tp/domain/api";
import type { Queryable } from "../db/database.ts";
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

export interface Session {
  sessionId: number;
  userId: number;
  role: Role;
}

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
  const result = await queryable.query<{
    id: number;
    user_id: number;
    role: Role;
    last_seen_at: Date;
  }>(
    `SELECT s.id, s.user_id, u.role, s.last_seen_at
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND s.last_seen_at > $3`,
    [hashOpaqueToken(token), now, new Date(now.getTime() - session_idle_ms)],
  );
  const row = result.rows[0];
  if (!row) return null;
  if (now.getTime() - row.last_seen_at.getTime() > session_touch_interval_ms) {
    await queryable.query("UPDATE sessions SET last_seen_at = $1 WHERE id = $2", [now, row.id]);
  }
  return { sessionId: row.id, userId: row.user_id, role: row.role };
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

import type { Role } from "@tp/domain/api";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/database.ts";
import { createRequestBatcher } from "../db/request-batcher.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Session } from "../http/authenticate.ts";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-token.ts";

/**
 * How long a session lives, per role (issue 12, item 5; configurable): `idle_ms` unused and
 * it is over, `absolute_ms` after sign-in it is over however active. Staff sessions are
 * short because a staff token can move other people's money.
 */
export interface SessionLifetime {
  idle_ms: number;
  absolute_ms: number;
}
/** Traders' sessions, and every staff role's (support, reviewer, admin). */
export interface SessionLifetimes {
  trader: SessionLifetime;
  staff: SessionLifetime;
}

function lifetimeOf(lifetimes: SessionLifetimes, role: Role): SessionLifetime {
  return role === "trader" ? lifetimes.trader : lifetimes.staff;
}

const minute_ms = 60 * 1000;
const hour_ms = 60 * minute_ms;

export function sessionLifetimesOf(
  config: Pick<
    Config,
    | "TRADER_SESSION_IDLE_MINUTES"
    | "TRADER_SESSION_ABSOLUTE_HOURS"
    | "STAFF_SESSION_IDLE_MINUTES"
    | "STAFF_SESSION_ABSOLUTE_HOURS"
  >,
): SessionLifetimes {
  return {
    trader: {
      idle_ms: config.TRADER_SESSION_IDLE_MINUTES * minute_ms,
      absolute_ms: config.TRADER_SESSION_ABSOLUTE_HOURS * hour_ms,
    },
    staff: {
      idle_ms: config.STAFF_SESSION_IDLE_MINUTES * minute_ms,
      absolute_ms: config.STAFF_SESSION_ABSOLUTE_HOURS * hour_ms,
    },
  };
}

/**
 * last_seen_at is written at most this often, so reads do not turn into writes. A session
 * in use can therefore look up to this much older than it is, and end that much before its
 * idle time: at most a tenth of it (6 s of a 1-minute idle, 60 s of staff's 30 minutes).
 */
const session_touch_interval_ms_max = 60 * 1000;
function touchIntervalMs(lifetime: SessionLifetime): number {
  return Math.min(session_touch_interval_ms_max, Math.floor(lifetime.idle_ms / 10));
}
/** Longest bearer token we look up; anything longer is not ours. */
const token_length_max = 128;

export type { Session } from "../http/authenticate.ts";

/**
 * The one place sessions are made. Its absolute end is fixed now from the user's role; its
 * idle end is checked on every lookup (`liveSessionsByHash`).
 */
export async function createSession(
  queryable: Queryable,
  userId: number,
  at: Date,
  client: { ip: string; userAgent: string | undefined },
  lifetimes: SessionLifetimes,
): Promise<{ token: string; sessionId: number }> {
  const { token, hash } = newOpaqueToken();
  const created = await queryable.query<{ id: number }>(
    `INSERT INTO sessions (user_id, token_hash, created_at, last_seen_at, expires_at, ip, user_agent, stepped_up_at)
     SELECT u.id, $2, $3::timestamptz, $3::timestamptz,
       CASE WHEN u.role = 'trader' THEN $4::timestamptz ELSE $5::timestamptz END, $6, $7,
       -- A session starts stepped up (issue 12): signing in just proved the account's factors.
       $3::timestamptz
     FROM users u WHERE u.id = $1
     RETURNING id`,
    [
      userId,
      hash,
      at,
      new Date(at.getTime() + lifetimes.trader.absolute_ms),
      new Date(at.getTime() + lifetimes.staff.absolute_ms),
      client.ip,
      client.userAgent?.slice(0, 300) ?? null,
    ],
  );
  const row = created.rows[0];
  if (!row) throw new Error(`createSession: no user ${userId}`);
  return { token, sessionId: row.id };
}

/**
 * When a session began (its sign-in): the reality check measures the session from here
 * (responsible-trading). Null for an unknown session.
 */
export async function sessionStartedAt(
  queryable: Queryable,
  sessionId: number,
): Promise<Date | null> {
  const result = await queryable.query<{ created_at: Date }>(
    "SELECT created_at FROM sessions WHERE id = $1",
    [sessionId],
  );
  return result.rows[0]?.created_at ?? null;
}

/** The live session a bearer token stands for, or null (unknown, revoked, idle or expired). */
export async function findSession(
  queryable: Queryable,
  token: string,
  now: Date,
  lifetimes: SessionLifetimes,
): Promise<Session | null> {
  if (token.length === 0 || token.length > token_length_max) return null;
  const [session] = await liveSessionsByHash(queryable, [hashOpaqueToken(token)], now, lifetimes);
  return session ?? null;
}

/**
 * SQL conditions of a live session `s` of a user `u` at $now: not revoked, not past its end
 * and used within its role's idle time. The absolute end is checked against created_at
 * too, so a shorter setting applies to sessions made before it.
 */
function liveSessionParameters(now: Date, lifetimes: SessionLifetimes) {
  return [
    now,
    new Date(now.getTime() - lifetimes.trader.idle_ms),
    new Date(now.getTime() - lifetimes.staff.idle_ms),
    new Date(now.getTime() - lifetimes.trader.absolute_ms),
    new Date(now.getTime() - lifetimes.staff.absolute_ms),
  ];
}
function liveSessionCondition(first: number): string {
  const [now, traderIdle, staffIdle, traderStart, staffStart] = [0, 1, 2, 3, 4].map(
    (offset) => `$${first + offset}`,
  );
  return `s.revoked_at IS NULL AND s.expires_at > ${now}
    AND s.last_seen_at > CASE WHEN u.role = 'trader' THEN ${traderIdle}::timestamptz ELSE ${staffIdle}::timestamptz END
    AND s.created_at > CASE WHEN u.role = 'trader' THEN ${traderStart}::timestamptz ELSE ${staffStart}::timestamptz END`;
}

/**
 * The live session of each token hash (null where none), in their order, touching
 * last_seen_at of those not seen for a while, in one query (and at most one update).
 */
async function liveSessionsByHash(
  queryable: Queryable,
  hashes: string[],
  now: Date,
  lifetimes: SessionLifetimes,
): Promise<Array<Session | null>> {
  const result = await queryable.query<{
    id: number;
    user_id: number;
    role: Role;
    country: string;
    created_at: Date;
    last_seen_at: Date;
    token_hash: string;
  }>(
    `SELECT s.id, s.user_id, u.role, u.country, s.created_at, s.last_seen_at, s.token_hash
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ANY($1::text[]) AND ${liveSessionCondition(2)}`,
    [hashes, ...liveSessionParameters(now, lifetimes)],
  );
  const stale = result.rows
    .filter(
      (row) =>
        now.getTime() - row.last_seen_at.getTime() >
        touchIntervalMs(lifetimeOf(lifetimes, row.role)),
    )
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
    return row
      ? {
          sessionId: row.id,
          userId: row.user_id,
          role: row.role,
          country: row.country,
          startedAt: row.created_at,
        }
      : null;
  });
}

/** Finds the live sessions of bearer tokens, many per query under load (RequestBatcher). */
export interface SessionLookup {
  find(token: string): Promise<Session | null>;
  /**
   * The session as this process found it lately (up to session_recent_ms ago), else as
   * `find` finds it now: only for a route whose own write checks the session live in its
   * transaction (`writeCheck`), so a session revoked or expired since is still refused,
   * by the write, before it changes anything. Saves a round trip per request on the
   * busiest route (place-trade).
   */
  findRecent(token: string): Promise<Session | null>;
  /** Drops what findRecent remembers of the token (its write found the session over). */
  forget(token: string): void;
  /**
   * What a write needs to check a trader's session live at `now` and touch it, as the lookup
   * would (the SQL side: server/sql/functions/025_auth.sql).
   */
  writeCheck(sessionId: number, now: Date): SessionWriteCheck;
}

/** A session to check in a write's transaction (025_auth.sql `auth_trader_sessions_live`). */
export interface SessionWriteCheck {
  session_id: number;
  /** Live only if last used after this (the trader's idle time before `now`). */
  session_seen_after: string;
  /** Live only if signed in after this (the trader's absolute lifetime before `now`). */
  session_created_after: string;
  /** Touched (last_seen_at) if last used before this. */
  session_touch_before: string;
}

/**
 * The longest findRecent reuses a lookup. Short, because a busy trader's requests come
 * seconds apart: a second already saves nearly every lookup. Staleness is not what it bounds:
 * the write checks the session live, and the country and sign-in time it carries never
 * change while the session lives (a closed account's sessions are revoked).
 */
const session_recent_ms = 10_000;

/**
 * How long findRecent reuses a lookup of the token whose hash is `tokenHash`: between half
 * of session_recent_ms and all of it, always the same for one token and spread evenly over
 * tokens (the hash's first 32 bits). With one window for all, lookups made together ended
 * together: after a start or a quiet spell every active trader's requests went back to the
 * database within the same half second, and again a window later, each time beside the
 * trades those requests were placing (bench/RESULTS.md, issue 16's twenty-third session).
 */
export function sessionReuseWindowMs(tokenHash: string): number {
  const fraction = Number.parseInt(tokenHash.slice(0, 8), 16) / 2 ** 32;
  return Math.floor(session_recent_ms * (0.5 + fraction / 2));
}
/** Most sessions findRecent remembers; past it the oldest go first. */
const session_recent_max = 100_000;

const session_lookup_batch_max = 200;
const session_lookups_in_flight_max = 2;

/**
 * The same answers as `findSession`, for every signed-in request: lookups that arrive while
 * others run go together in one query, so a busy process does not spend a round trip (and
 * a connection) per request on its sessions. `find` caches nothing: a revoked session is
 * refused by the very next lookup. Only `findRecent` remembers, for a route whose write
 * refuses a revoked session itself.
 */
export function createSessionLookup(
  queryable: Queryable,
  clock: Clock,
  lifetimes: SessionLifetimes,
): SessionLookup {
  const batcher = createRequestBatcher<string, Session | null>({
    batchMax: session_lookup_batch_max,
    inFlightMax: session_lookups_in_flight_max,
    run: (hashes) => liveSessionsByHash(queryable, hashes, clock.now(), lifetimes),
  });
  const recent = new Map<string, { session: Session; foundAtMs: number; reuseMs: number }>();
  /** A token's hash, or null for a token no session can have. */
  const hashOf = (token: string) =>
    token.length === 0 || token.length > token_length_max ? null : hashOpaqueToken(token);
  const find = async (token: string) => {
    const tokenHash = hashOf(token);
    return tokenHash === null ? null : batcher.submit(tokenHash);
  };
  return {
    find,
    async findRecent(token) {
      const nowMs = clock.now().getTime();
      const known = recent.get(token);
      if (known && nowMs - known.foundAtMs < known.reuseMs && nowMs >= known.foundAtMs) {
        return known.session;
      }
      const tokenHash = hashOf(token);
      if (tokenHash === null) return null;
      const session = await batcher.submit(tokenHash);
      recent.delete(token);
      if (session) {
        if (recent.size >= session_recent_max) recent.delete(recent.keys().next().value!);
        recent.set(token, {
          session,
          foundAtMs: nowMs,
          reuseMs: sessionReuseWindowMs(tokenHash),
        });
      }
      return session;
    },
    forget(token) {
      recent.delete(token);
    },
    writeCheck(sessionId, now) {
      const lifetime = lifetimes.trader;
      const nowMs = now.getTime();
      return {
        session_id: sessionId,
        session_seen_after: new Date(nowMs - lifetime.idle_ms).toISOString(),
        session_created_after: new Date(nowMs - lifetime.absolute_ms).toISOString(),
        session_touch_before: new Date(nowMs - touchIntervalMs(lifetime)).toISOString(),
      };
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

/** The user's live sessions, newest use first (the Security page and GET /sessions). */
export async function liveSessionsOfUser(
  queryable: Queryable,
  userId: number,
  now: Date,
  lifetimes: SessionLifetimes,
): Promise<
  Array<{
    id: number;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  }>
> {
  const result = await queryable.query<{
    id: number;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT s.id, s.created_at, s.last_seen_at, s.expires_at, s.ip, s.user_agent
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.user_id = $1 AND ${liveSessionCondition(2)}
     ORDER BY s.last_seen_at DESC, s.id DESC LIMIT ${live_sessions_listed_max}`,
    [userId, ...liveSessionParameters(now, lifetimes)],
  );
  return result.rows;
}
/** A user with more live sessions than this sees the most recently used ones. */
const live_sessions_listed_max = 100;

/** Revokes one session; returns its id if it was live until now (else nothing). */
export async function revokeSession(
  queryable: Queryable,
  sessionId: number,
  at: Date,
): Promise<number[]> {
  const result = await queryable.query<{ id: number }>(
    "UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id",
    [at, sessionId],
  );
  return result.rows.map((row) => row.id);
}

/** Revokes every live session of the user except `keepSessionId` (null: all of them). */
export async function revokeUserSessions(
  queryable: Queryable,
  userId: number,
  keepSessionId: number | null,
  at: Date,
): Promise<number[]> {
  const result = await queryable.query<{ id: number }>(
    `UPDATE sessions SET revoked_at = $1
     WHERE user_id = $2 AND revoked_at IS NULL AND ($3::bigint IS NULL OR id <> $3::bigint)
     RETURNING id`,
    [at, userId, keepSessionId],
  );
  return result.rows.map((row) => row.id);
}

/**
 * Tells every process that these sessions are over, so their stream hubs close the
 * sessions' sockets at once (stream-hub.ts) instead of at the next heartbeat. Call it after
 * the revoking transaction commits (a rolled-back revocation must not close anything).
 */
export function announceRevokedSessions(bus: EventBus, userId: number, sessionIds: number[]) {
  if (sessionIds.length === 0) return;
  bus.publish({ type: "sessions_revoked", userId, sessionIds });
}

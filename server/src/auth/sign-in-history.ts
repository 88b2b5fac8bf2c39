import { browserLabel } from "@tp/domain/browser-label";
import type { SignInAttempt, SignInResult } from "@tp/domain/sessions-api";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";
import { deviceKey } from "./device-label.ts";

/**
 * The sign-in history (sign_in_attempts): one row per sign-in attempt on a known account,
 * whatever it came to. Attempts on unknown addresses are not kept (no one could read them).
 */

export interface SignInClient {
  ip: string;
  userAgent: string | undefined;
}

/**
 * Records one attempt. For a success, also says whether it came from a device this user
 * had never signed in from successfully before (`newDevice`); the very first success
 * (right after sign-up) is not "new": there is nothing yet to compare it with, and the
 * trader has just proven the address. Call it in the transaction that made the session, so
 * the history, the session and the e-mail it may cause commit together.
 */
export async function recordSignIn(
  queryable: Queryable,
  attempt: {
    userId: number;
    at: Date;
    client: SignInClient;
    result: SignInResult;
    sessionId?: number | null;
  },
): Promise<{ newDevice: boolean }> {
  const { userId, at, client, result } = attempt;
  const key = deviceKey(client.userAgent, client.ip);
  let newDevice = false;
  if (result === "succeeded") {
    const seen = await queryable.query<{ any_success: boolean; this_device: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM sign_in_attempts WHERE user_id = $1 AND result = 'succeeded')
                AS any_success,
              EXISTS (SELECT 1 FROM sign_in_attempts
                      WHERE user_id = $1 AND result = 'succeeded' AND device_key = $2)
                AS this_device`,
      [userId, key],
    );
    const row = seen.rows[0]!;
    newDevice = row.any_success && !row.this_device;
  }
  await queryable.query(
    `INSERT INTO sign_in_attempts
       (user_id, attempted_at, ip, user_agent, browser, device_key, result, session_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      userId,
      at,
      client.ip,
      client.userAgent?.slice(0, 300) ?? null,
      browserLabel(client.userAgent),
      key,
      result,
      attempt.sessionId ?? null,
    ],
  );
  return { newDevice };
}

/** One page of the user's sign-in attempts, newest first. */
export async function signInHistoryPage(
  queryable: Queryable,
  userId: number,
  page: number,
  limit: number,
): Promise<{ rows: SignInAttempt[]; total: number }> {
  const { rows, total } = await countAndPage<{
    id: number;
    attempted_at: Date;
    ip: string;
    browser: string;
    result: SignInResult;
  }>(queryable, {
    countSql: "SELECT count(*)::int AS total FROM sign_in_attempts WHERE user_id = $1",
    rowsSql: `SELECT id, attempted_at, ip, browser, result FROM sign_in_attempts
              WHERE user_id = $1 ORDER BY attempted_at DESC, id DESC`,
    params: [userId],
    page,
    limit,
  });
  return {
    rows: rows.map((row) => ({ ...row, attempted_at: row.attempted_at.toISOString() })),
    total,
  };
}

import { dollarsFromCents } from "@tp/domain/money";
import {
  nextRealityCheckAt,
  type RealityCheckSettings,
  reality_check_default,
  type SessionFigures,
} from "@tp/domain/responsible-trading";
import { sessionStartedAt } from "../auth/sessions.ts";
import type { Queryable } from "../db/database.ts";
import { realTradingSince } from "../trading/trades.ts";

/**
 * The reality check (issue 14 item 3). This module owns `reality_check_settings`: one row per
 * trader who changed the setting; no row is the default (on, every 60 minutes).
 */
export async function realityCheckSettingsOf(
  queryable: Queryable,
  userId: number,
): Promise<RealityCheckSettings> {
  const result = await queryable.query<RealityCheckSettings>(
    "SELECT enabled, interval_minutes FROM reality_check_settings WHERE user_id = $1",
    [userId],
  );
  const row = result.rows[0];
  return row
    ? { enabled: row.enabled, interval_minutes: row.interval_minutes }
    : { ...reality_check_default };
}

export async function saveRealityCheckSettings(
  queryable: Queryable,
  userId: number,
  settings: RealityCheckSettings,
  at: Date,
): Promise<RealityCheckSettings> {
  const result = await queryable.query<RealityCheckSettings>(
    `INSERT INTO reality_check_settings (user_id, enabled, interval_minutes, updated_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE
       SET enabled = EXCLUDED.enabled, interval_minutes = EXCLUDED.interval_minutes,
           updated_at = EXCLUDED.updated_at
     RETURNING enabled, interval_minutes`,
    [userId, settings.enabled, settings.interval_minutes, at],
  );
  const row = result.rows[0]!;
  return { enabled: row.enabled, interval_minutes: row.interval_minutes };
}

/**
 * The figures the reality check shows for a session: measured from its sign-in, real-account
 * trading only (trading's `realTradingSince`), and the next check after `now`. Null for an
 * unknown session.
 */
export async function sessionFigures(
  queryable: Queryable,
  userId: number,
  sessionId: number,
  now: Date,
): Promise<SessionFigures | null> {
  const startedAt = await sessionStartedAt(queryable, sessionId);
  if (startedAt === null) return null;
  const settings = await realityCheckSettingsOf(queryable, userId);
  const trading = await realTradingSince(queryable, userId, startedAt);
  const next_check_at = settings.enabled
    ? new Date(nextRealityCheckAt(startedAt.getTime(), settings.interval_minutes, now.getTime()))
    : null;
  return {
    reality_check: settings,
    session_started_at: startedAt.toISOString(),
    now: now.toISOString(),
    next_check_at: next_check_at?.toISOString() ?? null,
    trades: trading.trades,
    stakes: dollarsFromCents(trading.stake_cents),
    result: dollarsFromCents(trading.result_cents),
  };
}

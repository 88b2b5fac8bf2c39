import {
  type Exclusion,
  type ExclusionKind,
  excludedMessage,
  exclusionEndMs,
  exclusionNotShortenedMessage,
  type StartExclusionRequest,
} from "@tp/domain/trader-limits";
import type { Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";

/**
 * Time-outs and self-exclusion (issue 14 item 2), and the block an account closure puts on
 * trading and deposits (item 7). This module owns `trader_exclusions`; place_trades reads it
 * in its own statement (`trade_guard_refusals`), deposits through `refuseWhileExcluded`.
 * Withdrawals never ask, and open trades settle as usual.
 */

interface ExclusionRow {
  kind: ExclusionKind;
  started_at: Date;
  ends_at: Date | null;
}

function view(row: ExclusionRow): Exclusion {
  return {
    kind: row.kind,
    started_at: row.started_at.toISOString(),
    ends_at: row.ends_at?.toISOString() ?? null,
  };
}

/** The exclusion in force at `at` (the one ending last; a closure never ends), or null. */
export async function exclusionOf(
  queryable: Queryable,
  userId: number,
  at: Date,
): Promise<Exclusion | null> {
  const result = await queryable.query<ExclusionRow>(
    `SELECT kind, started_at, ends_at FROM trader_exclusions
     WHERE user_id = $1 AND started_at <= $2 AND (ends_at IS NULL OR ends_at > $2)
     ORDER BY ends_at DESC NULLS FIRST LIMIT 1`,
    [userId, at],
  );
  const row = result.rows[0];
  return row ? view(row) : null;
}

/** Every exclusion a trader took, newest first: staff see the history. */
export async function exclusionHistory(queryable: Queryable, userId: number): Promise<Exclusion[]> {
  const result = await queryable.query<ExclusionRow>(
    `SELECT kind, started_at, ends_at FROM trader_exclusions
     WHERE user_id = $1 ORDER BY started_at DESC, id DESC`,
    [userId],
  );
  return result.rows.map(view);
}

/** EXCLUDED during an exclusion: deposits (and anything else that must stop) ask here. */
export async function refuseWhileExcluded(
  queryable: Queryable,
  userId: number,
  at: Date,
): Promise<void> {
  const exclusion = await exclusionOf(queryable, userId, at);
  if (exclusion) throw new AppError("EXCLUDED", excludedMessage(exclusion.kind, exclusion.ends_at));
}

async function lockTraderGuards(transaction: Queryable, userId: number): Promise<void> {
  // The lock trade_guard_refusals takes: a trade checked at the same moment sees this
  // exclusion or runs wholly before it.
  await transaction.query(
    "SELECT pg_advisory_xact_lock(hashtextextended('trader-limits', $1::bigint))",
    [userId],
  );
}

/**
 * POST /responsible-trading/exclusion: starts a time-out or self-exclusion now. It cannot be
 * shortened: while one is in force, a new one must end later (409 EXCLUSION_NOT_SHORTENED).
 */
export async function startExclusion(
  transaction: Queryable,
  userId: number,
  request: StartExclusionRequest,
  at: Date,
): Promise<Exclusion> {
  await lockTraderGuards(transaction, userId);
  const endsAt = new Date(exclusionEndMs(request, at.getTime()));
  const current = await exclusionOf(transaction, userId, at);
  if (current?.kind === "closure") {
    throw new AppError("EXCLUDED", excludedMessage("closure", null));
  }
  if (current && Date.parse(current.ends_at!) >= endsAt.getTime()) {
    throw new AppError("EXCLUSION_NOT_SHORTENED", exclusionNotShortenedMessage(current.ends_at!));
  }
  const result = await transaction.query<ExclusionRow>(
    `INSERT INTO trader_exclusions (user_id, kind, started_at, ends_at) VALUES ($1, $2, $3, $4)
     RETURNING kind, started_at, ends_at`,
    [userId, request.kind, at, endsAt],
  );
  return view(result.rows[0]!);
}

/**
 * An account closure's block (issue 14 item 7): trading and deposits stop at once and for
 * good; withdrawals stay so the trader can take their money. Starting it twice adds nothing.
 */
export async function startClosureExclusion(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<void> {
  await lockTraderGuards(transaction, userId);
  await transaction.query(
    `INSERT INTO trader_exclusions (user_id, kind, started_at, ends_at)
     SELECT $1, 'closure', $2, NULL
     WHERE NOT EXISTS (SELECT 1 FROM trader_exclusions WHERE user_id = $1 AND kind = 'closure')`,
    [userId, at],
  );
}

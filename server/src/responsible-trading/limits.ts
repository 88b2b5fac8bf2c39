import { centsFromDollars, dollarsFromCents } from "@tp/domain/money";
import {
  isMoneyLimit,
  type LimitPeriod,
  limit_cooling_off_hours,
  limit_periods,
  limitPeriodEndMs,
  limitPeriodStartMs,
  moneyLimitReachedMessage,
  periodOfLimit,
  type TraderLimit,
  type TraderLimitKind,
  trader_limit_kinds,
  type UpdateTraderLimitsRequest,
} from "@tp/domain/trader-limits";
import type { Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";
import { realTradingUsage } from "../trading/trades.ts";
import { refuseWhileExcluded } from "./exclusions.ts";

/**
 * Trader limits (issue 14 item 1; the rules are domain/src/trader-limits.ts). This module owns
 * `trader_limits`. Trades are checked inside place_trades' own statement
 * (`trade_guard_refusals`, server/sql/functions/030_trading.sql); deposits inside the deposit's
 * transaction (`refuseDepositBeyondGuards`, called by funding under its per-trader lock).
 */

interface LimitRow {
  kind: TraderLimitKind;
  value: number | null;
  pending_value: number | null;
  pending_effective_at: Date | null;
}

const hour_ms = 3_600_000;

/** The value in force at `at`: the pending one once its cooling-off is over. */
function inForce(row: LimitRow | undefined, at: Date): number | null {
  if (!row) return null;
  if (row.pending_effective_at && row.pending_effective_at.getTime() <= at.getTime()) {
    return row.pending_value;
  }
  return row.value;
}

async function limitRows(queryable: Queryable, userId: number): Promise<Map<string, LimitRow>> {
  const result = await queryable.query<LimitRow>(
    "SELECT kind, value, pending_value, pending_effective_at FROM trader_limits WHERE user_id = $1",
    [userId],
  );
  return new Map(result.rows.map((row) => [row.kind, row]));
}

function periodStarts(at: Date): Record<LimitPeriod, Date> {
  return Object.fromEntries(
    limit_periods.map((period) => [period, new Date(limitPeriodStartMs(period, at.getTime()))]),
  ) as Record<LimitPeriod, Date>;
}

/** Deposits requested since `since`, less those cancelled, expired or rejected. */
async function depositedCentsSince(
  queryable: Queryable,
  userId: number,
  since: Date,
): Promise<number> {
  const result = await queryable.query<{ cents: number }>(
    `SELECT COALESCE(SUM(amount_cents), 0)::bigint AS cents FROM deposits
     WHERE user_id = $1 AND created_at >= $2
       AND status IN ('awaiting_payment', 'under_review', 'confirmed')`,
    [userId, since],
  );
  return result.rows[0]!.cents;
}

/** The figure shown for a limit's value: dollars for money, else as stored. */
function shown(kind: TraderLimitKind, value: number | null): number | null {
  return value === null ? null : isMoneyLimit(kind) ? dollarsFromCents(value) : value;
}

/** Every limit with what is used now (GET /responsible-trading/limits). */
export async function limitsOf(
  queryable: Queryable,
  userId: number,
  now: Date,
  sessionStartedAt: Date,
): Promise<TraderLimit[]> {
  const rows = await limitRows(queryable, userId);
  const starts = periodStarts(now);
  const trading = await realTradingUsage(queryable, userId, starts);
  const deposited: Record<LimitPeriod, number> = {
    day: await depositedCentsSince(queryable, userId, starts.day),
    week: await depositedCentsSince(queryable, userId, starts.week),
    month: await depositedCentsSince(queryable, userId, starts.month),
  };
  return trader_limit_kinds.map((kind) => {
    const row = rows.get(kind);
    const pendingAhead =
      row?.pending_effective_at && row.pending_effective_at.getTime() > now.getTime();
    let used: number;
    let resets_at: string | null = null;
    if (isMoneyLimit(kind)) {
      const period = periodOfLimit(kind);
      const cents = kind.startsWith("loss")
        ? Math.max(0, trading.loss_cents[period])
        : kind.startsWith("stake")
          ? trading.stake_cents[period]
          : deposited[period];
      used = dollarsFromCents(cents);
      resets_at = new Date(limitPeriodEndMs(period, now.getTime())).toISOString();
    } else if (kind === "open_trades") {
      used = trading.open_trades;
    } else {
      used = Math.floor((now.getTime() - sessionStartedAt.getTime()) / 60_000);
    }
    return {
      kind,
      value: shown(kind, inForce(row, now)),
      pending: pendingAhead
        ? {
            value: shown(kind, row.pending_value),
            effective_at: row.pending_effective_at!.toISOString(),
          }
        : null,
      used,
      resets_at,
    };
  });
}

/**
 * PUT /responsible-trading/limits: each kind given is set (a number) or removed (null).
 * Stricter (lower, or new where none was) takes effect at once and drops any pending change;
 * looser (higher, or removed) waits `limit_cooling_off_hours` from now, replacing a pending
 * one. The same value again changes nothing. Returns whether any change is pending now.
 */
export async function updateLimits(
  transaction: Queryable,
  userId: number,
  request: UpdateTraderLimitsRequest,
  now: Date,
): Promise<{ pending: boolean }> {
  // One writer per trader at a time: two saves at once must not both read the old value.
  await transaction.query(
    "SELECT pg_advisory_xact_lock(hashtextextended('trader-limits', $1::bigint))",
    [userId],
  );
  const rows = await limitRows(transaction, userId);
  const effectiveAt = new Date(now.getTime() + limit_cooling_off_hours * hour_ms);
  let pending = false;
  for (const kind of trader_limit_kinds) {
    if (!(kind in request)) continue;
    const given = request[kind];
    const wanted =
      given === null || given === undefined
        ? null
        : isMoneyLimit(kind)
          ? centsFromDollars(given)!
          : given;
    const row = rows.get(kind);
    const current = inForce(row, now);
    if (wanted === current) {
      // Asking again for what is in force cancels a change still waiting.
      if (row?.pending_effective_at && row.pending_effective_at > now) {
        await saveRow(transaction, userId, kind, current, null, null, now);
      }
      continue;
    }
    const stricter = wanted !== null && (current === null || wanted < current);
    if (stricter) {
      await saveRow(transaction, userId, kind, wanted, null, null, now);
    } else {
      await saveRow(transaction, userId, kind, current, wanted, effectiveAt, now);
      pending = true;
    }
  }
  const after = await limitRows(transaction, userId);
  for (const row of after.values()) {
    if (row.pending_effective_at && row.pending_effective_at > now) pending = true;
  }
  return { pending };
}

async function saveRow(
  transaction: Queryable,
  userId: number,
  kind: TraderLimitKind,
  value: number | null,
  pendingValue: number | null,
  pendingEffectiveAt: Date | null,
  now: Date,
): Promise<void> {
  if (value === null && pendingEffectiveAt === null) {
    await transaction.query("DELETE FROM trader_limits WHERE user_id = $1 AND kind = $2", [
      userId,
      kind,
    ]);
    return;
  }
  await transaction.query(
    `INSERT INTO trader_limits (user_id, kind, value, pending_value, pending_effective_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, kind) DO UPDATE
       SET value = EXCLUDED.value, pending_value = EXCLUDED.pending_value,
           pending_effective_at = EXCLUDED.pending_effective_at, updated_at = EXCLUDED.updated_at`,
    [userId, kind, value, pendingValue, pendingEffectiveAt, now],
  );
}

/**
 * A deposit of `amountCents` requested at `at`: refused during an exclusion (EXCLUDED) or when
 * it would cross a deposit limit in force (LIMIT_REACHED, naming the limit and what is used).
 * Runs in the deposit's transaction after funding's per-trader lock, so two deposits at once
 * are checked one after the other and never cross a limit together.
 */
export async function refuseDepositBeyondGuards(
  transaction: Queryable,
  userId: number,
  amountCents: number,
  at: Date,
): Promise<void> {
  await refuseWhileExcluded(transaction, userId, at);
  const rows = await limitRows(transaction, userId);
  const starts = periodStarts(at);
  for (const period of limit_periods) {
    const kind = `deposit_${period}` as const;
    const limitCents = inForce(rows.get(kind), at);
    if (limitCents === null) continue;
    const usedCents = await depositedCentsSince(transaction, userId, starts[period]);
    if (usedCents + amountCents > limitCents) {
      throw new AppError("LIMIT_REACHED", moneyLimitReachedMessage(kind, limitCents, usedCents));
    }
  }
}

import type { TradeView } from "@tp/domain/api";
import { potentialProfitCents } from "@tp/domain/catalogue";
import { dollarsFromCents } from "@tp/domain/money";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";

/** The trading module owns `trades`; these are its reads and writes. */
export interface TradeRow {
  id: number;
  user_id: number;
  is_practice: boolean;
  asset: string;
  direction: "call" | "put";
  stake_cents: number;
  duration_seconds: number;
  payout_percent: number;
  entry_price: number;
  entry_at: Date;
  feed: string;
  start_time: Date;
  expires_at: Date;
  /** When the request reached the platform; null before migration 026. */
  received_at: Date | null;
  /** The rulebook version it was placed under; null before migration 026. */
  rule_version: number | null;
  status: "open" | "won" | "lost" | "tie";
  exit_price: number | null;
  exit_at: Date | null;
  exit_feed: string | null;
  credit_cents: number | null;
  settled_at: Date | null;
  settlement_lag_ms: number | null;
  settlement_note: string | null;
  /** Why a trade was refunded without an exit price (settlement.ts refundNotes). */
  refund_reason: "no_price" | "feed_down" | null;
  audit_ticks: {
    entry: Array<{ price: number; at: number }>;
    exit: Array<{ price: number; at: number }>;
  } | null;
}

/** A trade's fields set when it is placed, which never change (settlement sets the rest). */
export type TradePlacement = Pick<
  TradeRow,
  | "id"
  | "user_id"
  | "is_practice"
  | "asset"
  | "direction"
  | "stake_cents"
  | "duration_seconds"
  | "payout_percent"
  | "entry_price"
  | "entry_at"
  | "feed"
  | "start_time"
  | "expires_at"
  | "received_at"
  | "rule_version"
>;

/** The ISO strings of recent instants: a settled batch's trades share most of theirs. */
const isoByEpochMs = new Map<number, string>();
const iso_cache_max = 4_096;

/**
 * `new Date(epochMs).toISOString()`, remembered: about 0.45 µs each here, six a trade view,
 * and a settlement batch of 2,000 trades shares its settled_at and, mostly, its expiries.
 */
export function isoTime(epochMs: number): string {
  let iso = isoByEpochMs.get(epochMs);
  if (iso === undefined) {
    if (isoByEpochMs.size >= iso_cache_max) isoByEpochMs.clear();
    iso = new Date(epochMs).toISOString();
    isoByEpochMs.set(epochMs, iso);
  }
  return iso;
}

const isoOf = (date: Date) => isoTime(date.getTime());
const isoOrNull = (date: Date | null) => (date === null ? null : isoTime(date.getTime()));

export function tradeView(row: TradeRow): TradeView {
  const profitCents = potentialProfitCents(row.stake_cents, row.payout_percent);
  let profitLossCents: number | null = null;
  if (row.status === "won") profitLossCents = profitCents;
  else if (row.status === "lost") profitLossCents = -row.stake_cents;
  else if (row.status === "tie") profitLossCents = 0;
  return {
    id: row.id,
    asset: row.asset,
    type: row.direction,
    amount: dollarsFromCents(row.stake_cents),
    duration: row.duration_seconds,
    is_practice: row.is_practice,
    start_time: isoOf(row.start_time),
    received_at: isoOrNull(row.received_at ?? null),
    rule_version: row.rule_version,
    expires_at: isoOf(row.expires_at),
    entry_price: row.entry_price,
    entry_at: isoOf(row.entry_at),
    feed: row.feed,
    exit_price: row.exit_price,
    exit_at: isoOrNull(row.exit_at ?? null),
    payout_percent: row.payout_percent,
    profit: dollarsFromCents(profitCents),
    profit_loss: profitLossCents === null ? null : dollarsFromCents(profitLossCents),
    status: row.status,
    settled_at: isoOrNull(row.settled_at ?? null),
  };
}

export async function findUserTrade(
  queryable: Queryable,
  userId: number,
  tradeId: number,
): Promise<TradeRow | null> {
  const result = await queryable.query<TradeRow>(
    "SELECT * FROM trades WHERE id = $1 AND user_id = $2",
    [tradeId, userId],
  );
  return result.rows[0] ?? null;
}

/** Every trade of a user, oldest first (the data export: issue 14 item 6). */
export async function userTrades(queryable: Queryable, userId: number): Promise<TradeRow[]> {
  const result = await queryable.query<TradeRow>(
    "SELECT * FROM trades WHERE user_id = $1 ORDER BY start_time, id",
    [userId],
  );
  return result.rows;
}

/** A trade as stored, with the journal entries that staked and credited it (migration 031). */
export interface StoredTradeRow extends TradeRow {
  placed_entry_id: number | null;
  /** Null while open, and for a lost trade (it is credited nothing). */
  settled_entry_id: number | null;
}

/** Trades started in [from, until), oldest first, at most `limit`: the staff export for auditors. */
export async function tradesStartedDuring(
  queryable: Queryable,
  from: Date,
  until: Date,
  limit: number,
): Promise<StoredTradeRow[]> {
  const result = await queryable.query<StoredTradeRow>(
    `SELECT * FROM trades WHERE start_time >= $1 AND start_time < $2
     ORDER BY start_time, id LIMIT $3`,
    [from, until, limit],
  );
  return result.rows;
}

export async function tradeHistoryPage(
  queryable: Queryable,
  userId: number,
  isPractice: boolean,
  page: number,
  limit: number,
): Promise<{ rows: TradeRow[]; total: number }> {
  return countAndPage<TradeRow>(queryable, {
    countSql:
      "SELECT COUNT(*)::bigint AS total FROM trades WHERE user_id = $1 AND is_practice = $2",
    rowsSql: `SELECT * FROM trades WHERE user_id = $1 AND is_practice = $2
     ORDER BY start_time DESC, id DESC`,
    params: [userId, isPractice],
    page,
    limit,
  });
}

/** The stored audit window of one second of one symbol (migration 006), or null. */
export async function storedAuditWindow(
  queryable: Queryable,
  symbol: string,
  secondMs: number,
): Promise<Array<{ price: number; at: number }> | null> {
  const result = await queryable.query<{ ticks: Array<{ price: number; at: number }> }>(
    "SELECT ticks FROM trade_audit_windows WHERE symbol = $1 AND second = $2",
    [symbol, new Date(secondMs)],
  );
  return result.rows[0]?.ticks ?? null;
}

/** A trade refunded because its asset's feed was down across its expiry: no owner in it. */
export interface RefundedTradeRow {
  /** The halt (of the list given) during which the trade expired. */
  halt_id: number;
  id: number;
  direction: "call" | "put";
  stake_cents: number;
  is_practice: boolean;
  expires_at: Date;
  settlement_note: string | null;
}

/**
 * The trades refunded with reason 'feed_down' whose asset is the halt's and whose expiry
 * fell within it (a halt still running has no end), for each halt given, oldest expiry
 * first. One query for the whole list; the halts come from the prices module, which owns
 * them, so this reads only `trades`.
 */
export async function refundedTradesDuring(
  queryable: Queryable,
  halts: ReadonlyArray<{ id: number; symbol: string; started_at: Date; ended_at: Date | null }>,
): Promise<Map<number, RefundedTradeRow[]>> {
  const byHalt = new Map<number, RefundedTradeRow[]>(halts.map((halt) => [halt.id, []]));
  if (halts.length === 0) return byHalt;
  const result = await queryable.query<RefundedTradeRow>(
    `SELECT h.halt_id, t.id, t.direction, t.stake_cents, t.is_practice, t.expires_at,
            t.settlement_note
     FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::timestamptz[])
            AS h (halt_id, symbol, started_at, ended_at)
     JOIN trades t ON t.asset = h.symbol
                  AND t.refund_reason = 'feed_down'
                  AND t.expires_at >= h.started_at
                  AND (h.ended_at IS NULL OR t.expires_at <= h.ended_at)
     ORDER BY h.halt_id, t.expires_at, t.id`,
    [
      halts.map((halt) => halt.id),
      halts.map((halt) => halt.symbol),
      halts.map((halt) => halt.started_at.toISOString()),
      halts.map((halt) => halt.ended_at?.toISOString() ?? null),
    ],
  );
  for (const row of result.rows) byHalt.get(row.halt_id)?.push(row);
  return byHalt;
}

/** A trader's real-account trading since a time (the reality check's session figures). */
export interface RealTradingSince {
  /** Real trades placed since then, and their stakes. */
  trades: number;
  stake_cents: number;
  /** Of the real trades settled since then: payouts and refunds credited less their stakes. */
  result_cents: number;
}

/**
 * Real-account trading of one trader from `since` to now, exact in cents: the trades placed
 * (start_time) and their stakes, and the result of the trades settled (settled_at) in that
 * time (a win credits stake + profit, a refund the stake, a loss nothing). Practice trades
 * are not counted.
 */
export async function realTradingSince(
  queryable: Queryable,
  userId: number,
  since: Date,
): Promise<RealTradingSince> {
  const result = await queryable.query<RealTradingSince>(
    `SELECT COUNT(*) FILTER (WHERE start_time >= $2)::bigint AS trades,
            COALESCE(SUM(stake_cents) FILTER (WHERE start_time >= $2), 0)::bigint AS stake_cents,
            COALESCE(SUM(COALESCE(credit_cents, 0) - stake_cents) FILTER (WHERE settled_at >= $2), 0)::bigint
              AS result_cents
     FROM trades
     WHERE user_id = $1 AND NOT is_practice AND (start_time >= $2 OR settled_at >= $2)`,
    [userId, since],
  );
  const row = result.rows[0]!;
  return { trades: row.trades, stake_cents: row.stake_cents, result_cents: row.result_cents };
}

/**
 * A trader's real-account usage for their limits (issue 14 item 1), by the same rule as
 * `trade_guard_refusals` (server/sql/functions/030_trading.sql): stakes of the trades started
 * since each period's start, and their worst-case loss (stakes less what settled trades paid
 * back; an open trade has paid nothing back yet); and the real trades open now.
 */
export async function realTradingUsage(
  queryable: Queryable,
  userId: number,
  starts: { day: Date; week: Date; month: Date },
): Promise<{
  stake_cents: { day: number; week: number; month: number };
  loss_cents: { day: number; week: number; month: number };
  open_trades: number;
}> {
  const result = await queryable.query<Record<string, number>>(
    `SELECT
       COALESCE(SUM(stake_cents) FILTER (WHERE start_time >= $2), 0)::bigint AS stake_day,
       COALESCE(SUM(stake_cents) FILTER (WHERE start_time >= $3), 0)::bigint AS stake_week,
       COALESCE(SUM(stake_cents) FILTER (WHERE start_time >= $4), 0)::bigint AS stake_month,
       COALESCE(SUM(stake_cents - COALESCE(credit_cents, 0)) FILTER (WHERE start_time >= $2), 0)::bigint
         AS loss_day,
       COALESCE(SUM(stake_cents - COALESCE(credit_cents, 0)) FILTER (WHERE start_time >= $3), 0)::bigint
         AS loss_week,
       COALESCE(SUM(stake_cents - COALESCE(credit_cents, 0)) FILTER (WHERE start_time >= $4), 0)::bigint
         AS loss_month,
       (SELECT COUNT(*) FROM open_trades o
        WHERE o.user_id = $1 AND NOT o.is_practice)::bigint AS open_trades
     FROM trades
     WHERE user_id = $1 AND NOT is_practice AND start_time >= LEAST($3::timestamptz, $4::timestamptz)`,
    [userId, starts.day, starts.week, starts.month],
  );
  const row = result.rows[0]!;
  return {
    stake_cents: { day: row.stake_day!, week: row.stake_week!, month: row.stake_month! },
    loss_cents: { day: row.loss_day!, week: row.loss_week!, month: row.loss_month! },
    open_trades: row.open_trades!,
  };
}

/** Where a trade's latest record (settled, else placed) sits in the journal's chains (migration 028). */
export interface TradeChainPlace {
  record: "trade_placed" | "trade_settled";
  chain: string;
  seq: number;
  /** The record's row_hash, hex. */
  record_hash: string;
}

export async function tradeChainPlace(
  queryable: Queryable,
  tradeId: number,
): Promise<TradeChainPlace | null> {
  const result = await queryable.query<{
    settled: boolean;
    chain: number | null;
    seq: number | null;
    record_hash: string | null;
  }>(
    `SELECT settled_seq IS NOT NULL AS settled,
            COALESCE(settled_chain, placed_chain) AS chain,
            COALESCE(settled_seq, placed_seq) AS seq,
            encode(COALESCE(settled_hash, placed_hash), 'hex') AS record_hash
     FROM trades WHERE id = $1`,
    [tradeId],
  );
  const row = result.rows[0];
  if (!row || row.chain === null || row.seq === null || row.record_hash === null) return null;
  return {
    record: row.settled ? "trade_settled" : "trade_placed",
    chain: `trades:${row.chain}`,
    seq: Number(row.seq),
    record_hash: row.record_hash,
  };
}

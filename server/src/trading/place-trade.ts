import type { TradeView } from "@tp/domain/api";
import { findAsset, findExpiration } from "@tp/domain/catalogue";
import { centsFromDollars, dollarsFromCents, formatUsdFromCents } from "@tp/domain/money";
import { rulebook_version_current } from "@tp/domain/rulebook";
import { type PlaceTradeRequest, tradeMessages } from "@tp/domain/trade-form";
import type { AppContext } from "../app-context.ts";
import { AppError, unauthenticated, validationError } from "../http/errors.ts";
import { type IdempotencyKey, idempotencyKeyReused } from "../idempotency/idempotency.ts";
import { marketStatusOf } from "../prices/market-status.ts";
import { tradeGuardError } from "./trade-guard.ts";
import { findUserTrade, isoTime, type TradePlacement, type TradeRow, tradeView } from "./trades.ts";

export interface PlaceTradeReply {
  statusCode: number;
  body: { status: "success"; message: string; data: { trade: TradeView } };
  replayed: boolean;
}

/**
 * Places a trade at the price in force now (PRODUCT.md D1): the database's `place_trades`
 * (server/sql/functions/030_trading.sql), called through the trade batcher with whatever else arrived meanwhile,
 * debits the stake by the ledger's guarded update (never below
 * zero, whatever the concurrency), inserts the trade with its entry price, tick time, feed,
 * payout and expiry, its journal entry and the Idempotency-Key's reply, atomically, in one
 * round trip. The reply is built here, before the call, so the key can store it.
 */
export async function placeTrade(
  context: AppContext,
  userId: number,
  input: PlaceTradeRequest,
  idempotency: IdempotencyKey | null,
  /**
   * The request's arrival and its session: the session time limit counts from its sign-in,
   * and place_trades checks it live (so the route may take it from recent lookups).
   */
  request: { receivedAt: Date; sessionStartedAt: Date; sessionId: number } | null = null,
): Promise<PlaceTradeReply> {
  const { clock, config, marketData, bus, tradeBatcher } = context;
  const asset = findAsset(input.asset)!;
  const expiration = findExpiration(input.duration)!;
  const stakeCents = centsFromDollars(input.amount)!;
  if (stakeCents > config.trade_amount_cents_max) {
    throw validationError({
      amount: [
        `The maximum amount per trade is ${formatUsdFromCents(config.trade_amount_cents_max)}`,
      ],
    });
  }

  const now = clock.now();
  const tick = marketData.store.last(asset.symbol);
  // Outside its hours, or its feed not shown live on this process (a stale tick, or the
  // event bus lost): no trade on a price that may be frozen (issue 11, item 5).
  if (!tick || marketStatusOf(context, asset, now.getTime()).state !== "open") {
    throw new AppError("MARKET_CLOSED", tradeMessages.marketClosed);
  }
  // Decided here, applied by the database only once the money is known to be there, so a
  // trader without the money hears "Insufficient balance" first.
  const refusal =
    !input.is_practice &&
    tick.source === "simulated" &&
    !config.ALLOW_REAL_TRADING_ON_SIMULATED_PRICES
      ? "simulated prices"
      : null;

  const trade = placedTrade({
    id: 0, // set by the database
    user_id: userId,
    is_practice: input.is_practice,
    asset: asset.symbol,
    direction: input.type,
    stake_cents: stakeCents,
    duration_seconds: expiration.seconds,
    payout_percent: expiration.payoutPercent,
    entry_price: tick.price,
    entry_at: new Date(tick.at),
    feed: tick.source,
    start_time: now,
    received_at: request?.receivedAt ?? null,
    rule_version: rulebook_version_current,
    expires_at: new Date(now.getTime() + expiration.seconds * 1000),
  });

  const result = await tradeBatcher.submit({
    user_id: userId,
    is_practice: trade.is_practice,
    asset: trade.asset,
    direction: trade.direction,
    stake_cents: stakeCents,
    duration_seconds: trade.duration_seconds,
    payout_percent: trade.payout_percent,
    entry_price: trade.entry_price,
    entry_at: isoTime(tick.at),
    feed: trade.feed,
    start_time: isoTime(now.getTime()),
    expires_at: isoTime(trade.expires_at.getTime()),
    refusal,
    key: idempotency?.key ?? null,
    hash: idempotency?.requestHash ?? null,
    rule_version: rulebook_version_current,
    received_at: request ? isoTime(request.receivedAt.getTime()) : null,
    session_started_at: request ? isoTime(request.sessionStartedAt.getTime()) : null,
    ...(request
      ? context.sessions.writeCheck(request.sessionId, now)
      : {
          session_id: null,
          session_seen_after: null,
          session_created_after: null,
          session_touch_before: null,
        }),
  });
  if (result.outcome === "unauthenticated") throw unauthenticated();
  if (result.outcome === "insufficient") {
    throw new AppError("INSUFFICIENT_FUNDS", tradeMessages.insufficientBalance);
  }
  if (result.outcome === "guarded") throw tradeGuardError(result.guard!);
  if (result.outcome === "refused") {
    throw new AppError("SIMULATED_PRICES_REAL_ACCOUNT", tradeMessages.simulatedRealRefused);
  }
  if (result.outcome === "replay") {
    if (idempotency && result.stored_hash !== idempotency.requestHash) {
      throw idempotencyKeyReused();
    }
    return {
      statusCode: result.stored_status!,
      body: await storedReplyBody(context, userId, result.stored_body),
      replayed: true,
    };
  }

  trade.id = result.trade_id!;
  const body = placedReplyBody(trade);
  bus.publish({ type: "trade", userId, trade: body.data.trade });
  bus.publish({
    type: "balance",
    userId,
    account_balance: dollarsFromCents(result.real_cents!),
    practice_balance: dollarsFromCents(result.practice_cents!),
  });
  return { statusCode: 201, body, replayed: false };
}

/** A trade as placed: the settlement's fields are empty, whatever has happened since. */
function placedTrade(fields: TradePlacement): TradeRow {
  // Each field named (no spread of a shared object): a literal of one shape stays fast.
  return {
    id: fields.id,
    user_id: fields.user_id,
    is_practice: fields.is_practice,
    asset: fields.asset,
    direction: fields.direction,
    stake_cents: fields.stake_cents,
    duration_seconds: fields.duration_seconds,
    payout_percent: fields.payout_percent,
    entry_price: fields.entry_price,
    entry_at: fields.entry_at,
    feed: fields.feed,
    start_time: fields.start_time,
    received_at: fields.received_at,
    rule_version: fields.rule_version,
    expires_at: fields.expires_at,
    status: "open",
    exit_price: null,
    exit_at: null,
    exit_feed: null,
    credit_cents: null,
    settled_at: null,
    settlement_lag_ms: null,
    settlement_note: null,
    refund_reason: null,
    audit_ticks: null,
  };
}

/**
 * The reply to a placed trade: built here both when the trade is placed and when its
 * Idempotency-Key replays it, so the two are the same text.
 */
function placedReplyBody(trade: TradeRow): PlaceTradeReply["body"] {
  return { status: "success", message: tradeMessages.placed, data: { trade: tradeView(trade) } };
}

/**
 * The reply an Idempotency-Key stored: `place_trades` stores the placed trade's id
 * (`{"placed_trade_id": id}`), and the reply is rebuilt from the trade as it was placed,
 * open, whether or not it has settled since (what the first reply said). A key stored
 * before migration 034 holds the whole reply, returned as it is.
 */
async function storedReplyBody(
  context: AppContext,
  userId: number,
  stored: unknown,
): Promise<PlaceTradeReply["body"]> {
  const tradeId = (stored as { placed_trade_id?: unknown }).placed_trade_id;
  if (typeof tradeId !== "number") return stored as PlaceTradeReply["body"];
  const row = await findUserTrade(context.database, userId, tradeId);
  // The key and its trade were written in one transaction, and trades are never deleted.
  if (!row) throw new Error(`trade ${tradeId} of an Idempotency-Key's reply is missing`);
  return placedReplyBody(placedTrade(row));
}

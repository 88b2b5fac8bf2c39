import type { TradeView } from "@tp/domain/api";
import { findAsset, findExpiration } from "@tp/domain/catalogue";
import { centsFromDollars, formatUsdFromCents } from "@tp/domain/money";
import { type PlaceTradeRequest, tradeMessages } from "@tp/domain/trade-form";
import type { AppContext } from "../app-context.ts";
import { AppError, validationError } from "../http/errors.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyKey,
} from "../http/idempotency.ts";
import {
  houseAccountCode,
  InsufficientFundsError,
  postEntry,
  systemAccountId,
  traderAccountId,
  traderBalances,
} from "../ledger/ledger.ts";
import { insertTrade, tradeView } from "./trades.ts";
import { publishBalances } from "./trading-events.ts";

/** A price older than this means the market is closed (or the feed is down) for the asset. */
export const stale_price_ms = 10_000;

export interface PlaceTradeReply {
  statusCode: number;
  body: { status: "success"; message: string; data: { trade: TradeView } };
  replayed: boolean;
}

/**
 * Places a trade at the price in force now (PRODUCT.md D1): one transaction debits the
 * stake by the ledger's guarded update (never below zero, whatever the concurrency) and
 * inserts the trade with its entry price, tick time, feed, payout and expiry.
 */
export async function placeTrade(
  context: AppContext,
  userId: number,
  input: PlaceTradeRequest,
  idempotency: IdempotencyKey | null,
): Promise<PlaceTradeReply> {
  const { database, clock, config, marketData, bus } = context;
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
  if (!tick || now.getTime() - tick.at > stale_price_ms) {
    throw new AppError("MARKET_CLOSED", tradeMessages.marketClosed);
  }
  // A first, unlocked look at the balance: a trader without the money hears that before
  // anything else. The guarded debit below is what actually decides.
  const balances = await traderBalances(database, userId);
  if ((input.is_practice ? balances.practice_cents : balances.real_cents) < stakeCents) {
    throw new AppError("INSUFFICIENT_FUNDS", tradeMessages.insufficientBalance);
  }
  if (
    !input.is_practice &&
    tick.source === "simulated" &&
    !config.ALLOW_REAL_TRADING_ON_SIMULATED_PRICES
  ) {
    throw new AppError("SIMULATED_PRICES_REAL_ACCOUNT", tradeMessages.simulatedRealRefused);
  }

  const reply = await database.transaction(async (transaction): Promise<PlaceTradeReply> => {
    if (idempotency) {
      const claim = await claimIdempotencyKey(transaction, userId, idempotency, now);
      if (claim.kind === "replay") {
        return {
          statusCode: claim.statusCode,
          body: claim.body as PlaceTradeReply["body"],
          replayed: true,
        };
      }
    }
    // The trade row first, so the stake's journal entry can name it; if the debit fails
    // the whole transaction, row included, rolls back.
    const trade = await insertTrade(transaction, {
      userId,
      isPractice: input.is_practice,
      asset: asset.symbol,
      direction: input.type,
      stakeCents,
      durationSeconds: expiration.seconds,
      payoutPercent: expiration.payoutPercent,
      entryPrice: tick.price,
      entryAt: new Date(tick.at),
      feed: tick.source,
      startTime: now,
      expiresAt: new Date(now.getTime() + expiration.seconds * 1000),
    });
    const accountCode = input.is_practice ? "practice" : "real";
    try {
      await postEntry(transaction, {
        kind: "trade_stake",
        reference: `trade:${trade.id}`,
        at: now,
        postings: [
          {
            accountId: await traderAccountId(transaction, userId, accountCode),
            amountCents: -stakeCents,
          },
          {
            accountId: await systemAccountId(
              transaction,
              houseAccountCode(input.is_practice, userId),
            ),
            amountCents: stakeCents,
          },
        ],
      });
    } catch (error) {
      if (error instanceof InsufficientFundsError) {
        throw new AppError("INSUFFICIENT_FUNDS", tradeMessages.insufficientBalance);
      }
      throw error;
    }
    const body = {
      status: "success" as const,
      message: tradeMessages.placed,
      data: { trade: tradeView(trade) },
    };
    if (idempotency) await completeIdempotencyKey(transaction, userId, idempotency, 201, body);
    return { statusCode: 201, body, replayed: false };
  });

  if (!reply.replayed) {
    bus.publish({ type: "trade", userId, trade: reply.body.data.trade });
    await publishBalances(context, [userId]);
  }
  return reply;
}

import { z } from "zod";
import { findAsset, findExpiration } from "./catalogue.ts";
import { centsFromDollars } from "./money.ts";

/**
 * SPEC §5 trade-form rules, in the spec's order (the first failure is the one shown):
 * asset, amount, expiration. The server checks the same, then its own limits.
 */
export const tradeMessages = {
  selectAsset: "Please select an asset",
  validAmount: "Please enter a valid amount",
  selectExpiration: "Please select expiration time",
  invalidExpiration: "Invalid expiration time",
  selectDirection: "Please choose Call or Put",
  selectAccount: "Please choose the real or the practice account",
  amountDecimals: "The amount can have at most 2 decimals",
  amountMinimum: "The minimum amount per trade is $1.00",
  insufficientBalance: "Insufficient balance",
  marketClosed: "Market is closed for this asset",
  simulatedRealRefused:
    "Real-account trading is not available while prices are simulated. Use the Practice Account.",
  placed: "Trade placed successfully",
  placeFailed: "Failed to place trade",
} as const;

const t = tradeMessages;

/** Smallest stake (PRODUCT.md D11); the largest is the server's TRADE_AMOUNT_MAX_DOLLARS. */
export const trade_amount_cents_min = 100;

export const placeTradeSchema = z.object({
  asset: z
    .string({ error: t.selectAsset })
    .refine((symbol) => findAsset(symbol) !== undefined, { message: t.selectAsset }),
  amount: z
    .number({ error: t.validAmount })
    .refine((amount) => Number.isFinite(amount) && amount > 0, {
      message: t.validAmount,
      abort: true,
    })
    .refine((amount) => centsFromDollars(amount) !== null, {
      message: t.amountDecimals,
      abort: true,
    })
    .refine((amount) => (centsFromDollars(amount) ?? 0) >= trade_amount_cents_min, {
      message: t.amountMinimum,
    }),
  duration: z
    .number({ error: t.selectExpiration })
    .refine((seconds) => findExpiration(seconds) !== undefined, { message: t.invalidExpiration }),
  type: z.enum(["call", "put"], { error: t.selectDirection }),
  is_practice: z.boolean({ error: t.selectAccount }),
});

export type PlaceTradeRequest = z.output<typeof placeTradeSchema>;

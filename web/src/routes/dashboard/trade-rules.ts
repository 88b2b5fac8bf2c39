import {
  assetsOfType,
  findExpiration,
  type OptionType,
  potentialProfitCents,
} from "@tp/domain/catalogue";
import { centsFromDollars, dollarsFromCents } from "@tp/domain/money";
import { type PlaceTradeRequest, placeTradeSchema, tradeMessages } from "@tp/domain/trade-form";

/** What the trade form holds (SPEC §3 "Trade form state"): inputs as typed. */
export interface TradeFormValues {
  optionType: OptionType;
  asset: string;
  amount: string;
  /** Seconds as the select's value; "" until one is chosen. */
  expiration: string;
}

export type TradeField = "asset" | "amount" | "expiration";

export type TradeCheck =
  | { ok: true; request: PlaceTradeRequest }
  | { ok: false; message: string; field: TradeField | null };

const fieldOf: Record<string, TradeField> = {
  asset: "asset",
  amount: "amount",
  duration: "expiration",
};

/**
 * SPEC §5 "Trade form": the first failure, in the spec's order — asset, amount (missing or
 * not above 0), expiration (missing, or not one of the options). The amount is parsed as a
 * float and the duration as an integer; the domain schema (the server's too) then adds the
 * platform's own amount rules (2 decimals, at least $1). An asset of another option type
 * counts as none chosen (SPEC §4: others are ignored).
 */
export function checkTrade(
  values: TradeFormValues,
  type: "call" | "put",
  isPractice: boolean,
): TradeCheck {
  const inType = assetsOfType(values.optionType).some((asset) => asset.symbol === values.asset);
  if (!inType) return { ok: false, message: tradeMessages.selectAsset, field: "asset" };
  const candidate = {
    asset: values.asset,
    amount: values.amount.trim() === "" ? undefined : Number.parseFloat(values.amount),
    duration: values.expiration === "" ? undefined : Number.parseInt(values.expiration, 10),
    type,
    is_practice: isPractice,
  };
  const parsed = placeTradeSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, request: parsed.data };
  // Issues come in the schema's key order: asset, amount, duration, type, is_practice.
  const first = parsed.error.issues[0];
  const field = first ? (fieldOf[String(first.path[0])] ?? null) : null;
  return { ok: false, message: first?.message ?? tradeMessages.placeFailed, field };
}

/**
 * SPEC §9: potential profit = amount × payout% of the chosen expiration, in dollars (0 until
 * both are usable). Computed in cents, rounded down as the server pays it.
 */
export function potentialProfit(amount: string, expiration: string): number {
  const payout = findExpiration(Number.parseInt(expiration, 10))?.payoutPercent;
  const dollars = Number.parseFloat(amount);
  if (payout === undefined || !Number.isFinite(dollars) || dollars <= 0) return 0;
  const cents = centsFromDollars(dollars);
  if (cents === null) return 0;
  return dollarsFromCents(potentialProfitCents(cents, payout));
}

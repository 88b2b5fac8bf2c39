import { settlementCreditCents, type TradeOutcome, tradeOutcome } from "./catalogue.ts";

/**
 * A signed trade receipt (issue 15 item 1): what the platform states about one trade, signed
 * with its Ed25519 key over the receipt's RFC 8785 canonical form (canonical-json.ts). Issued
 * for an open trade ("placement") and for a settled one ("settlement"). Anyone can check it
 * with the published keys (GET /api/v1/receipts/keys) and recompute its outcome and credit
 * from its own prices by the rulebook version it names (`recomputedSettlement`).
 */
export const receipt_format = "tradeplatform-trade-receipt/1";

export interface ReceiptTick {
  at: string;
  price: number;
}

export interface TradeReceipt {
  format: typeof receipt_format;
  kind: "placement" | "settlement";
  issued_at: string;
  rule_version: number | null;
  trade: {
    id: number;
    account: "real" | "practice";
    asset: string;
    direction: "call" | "put";
    stake_cents: number;
    payout_percent: number;
    received_at: string | null;
    accepted_at: string;
    expires_at: string;
    entry: { at: string; price: number; source: string };
    exit: { at: string; price: number; source: string } | null;
    ticks_around_entry: ReceiptTick[];
    ticks_around_expiry: ReceiptTick[];
    status: "open" | TradeOutcome;
    refund_reason: "no_price" | "feed_down" | null;
    credit_cents: number | null;
    settled_at: string | null;
  };
}

export interface SignedTradeReceipt {
  receipt: TradeReceipt;
  signature: { algorithm: "Ed25519"; key_id: string; public_key: string; value: string };
}

/**
 * The outcome and credit the rulebook gives the receipt's own prices: a refunded trade
 * (no exit price: `refund_reason`) is a tie paying back its stake; otherwise call wins above
 * the entry price, put below, equal prices tie; a win pays stake + stake × payout % rounded
 * down to the cent. Null for an open trade.
 */
export function recomputedSettlement(
  trade: TradeReceipt["trade"],
): { status: TradeOutcome; credit_cents: number } | null {
  if (trade.status === "open") return null;
  if (trade.refund_reason !== null || trade.exit === null) {
    return { status: "tie", credit_cents: trade.stake_cents };
  }
  const status = tradeOutcome(trade.direction, trade.entry.price, trade.exit.price);
  return {
    status,
    credit_cents: settlementCreditCents(status, trade.stake_cents, trade.payout_percent),
  };
}

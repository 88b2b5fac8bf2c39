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
  /**
   * Where the trade's record sits in the platform's tamper-evident journal: its chain, its
   * place and hash there, and the first signed checkpoint covering it (GET
   * /api/v1/journal/checkpoints), null until the next minute's checkpoint is signed. Absent
   * from receipts issued before the journal existed.
   */
  journal?: {
    record: "trade_placed" | "trade_settled";
    chain: string;
    seq: number;
    record_hash: string;
    checkpoint: { id: number; created_at: string } | null;
  } | null;
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

export interface ReceiptCheck {
  holds: boolean;
  what: string;
}

/**
 * What holds of a receipt, given whether its signature verified and the keys the platform
 * published (the /verify page; tools/verify-receipt.mjs prints the same checks).
 */
export function receiptChecks(
  signed: SignedTradeReceipt,
  signatureValid: boolean,
  publishedKeys: ReadonlyArray<{ key_id: string; public_key: string }>,
): ReceiptCheck[] {
  const { receipt, signature } = signed;
  const checks: ReceiptCheck[] = [
    {
      holds: signatureValid,
      what: signatureValid
        ? "The signature holds: the receipt is exactly what the platform signed"
        : "The signature does not hold: the receipt was changed after it was signed, or signed with another key",
    },
    {
      holds: publishedKeys.some(
        (key) => key.key_id === signature.key_id && key.public_key === signature.public_key,
      ),
      what: `The signing key ${signature.key_id} is one the platform published`,
    },
  ];
  const expected = recomputedSettlement(receipt.trade);
  if (expected === null) {
    checks.push({
      holds: receipt.trade.credit_cents === null,
      what: "The trade is open: no outcome or credit yet",
    });
  } else {
    checks.push({
      holds: expected.status === receipt.trade.status,
      what: `The outcome follows from the prices by the rule: ${expected.status} (receipt: ${receipt.trade.status})`,
    });
    checks.push({
      holds: expected.credit_cents === receipt.trade.credit_cents,
      what: `The credit follows from the rule: ${expected.credit_cents} cents (receipt: ${receipt.trade.credit_cents})`,
    });
  }
  return checks;
}

/** The shape a pasted receipt must have before it is checked (the /verify page). */
export function looksLikeSignedReceipt(value: unknown): value is SignedTradeReceipt {
  const candidate = value as Partial<SignedTradeReceipt> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.receipt === "object" &&
    candidate.receipt !== null &&
    candidate.receipt.format === receipt_format &&
    typeof candidate.receipt.trade === "object" &&
    typeof candidate.signature?.value === "string" &&
    typeof candidate.signature?.public_key === "string" &&
    typeof candidate.signature?.key_id === "string"
  );
}

import { sign } from "node:crypto";
import { canonicalJson } from "@tp/domain/canonical-json";
import { receipt_format, type SignedTradeReceipt } from "@tp/domain/trade-receipt";
import type { Queryable } from "../db/database.ts";
import type { PriceStore } from "../prices/price-store.ts";
import { tradeAudit } from "../trading/trade-audit.ts";
import { type TradeRow, tradeChainPlace } from "../trading/trades.ts";
import type { ReceiptSigningKey } from "./receipt-signing-key.ts";

/**
 * A trade's signed receipt (issue 15 item 1): a placement receipt while it is open, a
 * settlement receipt once settled, with the ticks around entry and expiry the audit view
 * shows, signed over its RFC 8785 canonical form with the platform's Ed25519 key.
 */
export async function signedTradeReceipt(
  queryable: Queryable,
  store: PriceStore,
  key: ReceiptSigningKey,
  trade: TradeRow,
  issuedAt: Date,
): Promise<SignedTradeReceipt> {
  const { audit } = await tradeAudit(queryable, store, trade);
  const settled = trade.status !== "open";
  const receipt: SignedTradeReceipt["receipt"] = {
    format: receipt_format,
    kind: settled ? "settlement" : "placement",
    issued_at: issuedAt.toISOString(),
    rule_version: trade.rule_version,
    trade: {
      id: trade.id,
      account: trade.is_practice ? "practice" : "real",
      asset: trade.asset,
      direction: trade.direction,
      stake_cents: Number(trade.stake_cents),
      payout_percent: trade.payout_percent,
      received_at: trade.received_at?.toISOString() ?? null,
      accepted_at: trade.start_time.toISOString(),
      expires_at: trade.expires_at.toISOString(),
      entry: { at: trade.entry_at.toISOString(), price: trade.entry_price, source: trade.feed },
      exit:
        trade.exit_price === null || trade.exit_at === null
          ? null
          : {
              at: trade.exit_at.toISOString(),
              price: trade.exit_price,
              source: trade.exit_feed ?? trade.feed,
            },
      ticks_around_entry: audit.entry_ticks,
      ticks_around_expiry: settled ? audit.exit_ticks : [],
      status: trade.status,
      refund_reason: trade.refund_reason,
      credit_cents: trade.credit_cents === null ? null : Number(trade.credit_cents),
      settled_at: trade.settled_at?.toISOString() ?? null,
    },
    journal: await journalPlace(queryable, trade.id),
  };
  const value = sign(null, Buffer.from(canonicalJson(receipt), "utf8"), key.privateKey);
  return {
    receipt,
    signature: {
      algorithm: "Ed25519",
      key_id: key.keyId,
      public_key: key.publicKey,
      value: value.toString("base64"),
    },
  };
}

/** The trade's place in the journal, and the first signed checkpoint whose head covers it. */
async function journalPlace(
  queryable: Queryable,
  tradeId: number,
): Promise<NonNullable<SignedTradeReceipt["receipt"]["journal"]> | null> {
  const place = await tradeChainPlace(queryable, tradeId);
  if (!place) return null;
  const covering = await queryable.query<{ id: number; created_at: Date }>(
    `SELECT c.id, c.created_at FROM journal_checkpoint_heads k
     JOIN journal_checkpoints c ON c.id = k.checkpoint_id
     WHERE k.chain = $1 AND k.seq >= $2 ORDER BY k.seq, k.checkpoint_id LIMIT 1`,
    [place.chain, place.seq],
  );
  const checkpoint = covering.rows[0];
  return {
    ...place,
    checkpoint: checkpoint
      ? { id: Number(checkpoint.id), created_at: checkpoint.created_at.toISOString() }
      : null,
  };
}

import type { tradeAuditDataSchema } from "@tp/domain/api";
import type { z } from "zod";
import type { Queryable } from "../db/database.ts";
import type { PriceStore } from "../prices/price-store.ts";
import { auditSecondOf, ticksAround, ticksAroundIn } from "../prices/ticks-around.ts";
import { storedAuditWindow, type TradeRow, tradeView } from "./trades.ts";

/**
 * One trade with its audit (GET /trades/{id}, and each trade of the data export): the ticks
 * around entry and around expiry. Settled trades are audited from the ticks stored at
 * settlement (per trade before migration 006, per symbol and second since); open ones are
 * read live.
 */
export async function tradeAudit(
  queryable: Queryable,
  store: PriceStore,
  trade: TradeRow,
): Promise<z.infer<typeof tradeAuditDataSchema>> {
  const toView = (ticks: Array<{ price: number; at: number }>) =>
    ticks.map((tick) => ({ price: tick.price, at: new Date(tick.at).toISOString() }));
  const frozen = trade.audit_ticks;
  const window = async (centerMs: number) => {
    const stored = await storedAuditWindow(queryable, trade.asset, auditSecondOf(centerMs));
    if (stored) return toView(ticksAroundIn(stored, centerMs));
    return toView(await ticksAround(store, queryable, trade.asset, centerMs));
  };
  return {
    trade: tradeView(trade),
    audit: {
      entry_ticks: frozen ? toView(frozen.entry) : await window(trade.entry_at.getTime()),
      exit_ticks: frozen ? toView(frozen.exit) : await window(trade.expires_at.getTime()),
      settlement_lag_ms: trade.settlement_lag_ms,
      note: trade.settlement_note,
      refund_reason: trade.refund_reason,
    },
  };
}

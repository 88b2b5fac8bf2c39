import type { Queryable } from "../db/database.ts";
import type { Tick } from "../feeds/tick.ts";
import { ticksBetweenFromDatabase } from "./price-history.ts";
import type { PriceStore } from "./price-store.ts";

/** Ticks kept in a trade's audit on each side of its entry and of its expiry. */
export const audit_window_ms = 5_000;
export const audit_ticks_max = 40;

/**
 * The ticks within `audit_window_ms` of an instant: from memory when it reaches back to the
 * instant (the live case), otherwise from the recorded history (after a restart).
 */
export async function ticksAround(
  store: PriceStore,
  queryable: Queryable,
  symbol: string,
  centerMs: number,
): Promise<Tick[]> {
  const from = centerMs - audit_window_ms;
  const to = centerMs + audit_window_ms;
  if (store.covers(symbol, centerMs)) return store.between(symbol, from, to, audit_ticks_max);
  return ticksBetweenFromDatabase(queryable, symbol, new Date(from), new Date(to), audit_ticks_max);
}

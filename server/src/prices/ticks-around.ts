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

/** A tick as an audit stores it. */
export interface AuditTick {
  price: number;
  at: number;
}

/** Audit windows are stored per (symbol, second): see migration 006. */
export const audit_window_second_ms = 1_000;
/** A second's window spans 11 s: 4 ticks/s fill 44, with room for a burst. */
const audit_window_ticks_max = 64;

/** The start of the second that holds an instant. */
export function auditSecondOf(atMs: number): number {
  return Math.floor(atMs / audit_window_second_ms) * audit_window_second_ms;
}

/**
 * The ticks around every instant of the second starting at `secondMs`: those within
 * `audit_window_ms` of its start or its end. From memory when it reaches back to the
 * window's start and may be trusted (`includeRecorded` false: memory showed the feed live);
 * otherwise the recorded history fills in what memory no longer (or not
 * yet, after a restart) holds, and memory adds what the recorder has not written yet.
 */
export async function auditWindowTicks(
  store: PriceStore,
  queryable: Queryable,
  symbol: string,
  secondMs: number,
  options: { includeRecorded?: boolean } = {},
): Promise<Tick[]> {
  const from = secondMs - audit_window_ms;
  const to = secondMs + audit_window_second_ms + audit_window_ms;
  const remembered = store.between(symbol, from, to, audit_window_ticks_max);
  if (store.covers(symbol, from) && !options.includeRecorded) return remembered;
  const recorded = await ticksBetweenFromDatabase(
    queryable,
    symbol,
    new Date(from),
    new Date(to),
    audit_window_ticks_max,
  );
  const byTime = new Map<number, Tick>();
  for (const tick of [...recorded, ...remembered]) byTime.set(tick.at, tick);
  return [...byTime.values()].sort((a, b) => a.at - b.at).slice(0, audit_window_ticks_max);
}

/** From a second's window, the ticks within `audit_window_ms` of one instant in it. */
export function ticksAroundIn<T extends { at: number }>(window: T[], centerMs: number): T[] {
  return window
    .filter((tick) => Math.abs(tick.at - centerMs) <= audit_window_ms)
    .slice(0, audit_ticks_max);
}

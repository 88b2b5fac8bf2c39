import type { FeedSource, Tick } from "../feeds/tick.ts";

/**
 * The last hour and more of the platform's ticks per symbol, in memory: the price a trade
 * is placed at, the price in force at its expiry while the process is live, and the ticks
 * around them for the audit. Every process keeps one: the process ingesting a feed records
 * its ticks directly, the others from the event bus.
 *
 * Each symbol has a ring of fixed capacity (typed arrays, no per-tick objects), so memory is
 * bounded whatever the feed does: 40 symbols × 20,000 ticks × 16 bytes ≈ 13 MB.
 */
export const ticks_per_symbol_max = 20_000;

class TickRing {
  readonly times = new Float64Array(ticks_per_symbol_max);
  readonly prices = new Float64Array(ticks_per_symbol_max);
  /** Index of the next write; the ring holds min(count, capacity) ticks ending before it. */
  next = 0;
  count = 0;
  source: FeedSource = "simulated";

  push(at: number, price: number, source: FeedSource) {
    this.times[this.next] = at;
    this.prices[this.next] = price;
    this.next = (this.next + 1) % ticks_per_symbol_max;
    this.count = Math.min(this.count + 1, ticks_per_symbol_max);
    this.source = source;
  }

  /** The i-th tick from oldest (0) to newest (size - 1). */
  index(i: number) {
    return (this.next - this.count + i + ticks_per_symbol_max) % ticks_per_symbol_max;
  }

  timeAt(i: number) {
    return this.times[this.index(i)]!;
  }

  /** The position (0 … count) of the first tick with time > atMs: O(log n). */
  firstAfter(atMs: number) {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.timeAt(middle) <= atMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

export class PriceStore {
  readonly #rings = new Map<string, TickRing>();
  /** Ticks recorded since start, by feed: the metrics' ticks per second of each feed. */
  readonly #recordedBySource = new Map<FeedSource, number>();

  /**
   * Records a tick; one not newer than the symbol's newest is ignored (out of order, or the
   * bus bringing back a tick the ingesting process already recorded itself).
   */
  record(tick: Tick): boolean {
    let ring = this.#rings.get(tick.symbol);
    if (!ring) {
      ring = new TickRing();
      this.#rings.set(tick.symbol, ring);
    }
    if (ring.count > 0 && tick.at <= ring.times[ring.index(ring.count - 1)]!) return false;
    ring.push(tick.at, tick.price, tick.source);
    this.#recordedBySource.set(tick.source, (this.#recordedBySource.get(tick.source) ?? 0) + 1);
    return true;
  }

  /** Ticks recorded since start, by feed (a tick ignored as not newer is not counted). */
  recordedBySource(): ReadonlyMap<FeedSource, number> {
    return this.#recordedBySource;
  }

  last(symbol: string): Tick | undefined {
    const ring = this.#rings.get(symbol);
    if (!ring || ring.count === 0) return undefined;
    const index = ring.index(ring.count - 1);
    return { symbol, price: ring.prices[index]!, at: ring.times[index]!, source: ring.source };
  }

  /**
   * The tick in force at `atMs` (the last at or before it), or undefined when memory cannot
   * tell: no tick yet, or the ring no longer reaches back that far.
   */
  inForceAt(symbol: string, atMs: number): Tick | undefined {
    const ring = this.#rings.get(symbol);
    if (!ring || ring.count === 0) return undefined;
    const position = ring.firstAfter(atMs) - 1;
    if (position < 0) return undefined;
    const index = ring.index(position);
    return { symbol, price: ring.prices[index]!, at: ring.times[index]!, source: ring.source };
  }

  /** The first tick after `atMs`, or undefined when memory holds none (yet). */
  firstAfter(symbol: string, atMs: number): Tick | undefined {
    const ring = this.#rings.get(symbol);
    if (!ring) return undefined;
    const position = ring.firstAfter(atMs);
    if (position >= ring.count) return undefined;
    const index = ring.index(position);
    return { symbol, price: ring.prices[index]!, at: ring.times[index]!, source: ring.source };
  }

  /** Whether memory holds a tick after `atMs` (so the tick in force at it is final). */
  hasTickAfter(symbol: string, atMs: number): boolean {
    const last = this.last(symbol);
    return last !== undefined && last.at > atMs;
  }

  /** Whether memory reaches back to `atMs` for this symbol. */
  covers(symbol: string, atMs: number): boolean {
    const ring = this.#rings.get(symbol);
    return ring !== undefined && ring.count > 0 && ring.times[ring.index(0)]! <= atMs;
  }

  /** Ticks with fromMs <= at <= toMs, oldest first, at most `limit`. */
  between(symbol: string, fromMs: number, toMs: number, limit = 200): Tick[] {
    const ring = this.#rings.get(symbol);
    const result: Tick[] = [];
    if (!ring) return result;
    // Start at the first tick at or after fromMs, found by binary search, not a scan.
    for (let i = ring.firstAfter(fromMs - 1e-6); i < ring.count && result.length < limit; i++) {
      const index = ring.index(i);
      const at = ring.times[index]!;
      if (at > toMs) break;
      result.push({ symbol, price: ring.prices[index]!, at, source: ring.source });
    }
    return result;
  }
}

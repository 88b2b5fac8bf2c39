/** The newest price the page knows for one asset, from a stream tick or a polled market row. */
export interface LivePrice {
  price: number;
  /** Epoch milliseconds of the observation (the feed's time, not the page's). */
  atMs: number;
  /** "simulated", "binance", "finnhub"; null when the reply did not say. */
  source: string | null;
}

type Listener = () => void;
type PriceListener = (price: LivePrice) => void;

/**
 * Views re-render at most this often however fast ticks arrive (the server sends up to four
 * a second per asset, for a few dozen assets): a person reads no faster, and a burst of
 * renders would make typing in the trade form stutter.
 */
export const price_render_interval_ms = 250;

/**
 * Latest price per symbol. Two kinds of listener: per-symbol ones are told of every newer
 * price at once (the chart draws each tick), batched ones are told at most every
 * price_render_interval_ms (React views, through useSyncExternalStore and `version`).
 */
export class LivePrices {
  readonly #prices = new Map<string, LivePrice>();
  readonly #symbolListeners = new Map<string, Set<PriceListener>>();
  readonly #batchListeners = new Set<Listener>();
  #version = 0;
  #flushTimer: ReturnType<typeof setTimeout> | null = null;

  /** Keeps `price` when it is newer than what is known; returns whether it was kept. */
  update(symbol: string, price: LivePrice): boolean {
    const known = this.#prices.get(symbol);
    if (known !== undefined && known.atMs > price.atMs) return false;
    if (known !== undefined && known.atMs === price.atMs && known.price === price.price) {
      return false;
    }
    this.#prices.set(symbol, price);
    for (const listener of this.#symbolListeners.get(symbol) ?? []) listener(price);
    this.#scheduleFlush();
    return true;
  }

  get(symbol: string): LivePrice | undefined {
    return this.#prices.get(symbol);
  }

  /** Changes on every batched notification: the snapshot useSyncExternalStore compares. */
  version(): number {
    return this.#version;
  }

  onSymbol(symbol: string, listener: PriceListener): () => void {
    let listeners = this.#symbolListeners.get(symbol);
    if (!listeners) {
      listeners = new Set();
      this.#symbolListeners.set(symbol, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#symbolListeners.delete(symbol);
    };
  }

  subscribe(listener: Listener): () => void {
    this.#batchListeners.add(listener);
    return () => this.#batchListeners.delete(listener);
  }

  dispose(): void {
    if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    this.#batchListeners.clear();
    this.#symbolListeners.clear();
  }

  #scheduleFlush(): void {
    if (this.#flushTimer !== null) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      this.#version += 1;
      for (const listener of [...this.#batchListeners]) listener();
    }, price_render_interval_ms);
  }
}

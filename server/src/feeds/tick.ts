/**
 * A price observation. Every feed is an async source of these; the price store, the
 * candles, settlement and the stream all speak it.
 */
export type FeedSource = "simulated" | "binance" | "finnhub";

export interface Tick {
  /** Catalogue symbol (domain/src/catalogue.ts), e.g. "EURUSD", "BTCUSDT". */
  symbol: string;
  /** Rounded to the asset's precision (roundPrice), so equal prices compare equal. */
  price: number;
  /** Epoch milliseconds of the observation (the provider's trade time when it gives one). */
  at: number;
  source: FeedSource;
}

export interface Feed {
  readonly source: FeedSource;
  /** Catalogue symbols this feed produces. */
  readonly symbols: readonly string[];
  /** Ticks until `signal` aborts; reconnects by itself; never throws for a bad message. */
  ticks(signal: AbortSignal): AsyncIterable<Tick>;
}

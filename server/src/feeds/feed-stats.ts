import type { Feed, FeedSource } from "./tick.ts";

/** Counters a feed keeps since it was created, for health checks and tests. */
export interface FeedStats {
  /** Connections that opened. */
  connects: number;
  /** Connection attempts after the first (each follows a lost or failed connection). */
  reconnects: number;
  /** Text or binary messages received (WebSocket ping frames are not counted). */
  messages: number;
  /** Ticks produced. */
  ticks: number;
  /** Messages, or trade entries within one, dropped as malformed. */
  malformed: number;
  /** Ticks discarded (oldest first) because the consumer fell behind. */
  dropped: number;
  /** Error messages the provider sent. */
  providerErrors: number;
  /** Connections dropped because nothing arrived for too long. */
  idleTimeouts: number;
}

export function emptyFeedStats(): FeedStats {
  return {
    connects: 0,
    reconnects: 0,
    messages: 0,
    ticks: 0,
    malformed: 0,
    dropped: 0,
    providerErrors: 0,
    idleTimeouts: 0,
  };
}

/**
 * A span in which a feed's line was down: no tick of these symbols was received between
 * `fromMs` (the last tick before the line dropped, or when the feed started if it never
 * had one) and `toMs` (when the line came back), both on the platform's clock. The
 * minutes in it are missing from the candle tables unless the provider's history fills
 * them (issue 11: backfill after every gap).
 */
export interface FeedGap {
  source: FeedSource;
  symbols: readonly string[];
  fromMs: number;
  toMs: number;
}

export type FeedGapListener = (gap: FeedGap) => void;

/** A Feed that also reports its counters (every feed createFeeds returns is one). */
export interface ObservableFeed extends Feed {
  stats(): FeedStats;
  /**
   * Calls `listener` once each time the feed's line comes back after being down (a
   * reconnect), with the span it missed. Returns the function that removes the listener.
   */
  onGap(listener: FeedGapListener): () => void;
}

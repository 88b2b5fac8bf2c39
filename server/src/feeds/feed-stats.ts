import type { Feed } from "./tick.ts";

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

/** A Feed that also reports its counters (every feed createFeeds returns is one). */
export interface ObservableFeed extends Feed {
  stats(): FeedStats;
}

import { createContext, useContext, useEffect, useSyncExternalStore } from "react";
import type { LivePrice, LivePrices } from "./live-prices.ts";
import type { LiveStream, StreamStatus } from "./live-stream.ts";
import type { ResyncSignal } from "./resync-signal.ts";
import type { SettlementAnnouncer } from "./settlement-announcer.ts";

export interface StreamState {
  /** Null until the provider's effect has started it (the first render of the shell). */
  stream: LiveStream | null;
  prices: LivePrices;
  announcer: SettlementAnnouncer;
  /** Moves when live events may have been missed: read again what the stream keeps fresh. */
  resync: ResyncSignal;
}

export const StreamContext = createContext<StreamState | null>(null);

export function useStream(): StreamState {
  const state = useContext(StreamContext);
  if (state === null) throw new Error("useStream must be used within a StreamProvider");
  return state;
}

const noStatus = () => () => {};

export function useStreamStatus(): StreamStatus {
  const { stream } = useStream();
  return useSyncExternalStore(
    stream ? (listener) => stream.onStatus(listener) : noStatus,
    () => stream?.status ?? "connecting",
  );
}

/**
 * A number that changes each time the page may have missed live events (the socket came
 * back after a drop, or the server asked for a refetch): use it as an effect dependency to
 * fetch again what was missed, e.g. the chart's candles since its newest.
 */
export function useStreamResync(): number {
  const { resync } = useStream();
  return useSyncExternalStore(
    (listener) => resync.subscribe(listener),
    () => resync.epoch(),
  );
}

/** True while events arrive live; false means the page polls (SPEC §7 fallback). */
export function useIsLive(): boolean {
  return useStreamStatus() === "live";
}

/** Asks the stream for ticks of `symbols` while the calling component is mounted. */
export function useSymbolSubscription(symbols: readonly string[]): void {
  const { stream } = useStream();
  // One string as the dependency: a new array with the same symbols changes nothing.
  const key = [...new Set(symbols)].sort().join(",");
  useEffect(() => {
    if (!stream || key === "") return;
    return stream.subscribe(key.split(","));
  }, [stream, key]);
}

/**
 * Subscribes to `symbols` and returns a reader of their newest prices; the caller re-renders
 * when prices change, at most every price_render_interval_ms.
 */
export function useLivePrices(
  symbols: readonly string[],
): (symbol: string) => LivePrice | undefined {
  const { prices } = useStream();
  useSymbolSubscription(symbols);
  useSyncExternalStore(
    (listener) => prices.subscribe(listener),
    () => prices.version(),
  );
  return (symbol) => prices.get(symbol);
}

import type { Tick } from "../feeds/tick.ts";
import type { ClientWriter } from "./client-writer.ts";
import type { StreamCounters, Subscription } from "./stream-client.ts";
import { client_ticks_per_second_max, rate_window_ms, tick_jitter_ms } from "./stream-limits.ts";
import { textFrame } from "./text-frame.ts";

export interface TickFanOut {
  /** Sends a tick to the symbol's subscribers, each within its rate limit. */
  deliverTick(tick: Tick): void;
  /** Forgets a subscription's held tick (it is going away, or a newer tick went out). */
  unhold(sub: Subscription): void;
  stop(): void;
}

/**
 * Tick fan-out with the per-subscription rate limit: at most `client_ticks_per_second_max`
 * sends in any `rate_window_ms`. A tick is serialised and framed once; each subscriber
 * (found through the symbol's subscriber list, never by scanning all clients) costs a
 * rate-limit check and an array push. An early tick is held for its slot, the newest
 * replacing any older one; one timer for the hub releases the held ticks.
 */
export function createTickFanOut(options: {
  /** The registry's subscribers by symbol (read only here). */
  bySymbol: ReadonlyMap<string, Subscription[]>;
  writer: ClientWriter;
  counters: StreamCounters;
}): TickFanOut {
  const { bySymbol, writer, counters } = options;
  const { queueFrame } = writer;

  function recordSend(sub: Subscription, at: number, nowMs: number) {
    sub.sentWall[sub.next] = nowMs;
    sub.sentAt[sub.next] = at;
    sub.next = (sub.next + 1) % client_ticks_per_second_max;
    counters.ticksSent += 1;
  }

  /** Held ticks: one timer for the hub, set for the earliest slot. */
  const held = new Set<Subscription>();
  let releaseTimer: NodeJS.Timeout | null = null;
  let releaseTimerAtMs = Number.POSITIVE_INFINITY;

  function armRelease(atMs: number) {
    if (releaseTimer && releaseTimerAtMs <= atMs) return;
    if (releaseTimer) clearTimeout(releaseTimer);
    releaseTimerAtMs = atMs;
    releaseTimer = setTimeout(releaseHeld, Math.max(1, atMs - Date.now()));
    releaseTimer.unref();
  }

  function releaseHeld() {
    releaseTimer = null;
    releaseTimerAtMs = Number.POSITIVE_INFINITY;
    const nowMs = Date.now();
    let nextMs = Number.POSITIVE_INFINITY;
    for (const sub of held) {
      if (nowMs >= sub.releaseAtMs) {
        recordSend(sub, sub.heldAt, nowMs);
        queueFrame(sub.client, sub.held!);
        sub.held = null;
        held.delete(sub);
      } else if (sub.releaseAtMs < nextMs) nextMs = sub.releaseAtMs;
    }
    if (nextMs !== Number.POSITIVE_INFINITY) armRelease(nextMs);
  }

  function unhold(sub: Subscription) {
    if (sub.held === null) return;
    sub.held = null;
    held.delete(sub);
  }

  function deliverTick(tick: Tick) {
    const subs = bySymbol.get(tick.symbol);
    if (!subs || subs.length === 0) return;
    const frame = textFrame(
      JSON.stringify({
        type: "tick",
        symbol: tick.symbol,
        price: tick.price,
        at: new Date(tick.at).toISOString(),
        source: tick.source,
      }),
    );
    const at = tick.at;
    const nowMs = Date.now();
    for (let index = 0; index < subs.length; index++) {
      const sub = subs[index]!;
      // At most 4 sends in any second: the slot opens a second after the 4th-last send.
      const oldestWall = sub.sentWall[sub.next]!;
      const slotMs = oldestWall + rate_window_ms;
      const onTime =
        nowMs >= slotMs ||
        (nowMs >= slotMs - tick_jitter_ms && at - sub.sentAt[sub.next]! >= rate_window_ms);
      if (onTime) {
        if (sub.held !== null) unhold(sub);
        recordSend(sub, at, nowMs);
        queueFrame(sub.client, frame);
        continue;
      }
      // Coalesce: the newest tick replaces any older one waiting for the slot.
      if (sub.held !== null) counters.ticksCoalesced += 1;
      else {
        counters.ticksHeld += 1;
        held.add(sub);
      }
      sub.held = frame;
      sub.heldAt = at;
      sub.releaseAtMs = slotMs;
      armRelease(slotMs);
    }
  }

  return {
    deliverTick,
    unhold,
    stop() {
      if (releaseTimer) clearTimeout(releaseTimer);
    },
  };
}

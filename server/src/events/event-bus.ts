import { createHash } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import type { Tick } from "../feeds/tick.ts";

/**
 * Events that cross the platform: ticks for every socket, and a trader's own trade,
 * balance and notification changes. Published after the transaction that caused them commits, never before.
 */
export type PlatformEvent =
  | { type: "tick"; tick: Tick }
  | { type: "trade"; userId: number; trade: unknown }
  | { type: "balance"; userId: number; account_balance: number; practice_balance: number }
  // A new notification (its API view) and the trader's unread count after it
  // (notifications/notification-delivery.ts).
  | { type: "notification"; userId: number; notification: unknown; unread_count: number }
  // The unread count changed without a new notification (marked read).
  | { type: "notification_count"; userId: number; unread_count: number }
  // These sessions of the user were revoked (sign-out, password change, staff): every
  // process closes their sockets at once (stream/stream-hub.ts, issue 12 item 5).
  | { type: "sessions_revoked"; userId: number; sessionIds: number[] };

export type EventListener = (event: PlatformEvent) => void;

export interface EventBus {
  readonly kind: "memory" | "redis";
  /** When this process lost the bus (epoch ms), or null while connected. */
  downSinceMs(): number | null;
  /**
   * Called when this process loses the bus (`down`) and when it is back (`up`): while it is
   * down, events of other processes (ticks above all) do not arrive here.
   */
  onConnection(listener: (state: "up" | "down") => void): () => void;
  publish(event: PlatformEvent): void;
  subscribe(listener: EventListener): () => void;
  close(): Promise<void>;
}

class Listeners {
  readonly #listeners = new Set<EventListener>();
  constructor(private readonly log: FastifyBaseLogger) {}
  add(listener: EventListener) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
  deliver(event: PlatformEvent) {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // One faulty listener must not starve the others.
        this.log.error({ err: error }, "event listener failed");
      }
    }
  }
}

/** One process: events go straight to this process's listeners. */
export function createMemoryEventBus(log: FastifyBaseLogger): EventBus {
  const listeners = new Listeners(log);
  return {
    kind: "memory",
    downSinceMs: () => null,
    onConnection: () => () => {},
    publish: (event) => queueMicrotask(() => listeners.deliver(event)),
    subscribe: (listener) => listeners.add(listener),
    close: async () => {},
  };
}

/**
 * The channel of one platform: processes on the same database share it, so two platforms
 * (or two test runs) on one Redis never hear each other.
 */
export function eventChannelFor(databaseUrl: string | undefined): string {
  return `tp:events:${createHash("sha256")
    .update(databaseUrl ?? "embedded")
    .digest("hex")
    .slice(0, 16)}`;
}

/**
 * Several processes: every event goes through Redis pub/sub and comes back to every
 * process (this one included), so each process's sockets see all of them exactly once.
 *
 * While Redis is unreachable the bus is down: publishing fails at once (no offline queue,
 * so no burst of stale events when it returns), the outage is logged once when it starts
 * and once when it ends, and listeners of `onConnection` hear both moments (the price store
 * then treats every price as stale; the stream asks every socket to refetch afterwards).
 */
export async function createRedisEventBus(
  url: string,
  channel: string,
  log: FastifyBaseLogger,
  clock: { now(): Date } = { now: () => new Date() },
): Promise<EventBus> {
  const listeners = new Listeners(log);
  const connectionListeners = new Set<(state: "up" | "down") => void>();
  const options = {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: false,
    // Reconnect quickly: every second of outage pauses trading on this process.
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 1_000),
  };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  let downSinceMs: number | null = null;
  let lastError: string | null = null;
  const ready = { publisher: false, subscriber: false };
  let closing = false;
  // Transitions count once both connections were up the first time (start is not an outage).
  let started = false;

  function update() {
    if (closing || !started) return;
    const up = ready.publisher && ready.subscriber;
    if (!up && downSinceMs === null) {
      downSinceMs = clock.now().getTime();
      log.error(
        { url: redactedUrl(url), reason: lastError },
        "event bus down: Redis is unreachable; trading on this process pauses until it is back",
      );
      for (const listener of connectionListeners) listener("down");
    } else if (up && downSinceMs !== null) {
      const outageMs = clock.now().getTime() - downSinceMs;
      downSinceMs = null;
      lastError = null;
      log.info({ outage_ms: outageMs }, "event bus back: Redis reachable again");
      for (const listener of connectionListeners) listener("up");
    }
  }
  for (const [name, connection] of [
    ["publisher", publisher],
    ["subscriber", subscriber],
  ] as const) {
    // One line per outage (update), not one per failed reconnect or publish.
    connection.on("error", (error: Error) => {
      lastError = error.message;
    });
    connection.on("ready", () => {
      ready[name] = true;
      update();
    });
    connection.on("close", () => {
      if (!ready[name]) return;
      ready[name] = false;
      update();
    });
  }
  await publisher.connect();
  await subscriber.connect();
  await subscriber.subscribe(channel);
  started = true;
  update();
  subscriber.on("message", (_channel: string, message: string) => {
    let event: PlatformEvent;
    try {
      event = JSON.parse(message) as PlatformEvent;
    } catch {
      log.warn("dropped a malformed event from redis");
      return;
    }
    listeners.deliver(event);
  });
  return {
    kind: "redis",
    downSinceMs: () => downSinceMs,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => void connectionListeners.delete(listener);
    },
    publish(event) {
      // While down the event is lost for other processes (their prices are stale meanwhile
      // and their sockets refetch afterwards); the outage itself is logged once.
      if (downSinceMs !== null) return;
      publisher.publish(channel, JSON.stringify(event)).catch((error: unknown) => {
        lastError = error instanceof Error ? error.message : String(error);
      });
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {
      closing = true;
      connectionListeners.clear();
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}

/** A Redis URL without its password, for logs. */
function redactedUrl(url: string): string {
  if (!URL.canParse(url)) return "redis";
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

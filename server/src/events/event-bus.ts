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
  | { type: "notification_count"; userId: number; unread_count: number };

export type EventListener = (event: PlatformEvent) => void;

export interface EventBus {
  readonly kind: "memory" | "redis";
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
 */
export async function createRedisEventBus(
  url: string,
  channel: string,
  log: FastifyBaseLogger,
): Promise<EventBus> {
  const listeners = new Listeners(log);
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  for (const connection of [publisher, subscriber]) {
    connection.on("error", (error) => log.warn({ err: error }, "redis connection error"));
  }
  await publisher.connect();
  await subscriber.connect();
  await subscriber.subscribe(channel);
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
    publish(event) {
      publisher.publish(channel, JSON.stringify(event)).catch((error: unknown) => {
        log.error({ err: error }, "could not publish an event to redis");
      });
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}

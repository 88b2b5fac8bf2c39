import type { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import { findSession } from "../auth/sessions.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { EventBus, PlatformEvent } from "../events/event-bus.ts";
import { handleClientMessage } from "./client-messages.ts";
import { createClientWriter } from "./client-writer.ts";
import { type Client, newClient, type StreamCounters, ws_open } from "./stream-client.ts";
import { client_queued_messages_max, heartbeat_interval_ms } from "./stream-limits.ts";
import { createSubscriptionRegistry } from "./subscription-registry.ts";
import { textFrame } from "./text-frame.ts";
import { createTickFanOut } from "./tick-fan-out.ts";

export interface StreamHub {
  accept(socket: WebSocket): void;
  clientCount(): number;
  /** Counters since start: ticks sent at once, held for their slot, replaced while held. */
  stats(): StreamCounters;
  stop(): void;
}

/**
 * The live socket (PRODUCT.md D10): ticks to anyone subscribed, and to a signed-in trader
 * only their own trade, balance and notification events. Its pieces: the subscription
 * registry (who listens to what), the tick fan-out (rate limit per subscription), the
 * per-client writer (one write per client per event-loop turn) and the client messages
 * (auth handshake, subscribe). This function wires them to the bus and the sockets, and
 * keeps each socket alive (and signed in) with a heartbeat.
 */
export function startStreamHub(options: {
  database: Database;
  clock: Clock;
  bus: EventBus;
  log: FastifyBaseLogger;
}): StreamHub {
  const { database, clock, bus, log } = options;
  const counters: StreamCounters = {
    ticksSent: 0,
    ticksHeld: 0,
    ticksCoalesced: 0,
    clientsDropped: 0,
  };
  const writer = createClientWriter({ log, counters });
  const registry = createSubscriptionRegistry({ release: (sub) => ticks.unhold(sub) });
  const ticks = createTickFanOut({ bySymbol: registry.bySymbol, writer, counters });
  const { clients, byUser } = registry;

  function deliverToUser(userId: number, message: unknown) {
    const targets = byUser.get(userId);
    if (!targets) return;
    const frame = textFrame(JSON.stringify(message));
    for (const client of targets) {
      if (client.socket.readyState === ws_open) writer.queueFrame(client, frame);
    }
  }

  const unsubscribeBus = bus.subscribe((event: PlatformEvent) => {
    if (event.type === "tick") ticks.deliverTick(event.tick);
    else if (event.type === "trade")
      deliverToUser(event.userId, { type: "trade", trade: event.trade });
    else if (event.type === "balance") {
      deliverToUser(event.userId, {
        type: "balance",
        account_balance: event.account_balance,
        practice_balance: event.practice_balance,
      });
    } else if (event.type === "notification") {
      deliverToUser(event.userId, {
        type: "notification",
        notification: event.notification,
        unread_count: event.unread_count,
      });
    } else if (event.type === "notification_count") {
      deliverToUser(event.userId, { type: "notification_count", unread_count: event.unread_count });
    }
  });

  const heartbeat = setInterval(() => {
    const now = clock.now();
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
      // A signed-in socket lives only as long as its session: a revoked token loses it.
      if (client.token) {
        const token = client.token;
        findSession(database, token, now)
          .then((session) => {
            if (!session && client.token === token) client.socket.close(4401, "session ended");
          })
          .catch(() => {});
      }
    }
  }, heartbeat_interval_ms);
  heartbeat.unref();

  const messages = { database, clock, registry, writer };

  return {
    accept(socket) {
      const raw = (socket as unknown as { _socket?: Writable })._socket;
      if (!raw) {
        socket.terminate();
        return;
      }
      const client: Client = newClient(socket, raw);
      clients.add(client);
      socket.on("pong", () => {
        client.alive = true;
      });
      socket.on("message", (data, isBinary) => {
        if (isBinary) {
          writer.sendJson(client, { type: "error", message: "Messages must be text" });
          return;
        }
        if (client.queued >= client_queued_messages_max) {
          socket.close(1008, "too many messages");
          return;
        }
        const text = data.toString();
        client.queued += 1;
        client.queue = client.queue
          .then(() => handleClientMessage(messages, client, text))
          .catch((error: unknown) => log.warn({ err: error }, "stream message failed"))
          .finally(() => {
            client.queued -= 1;
          });
      });
      socket.on("close", () => registry.remove(client));
      socket.on("error", () => registry.remove(client));
    },
    clientCount: () => clients.size,
    stats: () => ({ ...counters }),
    stop() {
      ticks.stop();
      clearInterval(heartbeat);
      unsubscribeBus();
      for (const client of clients) client.socket.close(1001, "server shutting down");
    },
  };
}

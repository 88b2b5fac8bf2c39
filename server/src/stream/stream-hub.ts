import type { Writable } from "node:stream";
import type { MarketState } from "@tp/domain/market-state";
import { stream_close_service_restart } from "@tp/domain/stream-close-codes";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import { findSession, type SessionLifetimes } from "../auth/sessions.ts";
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

/**
 * After stop() told every socket to reconnect elsewhere, one that has not finished the close
 * handshake by then is cut: the process's shutdown waits for its connections to end.
 */
export const stop_close_grace_ms = 1_000;

/** How often each asset's state is compared with the last one sent. */
export const market_state_watch_ms = 500;

/** `{ type: "market_state" }`: an asset opened, closed or halted (domain/src/market-state.ts). */
export interface MarketStateMessage {
  type: "market_state";
  symbol: string;
  state: MarketState;
  next_open_at: string | null;
}

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
  sessionLifetimes: SessionLifetimes;
  /** Every asset's state on this process now (prices/market-status.ts), watched for changes. */
  marketStates?: () => MarketStateMessage[];
}): StreamHub {
  const { database, clock, bus, log, sessionLifetimes } = options;
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
    } else if (event.type === "sessions_revoked") {
      closeRevokedSessions(event.userId, event.sessionIds);
    }
  });

  // A revoked session loses its sockets now, on every process (the event comes through the
  // bus), rather than at the next heartbeat's session check.
  function closeRevokedSessions(userId: number, sessionIds: number[]) {
    const targets = byUser.get(userId);
    if (!targets) return;
    const revoked = new Set(sessionIds);
    for (const client of [...targets]) {
      if (client.sessionId === null || !revoked.has(client.sessionId)) continue;
      // No private event reaches it from now on, even before the close handshake ends.
      registry.unindexUser(userId, client);
      client.userId = null;
      client.token = null;
      client.sessionId = null;
      client.socket.close(4401, "session ended");
    }
  }

  function broadcast(message: unknown) {
    const frame = textFrame(JSON.stringify(message));
    for (const client of clients) {
      if (client.socket.readyState === ws_open) writer.queueFrame(client, frame);
    }
  }

  // After this process lost the bus, its sockets missed events (trades, balances, ticks):
  // each is told to read again what it shows (issue 11, item 5).
  const unsubscribeConnection = bus.onConnection((state) => {
    if (state === "up") broadcast({ type: "refetch" });
  });

  // Each asset's state (open, closed, halted) is pushed when it changes on this process.
  const lastStates = new Map<string, string>();
  const stateWatch = setInterval(() => {
    if (!options.marketStates) return;
    for (const message of options.marketStates()) {
      const key = `${message.state}@${message.next_open_at}`;
      if (lastStates.get(message.symbol) === key) continue;
      const known = lastStates.has(message.symbol);
      lastStates.set(message.symbol, key);
      if (known) broadcast(message);
    }
  }, market_state_watch_ms);
  stateWatch.unref();

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
        findSession(database, token, now, sessionLifetimes)
          .then((session) => {
            if (!session && client.token === token) client.socket.close(4401, "session ended");
          })
          .catch(() => {});
      }
    }
  }, heartbeat_interval_ms);
  heartbeat.unref();

  const messages = { database, clock, sessionLifetimes, registry, writer };
  let stopped = false;

  return {
    accept(socket) {
      // Draining: a socket that still reached this process goes elsewhere at once.
      if (stopped) {
        socket.close(stream_close_service_restart, "service restart");
        return;
      }
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
      clearInterval(stateWatch);
      unsubscribeConnection();
      unsubscribeBus();
      stopped = true;
      // 1012 "service restart", not 1001 "going away": the platform is still up, so the
      // page reconnects at once (through the load balancer, to a process that is ready).
      const closing = [...clients];
      for (const client of closing) {
        client.socket.close(stream_close_service_restart, "service restart");
      }
      if (closing.length > 0) {
        setTimeout(() => {
          for (const client of closing) client.socket.terminate();
        }, stop_close_grace_ms).unref();
      }
    },
  };
}

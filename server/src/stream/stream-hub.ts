import type { Socket } from "node:net";
import { findAsset } from "@tp/domain/catalogue";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import { findSession } from "../auth/sessions.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { EventBus, PlatformEvent } from "../events/event-bus.ts";
import type { Tick } from "../feeds/tick.ts";

/** At most this many ticks per second per symbol reach one client. */
export const client_ticks_per_second_max = 4;
const tick_slot_ms = 1000 / client_ticks_per_second_max;
/** A client that has this much unsent data is too slow to keep: it is dropped. */
export const client_send_buffer_bytes_max = 1024 * 1024;
export const client_message_bytes_max = 4096;
export const client_symbols_max = 50;
export const heartbeat_interval_ms = 30_000;
/** A client with this many unhandled messages is flooding: it is closed. */
export const client_queued_messages_max = 100;

interface Client {
  socket: WebSocket;
  userId: number | null;
  token: string | null;
  symbols: Set<string>;
  /**
   * Per symbol: when the last ticks went out (the newest `client_ticks_per_second_max`), and
   * the newest tick waiting for a free slot.
   */
  sentMs: Map<string, number[]>;
  pending: Map<string, string>;
  alive: boolean;
  /** Messages are handled one after another, so replies keep the order of requests. */
  queue: Promise<void>;
  queued: number;
}

/** The TCP socket under a ws WebSocket (ws keeps it as `_socket`), for cork/uncork. */
function rawSocketOf(client: { socket: WebSocket }): Socket | undefined {
  return (client.socket as unknown as { _socket?: Socket })._socket;
}

export interface StreamHub {
  accept(socket: WebSocket): void;
  clientCount(): number;
  stop(): void;
}

/**
 * The live socket (PRODUCT.md D10): ticks to anyone subscribed, and to a signed-in trader
 * only their own trade and balance events. Each client is indexed by symbol and by user so
 * an event costs only the clients it concerns; a message is serialised once for all of them.
 */
export function startStreamHub(options: {
  database: Database;
  clock: Clock;
  bus: EventBus;
  log: FastifyBaseLogger;
}): StreamHub {
  const { database, clock, bus, log } = options;
  const clients = new Set<Client>();
  const bySymbol = new Map<string, Set<Client>>();
  const byUser = new Map<number, Set<Client>>();

  /**
   * The feed delivers a batch of ticks (many symbols) in one event-loop turn; the writes of
   * that turn to one client are corked into a single system call instead of one each.
   */
  const corked = new Set<Client>();
  function uncorkAll() {
    for (const client of corked) rawSocketOf(client)?.uncork();
    corked.clear();
  }

  function send(client: Client, message: string) {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > client_send_buffer_bytes_max) {
      log.info({ userId: client.userId }, "dropping a slow stream client");
      client.socket.terminate();
      return;
    }
    if (!corked.has(client)) {
      const raw = rawSocketOf(client);
      if (raw) {
        if (corked.size === 0) setImmediate(uncorkAll);
        raw.cork();
        corked.add(client);
      }
    }
    client.socket.send(message);
  }

  function sendJson(client: Client, message: unknown) {
    send(client, JSON.stringify(message));
  }

  function index<K>(map: Map<K, Set<Client>>, key: K, client: Client) {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    set.add(client);
  }

  function unindex<K>(map: Map<K, Set<Client>>, key: K, client: Client) {
    const set = map.get(key);
    set?.delete(client);
    if (set?.size === 0) map.delete(key);
  }

  function remove(client: Client) {
    clients.delete(client);
    for (const symbol of client.symbols) unindex(bySymbol, symbol, client);
    if (client.userId !== null) unindex(byUser, client.userId, client);
  }

  /**
   * At most `client_ticks_per_second_max` ticks per symbol in any one-second window: a tick
   * may go out when the oldest of the last four went out a second or more ago. A sliding
   * window, not a fixed 250 ms gap, so ticks arriving a little early (timer jitter) are not
   * held back for a whole slot.
   */
  function trySend(client: Client, symbol: string, message: string, nowMs: number): boolean {
    let sent = client.sentMs.get(symbol);
    if (!sent) {
      sent = [];
      client.sentMs.set(symbol, sent);
    }
    if (sent.length >= client_ticks_per_second_max && nowMs - sent[0]! < 1000) return false;
    if (sent.length >= client_ticks_per_second_max) sent.shift();
    sent.push(nowMs);
    send(client, message);
    return true;
  }

  function deliverTick(tick: Tick) {
    const subscribers = bySymbol.get(tick.symbol);
    if (!subscribers) return;
    const message = JSON.stringify({
      type: "tick",
      symbol: tick.symbol,
      price: tick.price,
      at: new Date(tick.at).toISOString(),
      source: tick.source,
    });
    const nowMs = Date.now();
    for (const client of subscribers) {
      if (trySend(client, tick.symbol, message, nowMs)) client.pending.delete(tick.symbol);
      // Coalesce: the newest tick replaces any older one waiting for a slot.
      else client.pending.set(tick.symbol, message);
    }
  }

  function flushPending() {
    const nowMs = Date.now();
    for (const client of clients) {
      if (client.pending.size === 0) continue;
      for (const [symbol, message] of client.pending) {
        if (trySend(client, symbol, message, nowMs)) client.pending.delete(symbol);
      }
    }
  }

  function deliverToUser(userId: number, message: unknown) {
    const targets = byUser.get(userId);
    if (!targets) return;
    const text = JSON.stringify(message);
    for (const client of targets) send(client, text);
  }

  const unsubscribe = bus.subscribe((event: PlatformEvent) => {
    if (event.type === "tick") deliverTick(event.tick);
    else if (event.type === "trade")
      deliverToUser(event.userId, { type: "trade", trade: event.trade });
    else if (event.type === "balance") {
      deliverToUser(event.userId, {
        type: "balance",
        account_balance: event.account_balance,
        practice_balance: event.practice_balance,
      });
    }
  });

  const flushTimer = setInterval(flushPending, tick_slot_ms / 2);
  flushTimer.unref();

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

  async function handle(client: Client, raw: string) {
    let message: { type?: unknown; token?: unknown; symbols?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      sendJson(client, { type: "error", message: "Messages must be JSON" });
      return;
    }
    if (typeof message !== "object" || message === null) {
      sendJson(client, { type: "error", message: "Messages must be JSON objects" });
      return;
    }
    switch (message.type) {
      case "ping":
        sendJson(client, { type: "pong" });
        return;
      case "auth": {
        const token = typeof message.token === "string" ? message.token : "";
        const session = await findSession(database, token, clock.now());
        if (!session) {
          sendJson(client, { type: "error", message: "Invalid or expired token" });
          return;
        }
        if (client.userId !== null) unindex(byUser, client.userId, client);
        client.userId = session.userId;
        client.token = token;
        index(byUser, session.userId, client);
        sendJson(client, { type: "auth", status: "ok" });
        return;
      }
      case "subscribe":
      case "unsubscribe": {
        const symbols = Array.isArray(message.symbols) ? message.symbols : null;
        if (
          !symbols ||
          symbols.some((symbol) => typeof symbol !== "string" || !findAsset(symbol))
        ) {
          sendJson(client, {
            type: "error",
            message: "symbols must be a list of catalogue symbols",
          });
          return;
        }
        for (const symbol of symbols as string[]) {
          if (message.type === "subscribe") {
            if (client.symbols.size >= client_symbols_max && !client.symbols.has(symbol)) break;
            client.symbols.add(symbol);
            index(bySymbol, symbol, client);
          } else {
            client.symbols.delete(symbol);
            unindex(bySymbol, symbol, client);
            client.pending.delete(symbol);
          }
        }
        sendJson(client, { type: "subscribed", symbols: [...client.symbols] });
        return;
      }
      default:
        sendJson(client, { type: "error", message: "Unknown message type" });
    }
  }

  return {
    accept(socket) {
      const client: Client = {
        socket,
        userId: null,
        token: null,
        symbols: new Set(),
        sentMs: new Map(),
        pending: new Map(),
        alive: true,
        queue: Promise.resolve(),
        queued: 0,
      };
      clients.add(client);
      socket.on("pong", () => {
        client.alive = true;
      });
      socket.on("message", (data, isBinary) => {
        if (isBinary) {
          sendJson(client, { type: "error", message: "Messages must be text" });
          return;
        }
        if (client.queued >= client_queued_messages_max) {
          socket.close(1008, "too many messages");
          return;
        }
        const raw = data.toString();
        client.queued += 1;
        client.queue = client.queue
          .then(() => handle(client, raw))
          .catch((error: unknown) => log.warn({ err: error }, "stream message failed"))
          .finally(() => {
            client.queued -= 1;
          });
      });
      socket.on("close", () => remove(client));
      socket.on("error", () => remove(client));
    },
    clientCount: () => clients.size,
    stop() {
      clearInterval(flushTimer);
      clearInterval(heartbeat);
      unsubscribe();
      for (const client of clients) client.socket.close(1001, "server shutting down");
    },
  };
}

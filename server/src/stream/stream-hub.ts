import type { Writable } from "node:stream";
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
const rate_window_ms = 1000;
/**
 * Delivery jitter forgiven: a tick that arrives up to this much before its one-second slot
 * opens still goes out at once, provided its own `at` is a full second after the tick sent
 * four before it (so the source really is at ≤ 4/s and only delivery wobbled). Any other
 * early tick waits, and goes out exactly when its slot opens.
 */
export const tick_jitter_ms = 50;
/** A client that has this much unsent data is too slow to keep: it is dropped. */
export const client_send_buffer_bytes_max = 1024 * 1024;
export const client_message_bytes_max = 4096;
export const client_symbols_max = 50;
export const heartbeat_interval_ms = 30_000;
/** A client with this many unhandled messages is flooding: it is closed. */
export const client_queued_messages_max = 100;

const ws_open = 1;
const never = () =>
  Array.from({ length: client_ticks_per_second_max }, () => Number.NEGATIVE_INFINITY);

/**
 * One unmasked WebSocket text frame (FIN set, opcode 1), as a server sends it (RFC 6455
 * §5.2). Server frames carry no mask, so the same bytes serve every recipient: a tick is
 * serialised and framed once, however many sockets it goes to.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(text, header, "utf8");
  return frame;
}

interface Client {
  socket: WebSocket;
  /** The TCP socket under the WebSocket (ws keeps it as `_socket`): frames are written to it. */
  raw: Writable;
  userId: number | null;
  token: string | null;
  subscriptions: Map<string, Subscription>;
  /** Frames queued in this event-loop turn, written in one call when it ends. */
  out: Buffer[];
  outBytes: number;
  alive: boolean;
  /** Messages are handled one after another, so replies keep the order of requests. */
  queue: Promise<void>;
  queued: number;
}

/** One client's subscription to one symbol, with its rate-limit state. */
interface Subscription {
  client: Client;
  symbol: string;
  /** Position in the symbol's subscriber list (swap-remove). */
  index: number;
  /**
   * Ring of the last `client_ticks_per_second_max` sends: wall time (ms) of each and the
   * tick's own `at`; `next` is the oldest, the one the next send replaces.
   */
  sentWall: number[];
  sentAt: number[];
  next: number;
  /** The newest tick waiting for its slot (coalesced: a newer tick replaces it). */
  held: Buffer | null;
  heldAt: number;
  releaseAtMs: number;
}

export interface StreamHub {
  accept(socket: WebSocket): void;
  clientCount(): number;
  /** Counters since start: ticks sent at once, held for their slot, replaced while held. */
  stats(): { ticksSent: number; ticksHeld: number; ticksCoalesced: number; clientsDropped: number };
  stop(): void;
}

/**
 * The live socket (PRODUCT.md D10): ticks to anyone subscribed, and to a signed-in trader
 * only their own trade, balance and notification events.
 *
 * Fan-out cost: a tick is serialised and framed once; each subscriber (found through the
 * symbol's subscriber list, never by scanning all clients) costs a rate-limit check and an
 * array push. All frames a client gets in one event-loop turn go out in a single write when
 * the turn ends, and consecutive clients with the same frames share one buffer.
 */
export function startStreamHub(options: {
  database: Database;
  clock: Clock;
  bus: EventBus;
  log: FastifyBaseLogger;
}): StreamHub {
  const { database, clock, bus, log } = options;
  const clients = new Set<Client>();
  const bySymbol = new Map<string, Subscription[]>();
  const byUser = new Map<number, Set<Client>>();
  const counters = { ticksSent: 0, ticksHeld: 0, ticksCoalesced: 0, clientsDropped: 0 };

  // --- writing ---------------------------------------------------------------------------

  /** Clients with frames queued in this turn, in the order they were first given one. */
  let dirty: Client[] = [];
  let flushScheduled = false;

  function queueFrame(client: Client, frame: Buffer) {
    if (client.out.length === 0) {
      dirty.push(client);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    }
    client.out.push(frame);
    client.outBytes += frame.length;
  }

  function sameFrames(a: Buffer[], b: Buffer[]) {
    if (a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
    return true;
  }

  function flush() {
    flushScheduled = false;
    const batch = dirty;
    dirty = [];
    let lastFrames: Buffer[] = [];
    let lastJoined: Buffer | null = null;
    for (const client of batch) {
      const frames = client.out;
      const bytes = client.outBytes;
      client.out = [];
      client.outBytes = 0;
      // A closing socket gets nothing more after its close frame.
      if (client.socket.readyState !== ws_open) continue;
      // Unsent bytes: what the TCP socket still buffers (ws's own `bufferedAmount`).
      if (client.raw.writableLength + bytes > client_send_buffer_bytes_max) {
        counters.clientsDropped += 1;
        log.info({ userId: client.userId }, "dropping a slow stream client");
        client.socket.terminate();
        continue;
      }
      let data: Buffer;
      if (frames.length === 1) data = frames[0]!;
      else if (lastJoined && sameFrames(frames, lastFrames)) data = lastJoined;
      else {
        data = Buffer.concat(frames, bytes);
        lastFrames = frames;
        lastJoined = data;
      }
      client.raw.write(data);
    }
  }

  function sendJson(client: Client, message: unknown) {
    if (client.socket.readyState !== ws_open) return;
    queueFrame(client, textFrame(JSON.stringify(message)));
  }

  // --- ticks -----------------------------------------------------------------------------

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

  function deliverToUser(userId: number, message: unknown) {
    const targets = byUser.get(userId);
    if (!targets) return;
    const frame = textFrame(JSON.stringify(message));
    for (const client of targets) {
      if (client.socket.readyState === ws_open) queueFrame(client, frame);
    }
  }

  // --- subscriptions ---------------------------------------------------------------------

  function subscribe(client: Client, symbol: string) {
    if (client.subscriptions.has(symbol)) return;
    let subs = bySymbol.get(symbol);
    if (!subs) {
      subs = [];
      bySymbol.set(symbol, subs);
    }
    const sub: Subscription = {
      client,
      symbol,
      index: subs.length,
      sentWall: never(),
      sentAt: never(),
      next: 0,
      held: null,
      heldAt: 0,
      releaseAtMs: 0,
    };
    subs.push(sub);
    client.subscriptions.set(symbol, sub);
  }

  function unsubscribe(client: Client, symbol: string) {
    const sub = client.subscriptions.get(symbol);
    if (!sub) return;
    client.subscriptions.delete(symbol);
    unhold(sub);
    const subs = bySymbol.get(symbol)!;
    const last = subs.pop()!;
    if (last !== sub) {
      subs[sub.index] = last;
      last.index = sub.index;
    }
    if (subs.length === 0) bySymbol.delete(symbol);
  }

  function indexUser(userId: number, client: Client) {
    let set = byUser.get(userId);
    if (!set) {
      set = new Set();
      byUser.set(userId, set);
    }
    set.add(client);
  }

  function unindexUser(userId: number, client: Client) {
    const set = byUser.get(userId);
    set?.delete(client);
    if (set?.size === 0) byUser.delete(userId);
  }

  function remove(client: Client) {
    if (!clients.delete(client)) return;
    for (const symbol of [...client.subscriptions.keys()]) unsubscribe(client, symbol);
    if (client.userId !== null) unindexUser(client.userId, client);
  }

  const unsubscribeBus = bus.subscribe((event: PlatformEvent) => {
    if (event.type === "tick") deliverTick(event.tick);
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
        if (!clients.has(client)) return; // closed while the session was looked up
        if (client.userId !== null) unindexUser(client.userId, client);
        client.userId = session.userId;
        client.token = token;
        indexUser(session.userId, client);
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
        if (!clients.has(client)) return;
        for (const symbol of symbols as string[]) {
          if (message.type === "subscribe") {
            if (
              client.subscriptions.size >= client_symbols_max &&
              !client.subscriptions.has(symbol)
            )
              break;
            subscribe(client, symbol);
          } else unsubscribe(client, symbol);
        }
        sendJson(client, { type: "subscribed", symbols: [...client.subscriptions.keys()] });
        return;
      }
      default:
        sendJson(client, { type: "error", message: "Unknown message type" });
    }
  }

  return {
    accept(socket) {
      const raw = (socket as unknown as { _socket?: Writable })._socket;
      if (!raw) {
        socket.terminate();
        return;
      }
      const client: Client = {
        socket,
        raw,
        userId: null,
        token: null,
        subscriptions: new Map(),
        out: [],
        outBytes: 0,
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
        const text = data.toString();
        client.queued += 1;
        client.queue = client.queue
          .then(() => handle(client, text))
          .catch((error: unknown) => log.warn({ err: error }, "stream message failed"))
          .finally(() => {
            client.queued -= 1;
          });
      });
      socket.on("close", () => remove(client));
      socket.on("error", () => remove(client));
    },
    clientCount: () => clients.size,
    stats: () => ({ ...counters }),
    stop() {
      if (releaseTimer) clearTimeout(releaseTimer);
      clearInterval(heartbeat);
      unsubscribeBus();
      for (const client of clients) client.socket.close(1001, "server shutting down");
    },
  };
}

import { type TradeView, tradeViewSchema } from "@tp/domain/api";
import {
  type NotificationView,
  notificationCountStreamMessageSchema,
  notificationStreamMessageSchema,
} from "@tp/domain/engagement";
import { type MarketState, marketStates } from "@tp/domain/market-state";
import { API_BASE_PATH } from "@tp/domain/paths";
import type { LivePrices } from "./live-prices.ts";

/**
 * The live socket of PRODUCT.md D10 (`/api/v1/stream`): ticks of the symbols the page shows,
 * and the trader's own trade and balance events. It reconnects by itself with backoff; while
 * it is not `live` the dashboard polls instead (SPEC §7).
 */
export type StreamStatus = "connecting" | "live" | "down";

export interface BalanceEvent {
  account_balance: number;
  practice_balance: number;
}

/**
 * The trader's unread count changed: with the new notification when one arrived, or alone
 * (`notification` null) when one was read elsewhere (domain/engagement.ts stream messages).
 */
export interface NotificationEvent {
  notification: NotificationView | null;
  unread_count: number;
}

/** An asset's state changed on the server (opened, closed, halted: domain/market-state.ts). */
export interface MarketStateEvent {
  symbol: string;
  state: MarketState;
  /** ISO time of the next opening when closed and known. */
  next_open_at: string | null;
}

function isMarketState(value: unknown): value is MarketState {
  return marketStates.some((state) => state === value);
}

/** What the transport tells the stream; the browser's WebSocket in the app, a fake in tests. */
export interface SocketHandlers {
  open(): void;
  message(text: string): void;
  close(code: number): void;
}

export interface StreamConnection {
  send(text: string): void;
  close(): void;
}

export type ConnectSocket = (url: string, handlers: SocketHandlers) => StreamConnection;

/** A socket that has not opened by then is given up and tried again. */
export const connect_timeout_ms = 10_000;
/** The client asks the server for a pong this often… */
export const ping_interval_ms = 25_000;
/** …and a socket that has said nothing at all for this long is treated as dead. */
export const silence_max_ms = 65_000;
/** Reconnect delays grow as min(1000·2^n, 30000) ms (SPEC §7's backoff), with jitter. */
export const reconnect_delay_min_ms = 1_000;
export const reconnect_delay_max_ms = 30_000;
/** The server keeps at most 50 symbols per socket (stream-hub client_symbols_max). */
export const stream_symbols_max = 50;

export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(reconnect_delay_min_ms * 2 ** attempt, reconnect_delay_max_ms);
  // Half fixed, half random: many pages dropped at once do not all come back together.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const browserSocket: ConnectSocket = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.open();
  socket.onmessage = (event) => {
    if (typeof event.data === "string") handlers.message(event.data);
  };
  socket.onclose = (event) => handlers.close(event.code);
  return {
    send: (text) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    close: () => {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      socket.close(1000, "closed by the page");
    },
  };
};

let connectSocket: ConnectSocket = browserSocket;

/** Tests hand in their own transport, as they do for the API client's fetch. */
export function configureStream(connect: ConnectSocket): void {
  connectSocket = connect;
}

export function resetStream(): void {
  connectSocket = browserSocket;
}

/** Same origin as the page, ws:// or wss:// by the page's protocol. */
export function streamUrl(location: Pick<Location, "protocol" | "host"> = window.location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${API_BASE_PATH}/stream`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Listener<T> = (value: T) => void;

export class LiveStream {
  readonly #url: string;
  readonly #token: string;
  readonly #prices: LivePrices;
  readonly #symbolCounts = new Map<string, number>();
  readonly #statusListeners = new Set<Listener<StreamStatus>>();
  readonly #tradeListeners = new Set<Listener<TradeView>>();
  readonly #balanceListeners = new Set<Listener<BalanceEvent>>();
  readonly #notificationListeners = new Set<Listener<NotificationEvent>>();
  readonly #marketStateListeners = new Set<Listener<MarketStateEvent>>();
  /** The server's event bus came back after an outage: events may have been lost. */
  readonly #refetchListeners = new Set<Listener<void>>();
  #status: StreamStatus = "connecting";
  #connection: StreamConnection | null = null;
  #isOpen = false;
  #stopped = true;
  #attempt = 0;
  #lastHeardMs = 0;
  #connectTimer: ReturnType<typeof setTimeout> | null = null;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #pingTimer: ReturnType<typeof setInterval> | null = null;
  /** Symbols whose (un)subscribe is waiting for the end of the current task, to go as one. */
  #pendingSync = false;
  #sentSymbols = new Set<string>();

  constructor(options: { url: string; token: string; prices: LivePrices }) {
    this.#url = options.url;
    this.#token = options.token;
    this.#prices = options.prices;
  }

  get status(): StreamStatus {
    return this.#status;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    window.addEventListener("online", this.#reconnectNow);
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    window.removeEventListener("online", this.#reconnectNow);
    this.#clearTimers();
    this.#connection?.close();
    this.#connection = null;
    this.#isOpen = false;
    this.#statusListeners.clear();
    this.#tradeListeners.clear();
    this.#balanceListeners.clear();
    this.#notificationListeners.clear();
    this.#marketStateListeners.clear();
    this.#refetchListeners.clear();
  }

  onStatus(listener: Listener<StreamStatus>): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  onTrade(listener: Listener<TradeView>): () => void {
    this.#tradeListeners.add(listener);
    return () => this.#tradeListeners.delete(listener);
  }

  onBalance(listener: Listener<BalanceEvent>): () => void {
    this.#balanceListeners.add(listener);
    return () => this.#balanceListeners.delete(listener);
  }

  onNotification(listener: Listener<NotificationEvent>): () => void {
    this.#notificationListeners.add(listener);
    return () => this.#notificationListeners.delete(listener);
  }

  onMarketState(listener: Listener<MarketStateEvent>): () => void {
    this.#marketStateListeners.add(listener);
    return () => this.#marketStateListeners.delete(listener);
  }

  onRefetch(listener: Listener<void>): () => void {
    this.#refetchListeners.add(listener);
    return () => this.#refetchListeners.delete(listener);
  }

  /** Asks for ticks of `symbols` until the returned function is called (counted per symbol). */
  subscribe(symbols: readonly string[]): () => void {
    const unique = [...new Set(symbols)];
    for (const symbol of unique) {
      this.#symbolCounts.set(symbol, (this.#symbolCounts.get(symbol) ?? 0) + 1);
    }
    this.#scheduleSync();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const symbol of unique) {
        const count = (this.#symbolCounts.get(symbol) ?? 1) - 1;
        if (count <= 0) this.#symbolCounts.delete(symbol);
        else this.#symbolCounts.set(symbol, count);
      }
      this.#scheduleSync();
    };
  }

  #setStatus(status: StreamStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    for (const listener of [...this.#statusListeners]) listener(status);
  }

  #connect(): void {
    if (this.#stopped) return;
    this.#isOpen = false;
    this.#sentSymbols = new Set();
    const connection = connectSocket(this.#url, {
      open: () => {
        if (this.#connection !== connection) return;
        this.#isOpen = true;
        this.#lastHeardMs = Date.now();
        if (this.#connectTimer !== null) clearTimeout(this.#connectTimer);
        this.#connectTimer = null;
        // The token goes in the first message, never in the URL (kept out of logs).
        connection.send(JSON.stringify({ type: "auth", token: this.#token }));
        this.#sync();
        this.#pingTimer = setInterval(() => this.#heartbeat(), ping_interval_ms);
      },
      message: (text) => {
        if (this.#connection !== connection) return;
        this.#lastHeardMs = Date.now();
        this.#handle(text);
      },
      close: () => {
        if (this.#connection !== connection) return;
        this.#dropped();
      },
    });
    this.#connection = connection;
    this.#connectTimer = setTimeout(() => {
      this.#connectTimer = null;
      if (!this.#isOpen) this.#dropped();
    }, connect_timeout_ms);
  }

  #heartbeat(): void {
    if (Date.now() - this.#lastHeardMs > silence_max_ms) {
      this.#dropped();
      return;
    }
    this.#connection?.send(JSON.stringify({ type: "ping" }));
  }

  /** The socket is gone (closed, failed, silent or never opened): try again after a while. */
  #dropped(): void {
    this.#clearTimers();
    const connection = this.#connection;
    this.#connection = null;
    this.#isOpen = false;
    connection?.close();
    if (this.#stopped) return;
    this.#setStatus("down");
    const delay = reconnectDelayMs(this.#attempt);
    this.#attempt += 1;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      this.#connect();
    }, delay);
  }

  readonly #reconnectNow = () => {
    if (this.#stopped || this.#isOpen) return;
    this.#clearTimers();
    this.#connection?.close();
    this.#connection = null;
    this.#connect();
  };

  #clearTimers(): void {
    if (this.#connectTimer !== null) clearTimeout(this.#connectTimer);
    if (this.#reconnectTimer !== null) clearTimeout(this.#reconnectTimer);
    if (this.#pingTimer !== null) clearInterval(this.#pingTimer);
    this.#connectTimer = null;
    this.#reconnectTimer = null;
    this.#pingTimer = null;
  }

  #scheduleSync(): void {
    if (this.#pendingSync) return;
    this.#pendingSync = true;
    queueMicrotask(() => {
      this.#pendingSync = false;
      this.#sync();
    });
  }

  /** Sends the difference between the symbols wanted and the symbols already asked for. */
  #sync(): void {
    if (!this.#isOpen || this.#connection === null) return;
    const wanted = [...this.#symbolCounts.keys()].slice(0, stream_symbols_max);
    const wantedSet = new Set(wanted);
    const added = wanted.filter((symbol) => !this.#sentSymbols.has(symbol));
    const removed = [...this.#sentSymbols].filter((symbol) => !wantedSet.has(symbol));
    if (removed.length > 0) {
      this.#connection.send(JSON.stringify({ type: "unsubscribe", symbols: removed }));
    }
    if (added.length > 0) {
      this.#connection.send(JSON.stringify({ type: "subscribe", symbols: added }));
    }
    this.#sentSymbols = wantedSet;
  }

  #handle(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!isRecord(message)) return;
    switch (message.type) {
      case "tick": {
        const { symbol, price, at, source } = message;
        if (typeof symbol !== "string" || typeof price !== "number" || typeof at !== "string") {
          return;
        }
        const atMs = Date.parse(at);
        if (!Number.isFinite(atMs)) return;
        this.#prices.update(symbol, {
          price,
          atMs,
          source: typeof source === "string" ? source : null,
        });
        return;
      }
      case "auth":
        if (message.status === "ok") {
          this.#attempt = 0;
          this.#setStatus("live");
        }
        return;
      case "trade": {
        const parsed = tradeViewSchema.safeParse(message.trade);
        if (!parsed.success) return;
        for (const listener of [...this.#tradeListeners]) listener(parsed.data);
        return;
      }
      case "balance": {
        const { account_balance, practice_balance } = message;
        if (typeof account_balance !== "number" || typeof practice_balance !== "number") return;
        for (const listener of [...this.#balanceListeners]) {
          listener({ account_balance, practice_balance });
        }
        return;
      }
      case "notification": {
        const parsed = notificationStreamMessageSchema.safeParse(message);
        if (!parsed.success) return;
        const { notification, unread_count } = parsed.data;
        for (const listener of [...this.#notificationListeners]) {
          listener({ notification, unread_count });
        }
        return;
      }
      case "notification_count": {
        const parsed = notificationCountStreamMessageSchema.safeParse(message);
        if (!parsed.success) return;
        for (const listener of [...this.#notificationListeners]) {
          listener({ notification: null, unread_count: parsed.data.unread_count });
        }
        return;
      }
      case "market_state": {
        const { symbol, state, next_open_at } = message;
        if (typeof symbol !== "string" || !isMarketState(state)) return;
        // A missing opening counts as unknown; anything else that is not a time is refused.
        if (next_open_at != null && typeof next_open_at !== "string") return;
        for (const listener of [...this.#marketStateListeners]) {
          listener({ symbol, state, next_open_at: next_open_at ?? null });
        }
        return;
      }
      case "refetch":
        for (const listener of [...this.#refetchListeners]) listener();
        return;
      case "error":
        // Refused before the auth answer: the token is not accepted. Ticks still flow, but
        // trades and balances do not, so the page polls for those (status not live).
        if (this.#status !== "live") this.#setStatus("down");
        return;
      default:
        // pong, subscribed: nothing to do.
        return;
    }
  }
}

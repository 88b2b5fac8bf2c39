import { act } from "@testing-library/react";
import type { TradeView } from "@tp/domain/api";
import { configureStream, type SocketHandlers } from "../src/stream/live-stream.ts";

/**
 * The live socket as the tests see it: a transport handed to the stream client
 * (configureStream, as fake-api.ts hands a fetch to the API client). It opens at once,
 * accepts the token, records what the page sends, and lets a test push server messages.
 */
export interface FakeSocket {
  url: string;
  sent: Array<Record<string, unknown>>;
  closed: boolean;
  /** Delivers a server message to the page (wrapped in act: it updates React state). */
  push(message: unknown): void;
  /**
   * The server side closes the socket (the page then reconnects with backoff), with 1006
   * (abnormal) unless the test names a code.
   */
  drop(code?: number): void;
  /** Sends the answer to the page's auth message, which `holdAuth` kept back. */
  answerAuth(): void;
}

export interface FakeStream {
  sockets: FakeSocket[];
  /** False: new sockets never open (the server is unreachable); true by default. */
  acceptConnections: boolean;
  /** The newest socket (the one the page uses now). */
  current(): FakeSocket;
  /** Symbols the page holds a subscription for on the current socket. */
  subscribed(): Set<string>;
  tick(symbol: string, price: number, at?: Date, source?: string): void;
  trade(trade: TradeView): void;
  balance(account_balance: number, practice_balance: number): void;
}

export function installFakeStream(
  options: { acceptAuth?: boolean; open?: boolean; holdAuth?: boolean } = {},
) {
  const acceptAuth = options.acceptAuth ?? true;
  // Held: the auth answer waits for answerAuth(), as when the server is slow to sign a
  // socket in while the page's first reads are already back.
  const holdAuth = options.holdAuth ?? false;
  const opens = options.open ?? true;
  const sockets: FakeSocket[] = [];
  let stream: FakeStream | null = null;
  configureStream((url: string, handlers: SocketHandlers) => {
    const accepted = stream?.acceptConnections ?? true;
    let heldAuthAnswer: (() => void) | null = null;
    const socket: FakeSocket = {
      url,
      sent: [],
      closed: false,
      answerAuth() {
        const answer = heldAuthAnswer;
        if (answer === null) throw new Error("the page has sent no auth message to answer");
        heldAuthAnswer = null;
        answer();
      },
      push(message) {
        if (socket.closed) return;
        act(() => handlers.message(JSON.stringify(message)));
      },
      drop(code = 1006) {
        if (socket.closed) return;
        socket.closed = true;
        act(() => handlers.close(code));
      },
    };
    sockets.push(socket);
    if (opens && accepted) {
      queueMicrotask(() => {
        if (!socket.closed) act(() => handlers.open());
      });
    }
    return {
      send(text: string) {
        if (socket.closed) return;
        const message = JSON.parse(text) as Record<string, unknown>;
        socket.sent.push(message);
        // Answers as the server does, after the current task.
        queueMicrotask(() => {
          if (socket.closed) return;
          if (message.type === "auth") {
            const reply = acceptAuth
              ? { type: "auth", status: "ok" }
              : { type: "error", message: "Invalid or expired token" };
            const answer = () => {
              if (!socket.closed) act(() => handlers.message(JSON.stringify(reply)));
            };
            if (holdAuth) heldAuthAnswer = answer;
            else answer();
          }
        });
      },
      close() {
        socket.closed = true;
      },
    };
  });

  stream = {
    sockets,
    acceptConnections: true,
    current() {
      const socket = sockets[sockets.length - 1];
      if (!socket) throw new Error("the page has opened no stream socket");
      return socket;
    },
    subscribed() {
      const symbols = new Set<string>();
      for (const message of this.current().sent) {
        const list = Array.isArray(message.symbols) ? (message.symbols as string[]) : [];
        for (const symbol of list) {
          if (message.type === "subscribe") symbols.add(symbol);
          if (message.type === "unsubscribe") symbols.delete(symbol);
        }
      }
      return symbols;
    },
    tick(symbol, price, at = new Date(), source = "simulated") {
      this.current().push({ type: "tick", symbol, price, at: at.toISOString(), source });
    },
    trade(trade) {
      this.current().push({ type: "trade", trade });
    },
    balance(account_balance, practice_balance) {
      this.current().push({ type: "balance", account_balance, practice_balance });
    },
  };
  return stream;
}

import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export interface FakeConnection {
  socket: WebSocket;
  /** Request path and query the client connected with, e.g. "/stream?streams=…". */
  path: string;
  /** Text messages the client sent. */
  received: string[];
  /** Resolves with the close code once the connection is closed. */
  closed: Promise<number>;
}

export interface FakeProviderOptions {
  /** HTTP status to refuse the n-th handshake attempt (0-based) with; undefined accepts. */
  refuse?: (attempt: number) => number | undefined;
}

/**
 * A provider's WebSocket endpoint on 127.0.0.1, driven by the test: it records what
 * clients send and lets the test replay recorded messages, close, or go silent.
 */
export class FakeProvider {
  readonly connections: FakeConnection[] = [];
  readonly #server: WebSocketServer;
  #waiters: Array<() => void> = [];
  attempts = 0;

  private constructor(server: WebSocketServer) {
    this.#server = server;
    server.on("connection", (socket, request) => {
      const received: string[] = [];
      socket.on("message", (data) => received.push(String(data)));
      const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
      this.connections.push({ socket, path: request.url ?? "", received, closed });
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  static async start(options: FakeProviderOptions = {}): Promise<FakeProvider> {
    let provider: FakeProvider | undefined;
    const server = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      verifyClient: (_info, callback) => {
        const attempt = provider ? provider.attempts++ : 0;
        const status = options.refuse?.(attempt);
        if (status === undefined) callback(true);
        else callback(false, status);
      },
    });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    provider = new FakeProvider(server);
    return provider;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `ws://127.0.0.1:${port}`;
  }

  /** The n-th connection (0-based), waiting for it to arrive. */
  async connection(index: number, timeoutMs = 3_000): Promise<FakeConnection> {
    const deadline = Date.now() + timeoutMs;
    while (this.connections.length <= index) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`no connection #${index} within ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.connections[index]!;
  }

  async close(): Promise<void> {
    for (const client of this.#server.clients) client.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

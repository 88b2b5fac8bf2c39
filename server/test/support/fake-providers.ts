import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the fake answers on one path. */
export type FakeBehaviour =
  /** A JSON body (a fixture or any value) with this status (default 200) and headers. */
  | { kind: "json"; body: unknown; status?: number; headers?: Record<string, string> }
  /** Raw text, for replies that are not JSON at all. */
  | {
      kind: "text";
      body: string;
      status?: number;
      contentType?: string;
      headers?: Record<string, string>;
    }
  /** Binary content (an image), sent byte for byte. */
  | { kind: "bytes"; body: Uint8Array; status?: number; contentType: string }
  /** Accept the request and never answer (the client's timeout must fire). */
  | { kind: "hang" }
  /** Cut the connection without an answer. */
  | { kind: "drop" };

export interface RecordedRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
}

const fixturesFolder = new URL("../fixtures/", import.meta.url);

/** A provider reply from server/test/fixtures, parsed. */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, fixturesFolder), "utf8"));
}

/**
 * The outside HTTP providers (blockchain.com, CoinMarketCap) on 127.0.0.1, driven by the
 * test: each path answers as told, every request is recorded, and the whole server can be
 * stopped (connection refused) and started again on the same port (recovery).
 */
export class FakeProviders {
  readonly requests: RecordedRequest[] = [];
  readonly #behaviours = new Map<string, (request: RecordedRequest) => FakeBehaviour>();
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  #port = 0;

  static async start(): Promise<FakeProviders> {
    const fake = new FakeProviders();
    await fake.#listen(0);
    return fake;
  }

  /** http://127.0.0.1:<port><path> */
  url(path: string): string {
    return `http://127.0.0.1:${this.#port}${path}`;
  }

  /** Answer `path` with `behaviour`, or with what `choose` returns for each request. */
  on(path: string, behaviour: FakeBehaviour | ((request: RecordedRequest) => FakeBehaviour)) {
    this.#behaviours.set(path, typeof behaviour === "function" ? behaviour : () => behaviour);
  }

  /** Requests received on `path`. */
  hits(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  reset(): void {
    this.requests.length = 0;
    this.#behaviours.clear();
  }

  /** Stop listening: new connections are refused until `resume`. */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listen again on the same port. */
  async resume(): Promise<void> {
    if (!this.#server) await this.#listen(this.#port);
  }

  async close(): Promise<void> {
    await this.stop();
  }

  async #listen(port: number): Promise<void> {
    const server = createServer((request, response) => this.#answer(request, response));
    server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.#server = server;
    this.#port = (server.address() as AddressInfo).port;
  }

  #answer(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const recorded: RecordedRequest = {
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
    };
    this.requests.push(recorded);
    const choose = this.#behaviours.get(url.pathname);
    const behaviour: FakeBehaviour = choose
      ? choose(recorded)
      : { kind: "text", status: 404, body: "not found" };
    switch (behaviour.kind) {
      case "json":
        response.writeHead(behaviour.status ?? 200, {
          ...behaviour.headers,
          "content-type": "application/json",
        });
        response.end(JSON.stringify(behaviour.body));
        return;
      case "text":
        response.writeHead(behaviour.status ?? 200, {
          ...behaviour.headers,
          "content-type": behaviour.contentType ?? "text/plain",
        });
        response.end(behaviour.body);
        return;
      case "bytes":
        response.writeHead(behaviour.status ?? 200, { "content-type": behaviour.contentType });
        response.end(behaviour.body);
        return;
      case "hang":
        return;
      case "drop":
        request.socket.destroy();
        return;
    }
  }
}

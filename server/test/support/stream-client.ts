import WebSocket from "ws";

/** A real WebSocket client of /api/v1/stream that keeps every message it receives. */
export class StreamClient {
  readonly messages: Array<Record<string, unknown>> = [];
  readonly socket: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number }>;

  constructor(baseUrl: string, headers: Record<string, string> = {}) {
    this.socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/v1/stream`, { headers });
    this.socket.on("message", (data) => this.messages.push(JSON.parse(data.toString())));
    this.opened = new Promise((resolve, reject) => {
      this.socket.once("open", () => resolve());
      this.socket.once("unexpected-response", (_request, response) =>
        reject(new Error(`upgrade refused: ${response.statusCode}`)),
      );
      this.socket.once("error", reject);
    });
    this.closed = new Promise((resolve) => this.socket.once("close", (code) => resolve({ code })));
  }

  send(message: unknown) {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  of(type: string) {
    return this.messages.filter((message) => message.type === type);
  }

  /** Waits (bounded) until a message matching `predicate` has arrived. */
  async waitFor(predicate: (message: Record<string, unknown>) => boolean, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching stream message; got ${JSON.stringify(this.messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close() {
    this.socket.close();
  }
}

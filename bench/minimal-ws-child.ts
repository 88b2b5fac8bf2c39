// The stream bench's reference: a minimal server on the `ws` package, in a process of its own
// like the platform (started by bench/lib/child.ts), fed by the same tick loop
// (bench/lib/tick-loop.ts). It does what ws's own README shows for a broadcast, and nothing
// the platform does besides: no HTTP framework, no sign-in, no rate limit per subscription,
// no heartbeat, no slow-client guard. Each tick is serialised once to the very bytes the
// platform sends ({"type":"tick","symbol",...}) and `send` to every socket subscribed to its
// symbol; ws frames it per socket and writes it at once (one write per socket per tick).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { WebSocket, WebSocketServer } from "ws";
import { serveParentCalls } from "./lib/child-ipc.ts";
import { eventLoopDelayMs } from "./lib/stats.ts";
import { tickLoopControl } from "./lib/tick-loop.ts";

const lifetime_ms_max = 9 * 60_000;
/** The platform's limit on a client message (stream-limits.ts), kept the same here. */
const client_message_bytes_max = 4096;

const http = createServer();
const server = new WebSocketServer({
  server: http,
  path: "/api/v1/stream",
  maxPayload: client_message_bytes_max,
});
const subscribersBySymbol = new Map<string, Set<WebSocket>>();

server.on("connection", (socket) => {
  const symbols = new Set<string>();
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as { type?: string; symbols?: string[] };
    if (message.type !== "subscribe" || !Array.isArray(message.symbols)) return;
    for (const symbol of message.symbols) {
      symbols.add(symbol);
      let subscribers = subscribersBySymbol.get(symbol);
      if (!subscribers) {
        subscribers = new Set();
        subscribersBySymbol.set(symbol, subscribers);
      }
      subscribers.add(socket);
    }
    socket.send(JSON.stringify({ type: "subscribed", symbols: [...symbols] }));
  });
  socket.on("close", () => {
    for (const symbol of symbols) subscribersBySymbol.get(symbol)?.delete(socket);
  });
});

function broadcastTick(symbol: string, price: number, atMs: number) {
  const subscribers = subscribersBySymbol.get(symbol);
  if (!subscribers) return;
  const payload = Buffer.from(
    JSON.stringify({
      type: "tick",
      symbol,
      price,
      at: new Date(atMs).toISOString(),
      source: "simulated",
    }),
  );
  for (const socket of subscribers) {
    if (socket.readyState === WebSocket.OPEN) socket.send(payload, { binary: false });
  }
}

await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

const eventLoopDelay = monitorEventLoopDelay({ resolution: 10 });
eventLoopDelay.enable();
const ticks = tickLoopControl(broadcastTick);

const api = {
  async info() {
    return { baseUrl, pid: process.pid };
  },
  async startTicks(params: { symbols: string[]; intervalMs: number; durationMs: number }) {
    ticks.start(params);
    return {};
  },
  async stopTicks() {
    return ticks.stop();
  },
  async serverStats(params: { gc?: boolean }) {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (params.gc && collect) collect();
    const delay = eventLoopDelayMs(eventLoopDelay);
    eventLoopDelay.reset();
    return {
      clients: server.clients.size,
      // No rate limit and no slow-client guard here: the platform's counters' shape, all 0.
      stream: { ticksSent: 0, ticksHeld: 0, ticksCoalesced: 0, clientsDropped: 0 },
      memory: process.memoryUsage(),
      eventLoopDelayMs: delay,
    };
  },
  async close() {
    ticks.halt();
    for (const socket of server.clients) socket.terminate();
    server.close();
    http.close();
    return {};
  },
};

export type MinimalWsApi = typeof api;

const lifetime = setTimeout(() => process.exit(3), lifetime_ms_max);
lifetime.unref();
process.on("disconnect", () => process.exit(2));
serveParentCalls(api);

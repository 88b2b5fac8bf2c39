import type { FastifyBaseLogger } from "fastify";
import { type Client, type StreamCounters, ws_open } from "./stream-client.ts";
import { client_send_buffer_bytes_max } from "./stream-limits.ts";
import { textFrame } from "./text-frame.ts";

export interface ClientWriter {
  /** Queues a frame for the client; all of a turn's frames go out in one write when it ends. */
  queueFrame(client: Client, frame: Buffer): void;
  /** Frames and queues one message, unless the socket is closing. */
  sendJson(client: Client, message: unknown): void;
}

/**
 * The per-client writer: frames queued in one event-loop turn are written in a single call
 * when the turn ends, consecutive clients with the same frames share one joined buffer, and
 * a client whose socket still buffers more than `client_send_buffer_bytes_max` is dropped.
 */
export function createClientWriter(options: {
  log: FastifyBaseLogger;
  counters: StreamCounters;
}): ClientWriter {
  const { log, counters } = options;
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

  return { queueFrame, sendJson };
}

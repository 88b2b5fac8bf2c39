import type { Writable } from "node:stream";
import type { WebSocket } from "ws";
import { client_ticks_per_second_max } from "./stream-limits.ts";

/** ws's WebSocket.OPEN. */
export const ws_open = 1;

/** One connected socket and everything the hub keeps about it. */
export interface Client {
  socket: WebSocket;
  /** The TCP socket under the WebSocket (ws keeps it as `_socket`): frames are written to it. */
  raw: Writable;
  userId: number | null;
  token: string | null;
  /** The session the socket signed in with: its revocation closes the socket. */
  sessionId: number | null;
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
export interface Subscription {
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

/** Counters since start: ticks sent at once, held for their slot, replaced while held. */
export interface StreamCounters {
  ticksSent: number;
  ticksHeld: number;
  ticksCoalesced: number;
  clientsDropped: number;
}

/** A ring of sends that never happened: the first `client_ticks_per_second_max` go at once. */
export const never = () =>
  Array.from({ length: client_ticks_per_second_max }, () => Number.NEGATIVE_INFINITY);

export function newClient(socket: WebSocket, raw: Writable): Client {
  return {
    socket,
    raw,
    userId: null,
    token: null,
    sessionId: null,
    subscriptions: new Map(),
    out: [],
    outBytes: 0,
    alive: true,
    queue: Promise.resolve(),
    queued: 0,
  };
}

import type { FastifyBaseLogger } from "fastify";
import WebSocket from "ws";
import type { Clock } from "../clock.ts";
import { BoundedQueue } from "./bounded-queue.ts";
import { emptyFeedStats, type FeedGapListener, type FeedStats } from "./feed-stats.ts";
import { RateLimitedWarnings } from "./rate-limited-warnings.ts";
import { type Sleep, timerSleep } from "./sleep.ts";
import type { FeedSource, Tick } from "./tick.ts";

/** The limits of one provider connection. Tests shrink them; production uses the defaults. */
export interface SocketLimits {
  /** Backoff ceiling after the first failure doubles from here (full jitter below it). */
  reconnect_delay_ms_base: number;
  reconnect_delay_ms_max: number;
  /** No frame (message or ping) for this long: the connection is dead, reconnect. */
  idle_timeout_ms: number;
  /** A connection open this long counts as healthy (backoff resets) even without ticks. */
  healthy_connection_ms: number;
  /** Ticks buffered for a slow consumer before the oldest are dropped. */
  queue_ticks_max: number;
  warnings_per_minute_max: number;
  /** Largest frame accepted; a bigger one closes the connection (ws enforces it). */
  message_bytes_max: number;
  /** How long a clean close may take on abort before the socket is destroyed. */
  close_handshake_ms_max: number;
}

export const defaultSocketLimits: SocketLimits = {
  reconnect_delay_ms_base: 1_000,
  // Binance allows 300 connection attempts per 5 minutes per IP; 30 s keeps us far below.
  reconnect_delay_ms_max: 30_000,
  // Binance pings every 20 s and trades flow constantly; a minute of silence is a dead line.
  idle_timeout_ms: 60_000,
  healthy_connection_ms: 30_000,
  queue_ticks_max: 10_000,
  warnings_per_minute_max: 10,
  message_bytes_max: 1_048_576,
  close_handshake_ms_max: 1_000,
};

/** Characters of a bad message quoted in the log: enough to see it, not enough to flood. */
const logged_message_chars_max = 200;
/** Keeps 2^failures finite; the ceiling is capped by reconnect_delay_ms_max long before. */
const backoff_exponent_max = 30;

/** When the current run of a connection last delivered a tick (the platform's clock). */
interface LineState {
  lastTickAtMs: number;
}

/** What one frame of a provider's protocol means to us. */
export interface DecodedMessage {
  ticks: Tick[];
  /** One reason per malformed message or trade entry dropped. */
  rejected: string[];
  /** An error the provider reported in-band (logged and counted, not a tick). */
  providerError?: string;
}

/** What differs between providers: where to connect, what to say, how to read. */
export interface SocketProtocol {
  source: FeedSource;
  /** Catalogue symbols the connection carries (named in the gap it reports on reconnect). */
  symbols: readonly string[];
  url: string;
  /** The URL as it may appear in logs: without credentials. */
  loggedUrl: string;
  /** Strings that must never reach the log (API keys); replaced wherever they'd appear. */
  secrets: readonly string[];
  /** Sent once after every (re)connection, e.g. subscriptions. */
  openingMessages: readonly string[];
  decode(text: string): DecodedMessage;
}

export interface SocketFeedOptions {
  logger: FastifyBaseLogger;
  clock: Clock;
  limits?: Partial<SocketLimits>;
  /** Injected in tests to record backoff delays instead of waiting. */
  sleep?: Sleep;
  /** Jitter source, [0, 1). */
  random?: () => number;
}

/**
 * Exponential backoff with full jitter (uniform below a doubling ceiling), so many
 * processes reconnecting after an outage spread out instead of arriving together.
 * `failures` counts unhealthy connections in a row; 0 after a healthy one.
 */
export function reconnectDelayMs(
  failures: number,
  limits: Pick<SocketLimits, "reconnect_delay_ms_base" | "reconnect_delay_ms_max">,
  random: () => number,
): number {
  const exponent = Math.min(failures, backoff_exponent_max);
  const ceiling = Math.min(
    limits.reconnect_delay_ms_max,
    limits.reconnect_delay_ms_base * 2 ** exponent,
  );
  return Math.floor(random() * ceiling);
}

/**
 * A provider WebSocket that stays connected: reconnects with backoff, drops and counts
 * malformed messages, treats silence as death, and hands ticks to one consumer through a
 * bounded queue. Each `ticks()` call runs its own connection; counters are shared.
 */
export class ReconnectingSocket {
  readonly #protocol: SocketProtocol;
  readonly #limits: SocketLimits;
  readonly #logger: FastifyBaseLogger;
  readonly #warnings: RateLimitedWarnings;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #stats = emptyFeedStats();
  readonly #gapListeners = new Set<FeedGapListener>();

  constructor(protocol: SocketProtocol, options: SocketFeedOptions) {
    this.#protocol = protocol;
    this.#limits = { ...defaultSocketLimits, ...options.limits };
    this.#logger = options.logger.child({ feed: protocol.source });
    this.#clock = options.clock;
    this.#warnings = new RateLimitedWarnings(
      this.#logger,
      options.clock,
      this.#limits.warnings_per_minute_max,
    );
    this.#sleep = options.sleep ?? timerSleep;
    this.#random = options.random ?? Math.random;
  }

  stats(): FeedStats {
    return { ...this.#stats };
  }

  /** See ObservableFeed.onGap: called when a connection opens after the line was down. */
  onGap(listener: FeedGapListener): () => void {
    this.#gapListeners.add(listener);
    return () => this.#gapListeners.delete(listener);
  }

  async *ticks(signal: AbortSignal): AsyncGenerator<Tick> {
    if (signal.aborted) return;
    // Our own controller also stops the connection when the consumer breaks out early.
    const stop = new AbortController();
    const forwardAbort = () => stop.abort();
    signal.addEventListener("abort", forwardAbort, { once: true });
    const queue = new BoundedQueue<Tick>(this.#limits.queue_ticks_max, () => {
      this.#stats.dropped += 1;
      this.#warnings.warn(
        { url: this.#protocol.loggedUrl, dropped: this.#stats.dropped },
        "feed consumer fell behind; dropped the oldest tick",
      );
    });
    stop.signal.addEventListener("abort", () => queue.close(), { once: true });
    let failure: unknown;
    const running = this.#run(stop.signal, queue).catch((error: unknown) => {
      failure = error;
      queue.close();
    });
    try {
      for (;;) {
        const tick = await queue.next();
        if (tick === undefined) break;
        yield tick;
      }
    } finally {
      signal.removeEventListener("abort", forwardAbort);
      stop.abort();
      await running;
    }
    // A bug in our own code, not a provider problem: surface it loudly.
    if (failure !== undefined) throw failure;
  }

  async #run(signal: AbortSignal, queue: BoundedQueue<Tick>): Promise<void> {
    let failures = 0;
    // The history backfill at start covers up to about now; a gap runs from here until
    // the line first delivers, then from each last tick received before it drops.
    const line: LineState = { lastTickAtMs: this.#clock.now().getTime() };
    for (let attempt = 0; !signal.aborted; attempt += 1) {
      if (attempt > 0) this.#stats.reconnects += 1;
      const healthy = await this.#connectOnce(signal, queue, line, attempt > 0);
      if (signal.aborted) return;
      failures = healthy ? 0 : failures + 1;
      const delayMs = reconnectDelayMs(failures, this.#limits, this.#random);
      this.#logger.info(
        { url: this.#protocol.loggedUrl, delayMs, failures },
        "feed connection lost; reconnecting",
      );
      await this.#sleep(delayMs, signal);
    }
  }

  /** One connection, start to close; resolves whether it was healthy. Never rejects. */
  #connectOnce(
    signal: AbortSignal,
    queue: BoundedQueue<Tick>,
    line: LineState,
    afterDown: boolean,
  ): Promise<boolean> {
    const { loggedUrl: url } = this.#protocol;
    const limits = this.#limits;
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve(false);
        return;
      }
      let socket: WebSocket;
      try {
        socket = new WebSocket(this.#protocol.url, {
          maxPayload: limits.message_bytes_max,
          handshakeTimeout: limits.idle_timeout_ms,
        });
      } catch (error) {
        // ws quotes the whole URL (with the key) when it can't parse it.
        this.#warnings.warn({ url, error: this.#redact(String(error)) }, "feed connection failed");
        resolve(false);
        return;
      }
      let openedAt: number | undefined;
      let producedTick = false;
      let idleTimer: NodeJS.Timeout | undefined;
      let closeTimer: NodeJS.Timeout | undefined;

      const onIdle = () => {
        this.#stats.idleTimeouts += 1;
        this.#warnings.warn(
          { url, idleTimeoutMs: limits.idle_timeout_ms },
          "feed connection silent too long; treating it as dead",
        );
        socket.terminate();
      };
      const armIdleTimer = () => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(onIdle, limits.idle_timeout_ms);
      };
      const onAbort = () => {
        clearTimeout(idleTimer);
        socket.close(1000, "client stopping");
        closeTimer = setTimeout(() => socket.terminate(), limits.close_handshake_ms_max);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      armIdleTimer();

      socket.on("open", () => {
        this.#stats.connects += 1;
        openedAt = this.#clock.now().getTime();
        this.#logger.info({ url }, "feed connected");
        armIdleTimer();
        for (const message of this.#protocol.openingMessages) socket.send(message);
        if (afterDown) this.#reportGap(line.lastTickAtMs, openedAt);
      });
      // Protocol pings prove the line is alive even when no trade happens.
      socket.on("ping", armIdleTimer);
      socket.on("pong", armIdleTimer);
      socket.on("message", (data, isBinary) => {
        if (signal.aborted) return;
        armIdleTimer();
        this.#stats.messages += 1;
        const text = isBinary ? undefined : rawText(data);
        const decoded: DecodedMessage =
          text === undefined
            ? { ticks: [], rejected: ["binary frame"] }
            : this.#protocol.decode(text);
        for (const reason of decoded.rejected) {
          this.#stats.malformed += 1;
          this.#warnings.warn(
            {
              url,
              reason: this.#redact(reason),
              message: this.#redact((text ?? "").slice(0, logged_message_chars_max)),
            },
            "dropped a malformed feed message",
          );
        }
        if (decoded.providerError !== undefined) {
          this.#stats.providerErrors += 1;
          this.#warnings.warn(
            { url, providerError: this.#redact(decoded.providerError) },
            "feed provider reported an error",
          );
        }
        for (const tick of decoded.ticks) {
          this.#stats.ticks += 1;
          producedTick = true;
          line.lastTickAtMs = this.#clock.now().getTime();
          queue.push(tick);
        }
      });
      socket.on("error", (error) => {
        if (signal.aborted) return;
        this.#warnings.warn({ url, error: this.#redact(error.message) }, "feed socket error");
      });
      socket.on("close", (code, reason) => {
        clearTimeout(idleTimer);
        clearTimeout(closeTimer);
        signal.removeEventListener("abort", onAbort);
        this.#logger.info(
          { url, code, reason: this.#redact(reason.toString("utf8")) },
          "feed connection closed",
        );
        const openLongEnough =
          openedAt !== undefined &&
          this.#clock.now().getTime() - openedAt >= limits.healthy_connection_ms;
        resolve(producedTick || openLongEnough);
      });
    });
  }

  #reportGap(fromMs: number, toMs: number): void {
    const gap = { source: this.#protocol.source, symbols: this.#protocol.symbols, fromMs, toMs };
    this.#logger.info(
      { url: this.#protocol.loggedUrl, fromMs, toMs },
      "feed back after a gap; its missing minutes can be backfilled",
    );
    for (const listener of this.#gapListeners) {
      // A listener's bug must not take the price line down with it.
      try {
        listener(gap);
      } catch (error) {
        this.#logger.error({ error }, "feed gap listener failed");
      }
    }
  }

  #redact(text: string): string {
    let safe = text;
    for (const secret of this.#protocol.secrets) {
      if (secret !== "") safe = safe.replaceAll(secret, "[redacted]");
    }
    return safe;
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data).toString("utf8");
}

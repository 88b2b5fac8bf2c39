import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/event-bus.ts";
import { timerSleep } from "../feeds/sleep.ts";
import type { Feed, FeedSource, Tick } from "../feeds/tick.ts";
import { prunePriceHistory, recordTicks } from "./price-history.ts";
import { PriceStore } from "./price-store.ts";

/** The platform's tick rate per symbol: what the chart shows is what settles (PRODUCT.md D3). */
export const tick_interval_ms_min = 250;
const record_interval_ms = 1_000;
const prune_interval_ms = 60_000;
const lock_retry_ms = 2_000;
/** How often the ingesting process looks for assets whose feed went quiet. */
const halt_watch_ms = 500;
/** Ticks waiting to be written; past this the oldest are dropped (and counted). */
const record_buffer_max = 50_000;

/** Advisory-lock keys, one per feed source: exactly one process ingests each feed. */
const feedLockKeys: Record<FeedSource, number> = {
  simulated: 727_101,
  binance: 727_102,
  finnhub: 727_103,
};

export interface MarketData {
  readonly store: PriceStore;
  /** Sources whose feed this process is ingesting now (it holds their lock). */
  ingesting(): FeedSource[];
  /** The ingestion path of a feed's tick: throttled to the platform rate, published, recorded. */
  offer(tick: Tick): void;
  /** Writes buffered ticks now (tests, shutdown). */
  flush(): Promise<void>;
  stats(): { recordDropped: number };
  stop(): Promise<void>;
}

export function startMarketData(options: {
  database: Database;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  feeds: Feed[];
  /** The entry limit of an asset: a feed quieter than this inside its hours is halted. */
  staleAfterMs?: (symbol: string) => number;
  /** Whether the asset is inside its trading hours (a quiet feed outside them is no halt). */
  inHours?: (symbol: string, atMs: number) => boolean;
}): MarketData {
  const { database, bus, clock, log } = options;
  const store = new PriceStore();
  const abort = new AbortController();
  const ingestingSources = new Set<FeedSource>();
  let buffer: Tick[] = [];
  let recordDropped = 0;
  let flushing: Promise<void> = Promise.resolve();

  // Every process keeps its price store from the bus; the process ingesting a feed records
  // its own ticks directly (publish below), so its prices never depend on the bus.
  const unsubscribe = bus.subscribe((event) => {
    if (event.type === "tick") store.record(event.tick);
  });

  const throttle = new Map<
    string,
    { lastAt: number; pending: Tick | null; timer: NodeJS.Timeout | null }
  >();
  function publish(tick: Tick) {
    store.record(tick);
    if (openHalts.has(tick.symbol)) endHalt(tick);
    bus.publish({ type: "tick", tick });
    buffer.push(tick);
    if (buffer.length > record_buffer_max) {
      recordDropped += buffer.length - record_buffer_max;
      buffer = buffer.slice(-record_buffer_max);
    }
  }
  function offer(tick: Tick) {
    const state = throttle.get(tick.symbol) ?? {
      lastAt: Number.NEGATIVE_INFINITY,
      pending: null,
      timer: null,
    };
    throttle.set(tick.symbol, state);
    if (tick.at <= state.lastAt) return;
    if (tick.at - state.lastAt >= tick_interval_ms_min) {
      state.lastAt = tick.at;
      state.pending = null;
      publish(tick);
      return;
    }
    // Too soon after the last one: keep the newest and publish it when its slot opens.
    state.pending = tick;
    state.timer ??= setTimeout(
      () => {
        state.timer = null;
        const pending = state.pending;
        if (pending && pending.at > state.lastAt) {
          state.lastAt = pending.at;
          state.pending = null;
          publish(pending);
        }
      },
      Math.max(0, tick_interval_ms_min - (tick.at - state.lastAt)),
    );
  }

  // Feed halts (migration 010): the process ingesting a feed notices when one of its assets
  // has been quiet longer than its entry limit inside its trading hours, opens a halt, and
  // ends it at the next live tick. Public: the market status page lists them.
  const openHalts = new Set<string>();
  const ingestStartedAtMs = new Map<FeedSource, number>();
  async function loadOpenHalts(feed: Feed) {
    const result = await database.query<{ symbol: string }>(
      "SELECT symbol FROM feed_halts WHERE ended_at IS NULL AND symbol = ANY($1::text[])",
      [feed.symbols],
    );
    for (const row of result.rows) openHalts.add(row.symbol);
  }
  function startHalt(symbol: string, source: FeedSource, sinceMs: number) {
    openHalts.add(symbol);
    log.warn(
      { symbol, source, since: new Date(sinceMs).toISOString() },
      "feed halted: no live price",
    );
    database
      .query(
        `INSERT INTO feed_halts (symbol, source, started_at) VALUES ($1, $2, $3)
         ON CONFLICT (symbol) WHERE ended_at IS NULL DO NOTHING`,
        [symbol, source, new Date(sinceMs)],
      )
      .catch((error: unknown) => log.warn({ err: error, symbol }, "could not record a feed halt"));
  }
  function endHalt(tick: Tick) {
    openHalts.delete(tick.symbol);
    log.info({ symbol: tick.symbol, source: tick.source }, "feed live again");
    database
      .query(
        `UPDATE feed_halts SET ended_at = GREATEST(started_at, $2)
         WHERE symbol = $1 AND ended_at IS NULL`,
        [tick.symbol, new Date(tick.at)],
      )
      .catch((error: unknown) =>
        log.warn({ err: error, symbol: tick.symbol }, "could not end a feed halt"),
      );
  }
  const haltWatch = setInterval(() => {
    const { staleAfterMs, inHours } = options;
    if (!staleAfterMs) return;
    const nowMs = clock.now().getTime();
    for (const feed of options.feeds) {
      const startedAtMs = ingestStartedAtMs.get(feed.source);
      if (startedAtMs === undefined) continue;
      for (const symbol of feed.symbols) {
        if (openHalts.has(symbol) || (inHours && !inHours(symbol, nowMs))) continue;
        const sinceMs = store.last(symbol)?.at ?? startedAtMs;
        if (nowMs - sinceMs > staleAfterMs(symbol)) startHalt(symbol, feed.source, sinceMs);
      }
    }
  }, halt_watch_ms);
  haltWatch.unref();

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      try {
        await database.transaction((transaction) => recordTicks(transaction, batch));
      } catch (error) {
        log.error({ err: error, ticks: batch.length }, "could not record ticks");
      }
    });
    return flushing;
  }
  const recordTimer = setInterval(() => void flush(), record_interval_ms);
  const pruneTimer = setInterval(() => {
    if (ingestingSources.size === 0) return;
    prunePriceHistory(database, clock.now()).catch((error) =>
      log.warn({ err: error }, "price pruning failed"),
    );
  }, prune_interval_ms);
  recordTimer.unref();
  pruneTimer.unref();

  // The shared sleep removes its abort listener when the timer fires: a process that waits
  // for a feed's lock retries for ever, and must not pile up one listener per retry.
  const sleep = (ms: number) => timerSleep(ms, abort.signal);

  async function ingest(feed: Feed) {
    while (!abort.signal.aborted) {
      const lock = await database
        .tryAdvisoryLock(feedLockKeys[feed.source])
        .catch((error: unknown) => {
          log.warn({ err: error, source: feed.source }, "could not try the feed lock");
          return null;
        });
      if (!lock) {
        await sleep(lock_retry_ms);
        continue;
      }
      const feedAbort = new AbortController();
      const stopFeed = () => feedAbort.abort();
      abort.signal.addEventListener("abort", stopFeed);
      void lock.lost.then(stopFeed);
      ingestingSources.add(feed.source);
      await loadOpenHalts(feed).catch((error: unknown) =>
        log.warn({ err: error, source: feed.source }, "could not read open feed halts"),
      );
      ingestStartedAtMs.set(feed.source, clock.now().getTime());
      log.info({ source: feed.source, symbols: feed.symbols.length }, "ingesting feed");
      try {
        for await (const tick of feed.ticks(feedAbort.signal)) offer(tick);
      } catch (error) {
        log.error({ err: error, source: feed.source }, "feed failed");
      } finally {
        ingestingSources.delete(feed.source);
        ingestStartedAtMs.delete(feed.source);
        abort.signal.removeEventListener("abort", stopFeed);
        await lock.release();
      }
      if (!abort.signal.aborted) await sleep(lock_retry_ms);
    }
  }
  const running = options.feeds.map((feed) => ingest(feed));

  return {
    store,
    ingesting: () => [...ingestingSources],
    offer,
    flush,
    stats: () => ({ recordDropped }),
    async stop() {
      abort.abort();
      clearInterval(recordTimer);
      clearInterval(pruneTimer);
      clearInterval(haltWatch);
      for (const state of throttle.values()) if (state.timer) clearTimeout(state.timer);
      await Promise.all(running);
      unsubscribe();
      await flush();
    },
  };
}

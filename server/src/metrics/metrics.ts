import { assetCatalogue } from "@tp/domain/catalogue";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AppContext } from "../app-context.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { FeedSource } from "../feeds/tick.ts";
import { outboxDepth } from "../mail/outbox.ts";
import { pendingNotificationDeliveries } from "../notifications/notification-delivery.ts";
import { marketStatusOf } from "../prices/market-status.ts";
import { pushDeliveryDepth } from "../push/push-sender.ts";
import { ledgerReport } from "../reconciliation/reconciliation.ts";
import { dueUnsettledCount } from "../trading/settlement.ts";
import type { TradeBatcher, TradeOutcome } from "../trading/trade-batcher.ts";

/** Nothing runs the ledger check on a schedule: a scrape runs it when the last is this old. */
export const ledger_check_interval_ms = 5 * 60_000;
/** A scrape waits this long for a ledger check it started, then answers with the last one. */
const ledger_check_scrape_wait_ms = 2_000;

/** The reasons `place_trades` refuses a trade with: trades_refused_total's only labels. */
export const refusalReasons = ["insufficient", "refused", "guarded", "replay"] as const;
/** A feed's state among live, stale and halted (feed_state's `state` label). */
export const feedStates = ["live", "stale", "halted"] as const;
type FeedState = (typeof feedStates)[number];

export interface Metrics {
  readonly registry: Registry;
  /** Counts HTTP requests by route pattern, method and status, with their durations. */
  installHttpMetrics(app: FastifyInstance): void;
  /** The trade batcher, counting each outcome `place_trades` returns. */
  countingTrades(batcher: TradeBatcher): TradeBatcher;
  /** Settlement's lags of one committed batch (settlement.ts `onSettled`). */
  observeSettlementLags(lagsMs: readonly number[]): void;
  /** From now on, scrapes read the application's parts (feeds, sockets, bus, queues). */
  watch(context: AppContext): void;
  /** Stops listening to the database's queries (the app closes; the database may not). */
  stop(): void;
}

/**
 * The application's Prometheus metrics, on a registry of its own (tests run many apps in
 * one process; the global default registry would mix them). Hot paths only increment or
 * observe in memory; every figure that needs the database or a walk over the feeds is read
 * when Prometheus scrapes.
 */
export function createMetrics(options: {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
}): Metrics {
  const { database, clock, log } = options;
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  let context: AppContext | null = null;

  // Read first, before this scrape's own queries take connections from the pool.
  new Gauge({
    name: "db_pool_connections",
    help: "The PostgreSQL connection pool: connections open (total), idle, and callers waiting for one. None on PGlite (no pool).",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const stats = database.poolStats();
      if (!stats) return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  const httpRequests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by Fastify route pattern (unmatched: no route), method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its reply, by route pattern and method.",
    labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const tradesPlaced = new Counter({
    name: "trades_placed_total",
    help: "Trades placed by this process, by account (real or practice).",
    labelNames: ["account"] as const,
    registers,
  });
  const tradesRefused = new Counter({
    name: "trades_refused_total",
    help: "Place-trade requests place_trades did not place, by reason: insufficient (balance), refused (real money on simulated prices), guarded (the trader's own limit or exclusion), replay (an Idempotency-Key's stored reply).",
    labelNames: ["reason"] as const,
    registers,
  });
  // Zero from the start, so a rate() has a series to work on before the first refusal.
  for (const reason of refusalReasons) tradesRefused.inc({ reason }, 0);
  for (const account of ["real", "practice"]) tradesPlaced.inc({ account }, 0);

  const settlementLag = new Histogram({
    name: "settlement_lag_seconds",
    help: "Time from a trade's expiry to the commit of its settlement, per trade settled here.",
    buckets: [0.5, 1, 1.5, 2, 3, 5, 10, 30, 60, 300],
    registers,
  });
  new Gauge({
    name: "settlement_due_unsettled",
    help: "Open trades past their expiry (all processes), counted at scrape.",
    registers,
    async collect() {
      this.set(await orNaN(() => dueUnsettledCount(database, clock.now())));
    },
  });

  new Gauge({
    name: "feed_tick_age_seconds",
    help: "Age of the newest tick of each feed in this process's price store (no series before its first tick).",
    labelNames: ["feed"] as const,
    registers,
    collect() {
      this.reset();
      if (!context) return;
      const nowMs = clock.now().getTime();
      for (const [feed, symbols] of feedAssets(context)) {
        let newestMs = Number.NEGATIVE_INFINITY;
        for (const symbol of symbols) {
          const tick = context.marketData.store.last(symbol);
          if (tick && tick.at > newestMs) newestMs = tick.at;
        }
        if (newestMs > Number.NEGATIVE_INFINITY) {
          this.set({ feed }, Math.max(0, nowMs - newestMs) / 1000);
        }
      }
    },
  });
  new Gauge({
    name: "feed_state",
    help: "1 for each feed's state on this process: live (every asset inside its hours open), stale (some halted), halted (all of them halted); a feed whose assets are all closed is live.",
    labelNames: ["feed", "state"] as const,
    registers,
    collect() {
      this.reset();
      if (!context) return;
      for (const [feed] of feedAssets(context)) {
        const current = feedStateOf(context, feed);
        for (const state of feedStates) this.set({ feed, state }, state === current ? 1 : 0);
      }
    },
  });
  new Counter({
    name: "feed_ticks_total",
    help: "Ticks this process's price store took from each feed (its own and from the bus).",
    labelNames: ["feed"] as const,
    registers,
    collect() {
      if (!context) return;
      this.reset();
      for (const [feed] of feedAssets(context)) this.inc({ feed }, 0);
      for (const [feed, count] of context.marketData.store.recordedBySource()) {
        this.inc({ feed }, count);
      }
    },
  });

  new Gauge({
    name: "stream_sockets_open",
    help: "Live-stream sockets open on this process.",
    registers,
    collect() {
      this.set(context?.stream.clientCount() ?? 0);
    },
  });
  new Counter({
    name: "stream_messages_dropped_total",
    help: "Tick messages never sent because a newer tick replaced them while held for a client's rate limit.",
    registers,
    collect() {
      this.reset();
      this.inc(context?.stream.stats().ticksCoalesced ?? 0);
    },
  });
  new Counter({
    name: "stream_clients_dropped_total",
    help: "Stream clients disconnected for being too slow to read (send buffer over its limit).",
    registers,
    collect() {
      this.reset();
      this.inc(context?.stream.stats().clientsDropped ?? 0);
    },
  });

  // One query per scrape for the two figures of each queue.
  const outbox = oncePerScrape(() => outboxDepth(database));
  const pushes = oncePerScrape(() => pushDeliveryDepth(database));
  new Gauge({
    name: "outbox_emails_pending",
    help: "E-mails waiting to be sent (tries left), all processes.",
    registers,
    async collect() {
      this.set(await orNaN(async () => (await outbox()).pending));
    },
  });
  new Gauge({
    name: "outbox_emails_failed",
    help: "E-mails given up on after their last try, all processes.",
    registers,
    async collect() {
      this.set(await orNaN(async () => (await outbox()).failed));
    },
  });
  new Gauge({
    name: "push_deliveries_pending",
    help: "Web Push messages waiting to be delivered, all processes.",
    registers,
    async collect() {
      this.set(await orNaN(async () => (await pushes()).pending));
    },
  });
  new Gauge({
    name: "push_deliveries_abandoned",
    help: "Web Push messages abandoned after their attempts ran out, all processes.",
    registers,
    async collect() {
      this.set(await orNaN(async () => (await pushes()).abandoned));
    },
  });
  new Gauge({
    name: "notification_deliveries_pending",
    help: "Notifications stored but not yet announced (sockets, push), all processes.",
    registers,
    async collect() {
      this.set(await orNaN(() => pendingNotificationDeliveries(database)));
    },
  });

  const queryDuration = new Histogram({
    name: "db_query_duration_seconds",
    help: "Duration of each database query of this process, transactions' statements included.",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const stopQueryTiming = database.onQuery((duration_seconds) =>
    queryDuration.observe(duration_seconds),
  );

  new Gauge({
    name: "bus_connected",
    help: "1 while this process's event bus is connected (the in-memory bus always is), else 0.",
    registers,
    collect() {
      this.set(context && context.bus.downSinceMs() !== null ? 0 : 1);
    },
  });

  const ledger = ledgerCheckRunner({ database, clock, log });
  new Gauge({
    name: "ledger_check_ok",
    help: `1 when the last ledger check found no violation, 0 when it found some; run by a scrape at most every ${ledger_check_interval_ms / 60_000} minutes. No series before the first check ends.`,
    registers,
    async collect() {
      this.reset();
      const last = await ledger.latest();
      if (last) this.set(last.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: "ledger_check_timestamp_seconds",
    help: "When the last ledger check ended (Unix seconds).",
    registers,
    async collect() {
      this.reset();
      const last = await ledger.latest();
      if (last) this.set(last.atMs / 1000);
    },
  });

  return {
    registry,
    installHttpMetrics(app) {
      app.addHook("onResponse", (request, reply, done) => {
        // The route's pattern, never the URL: ids and query strings would make the label
        // set unbounded. No route (a 404, the web app's pages) is one value.
        const route = request.routeOptions.url ?? "unmatched";
        httpRequests.inc({ route, method: request.method, status: String(reply.statusCode) });
        httpDuration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
        done();
      });
    },
    countingTrades(batcher) {
      return {
        async submit(request) {
          const outcome: TradeOutcome = await batcher.submit(request);
          if (outcome.outcome === "placed") {
            tradesPlaced.inc({ account: request.is_practice ? "practice" : "real" });
          } else {
            tradesRefused.inc({ reason: outcome.outcome });
          }
          return outcome;
        },
        idle: () => batcher.idle(),
      };
    },
    observeSettlementLags(lagsMs) {
      for (const lagMs of lagsMs) settlementLag.observe(lagMs / 1000);
    },
    watch(watched) {
      context = watched;
    },
    stop() {
      stopQueryTiming();
    },
  };
}

/** Each configured feed and the assets it prices (FEED_SOURCES; the simulator by default). */
function feedAssets(context: AppContext): Map<FeedSource, string[]> {
  const byFeed = new Map<FeedSource, string[]>();
  for (const asset of assetCatalogue) {
    const feed = context.config.FEED_SOURCES[asset.symbol] ?? "simulated";
    byFeed.set(feed, [...(byFeed.get(feed) ?? []), asset.symbol]);
  }
  return byFeed;
}

/**
 * A feed's state from its assets' states on this process (prices/market-status.ts): closed
 * assets (outside their hours) say nothing about the feed; of the others, all open is live,
 * all halted is halted, a mix is stale.
 */
function feedStateOf(context: AppContext, feed: FeedSource): FeedState {
  const nowMs = context.clock.now().getTime();
  let open = 0;
  let halted = 0;
  for (const asset of assetCatalogue) {
    if ((context.config.FEED_SOURCES[asset.symbol] ?? "simulated") !== feed) continue;
    const state = marketStatusOf(context, asset, nowMs).state;
    if (state === "open") open += 1;
    else if (state === "halted") halted += 1;
  }
  if (halted === 0) return "live";
  return open === 0 ? "halted" : "stale";
}

/**
 * The database unreachable must not fail the whole scrape (the bus and feed figures matter
 * most then): the figure is NaN, which Prometheus stores as such and alerts can test.
 */
async function orNaN(read: () => Promise<number>): Promise<number> {
  try {
    return await read();
  } catch {
    return Number.NaN;
  }
}

/** Shares one call among the collectors of a scrape (they run concurrently). */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (!pending) {
      pending = read();
      const forget = () => {
        setImmediate(() => {
          pending = null;
        });
      };
      pending.then(forget, forget);
    }
    return pending;
  };
}

interface LedgerCheckResult {
  ok: boolean;
  atMs: number;
}

/**
 * The ledger check for the metrics: the reconciliation staff and `npm run ledger:check` run
 * (the ledger's invariants, then the funding records against the ledger). Nothing else runs it on a
 * schedule, so a scrape starts one when the last started `ledger_check_interval_ms` ago or
 * never; the scrape waits a little for it, then answers with the last result it has (a long
 * check finishes in the background and the next scrape reports it).
 */
function ledgerCheckRunner(options: { database: Database; clock: Clock; log: FastifyBaseLogger }) {
  const { database, clock, log } = options;
  let last: LedgerCheckResult | null = null;
  let startedAtMs: number | null = null;
  let running: Promise<void> | null = null;

  function start() {
    const nowMs = clock.now().getTime();
    if (running || (startedAtMs !== null && nowMs - startedAtMs < ledger_check_interval_ms)) {
      return;
    }
    startedAtMs = nowMs;
    running = ledgerReport(database, clock.now())
      .then((report) => {
        last = { ok: report.ok, atMs: clock.now().getTime() };
        if (!report.ok) {
          log.error(
            { violations: report.violations.slice(0, 10) },
            "ledger check found violations",
          );
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, "ledger check could not run"))
      .finally(() => {
        running = null;
      });
  }

  return {
    async latest(): Promise<LedgerCheckResult | null> {
      start();
      if (running) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          running,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, ledger_check_scrape_wait_ms);
          }),
        ]);
        clearTimeout(timer);
      }
      return last;
    },
  };
}

import fastifyCors from "@fastify/cors";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { assetCatalogue } from "@tp/domain/catalogue";
import { API_BASE_PATH } from "@tp/domain/paths";
import Fastify, { type FastifyInstance } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import { ensureFirstAdmin } from "./admin/first-admin.ts";
import type { AppContext } from "./app-context.ts";
import { AttemptThrottle } from "./auth/attempt-throttle.ts";
import { loadAltchaHmacKey, ProofOfWork } from "./auth/proof-of-work.ts";
import { createSessionLookup, sessionLifetimesOf } from "./auth/sessions.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { loadSiteContent } from "./content/site-content.ts";
import type { Database } from "./db/database.ts";
import { createMemoryEventBus, createRedisEventBus, eventChannelFor } from "./events/event-bus.ts";
import { createFeeds } from "./feeds/create-feeds.ts";
import type { ObservableFeed } from "./feeds/feed-stats.ts";
import type { Feed } from "./feeds/tick.ts";
import { registerCompression } from "./http/compression.ts";
import { installErrorHandler } from "./http/error-handler.ts";
import { installInputGuard } from "./http/input-guard.ts";
import { Readiness } from "./http/readiness.ts";
import { installReceivedAt } from "./http/received-at.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { doNotStore } from "./http/signed-in-scope.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { listenForMetrics, registerMetricsRoute } from "./metrics/metrics-routes.ts";
import { backfill_start_timeout_ms, createHistoryBackfill } from "./prices/history-backfill.ts";
import {
  createProviderHistorySources,
  createSimulatedHistorySources,
} from "./prices/history-sources.ts";
import { marketStatusOf } from "./prices/market-status.ts";
import { latestCloses } from "./prices/price-history.ts";
import { loadVapidKeys } from "./push/vapid-keys.ts";
import { RateLimiter } from "./rate-limit/rate-limiter.ts";
import {
  loadReceiptSigningKey,
  registerReceiptSigningKey,
} from "./receipts/receipt-signing-key.ts";
import { apiRoutes } from "./routes.ts";
import { startStreamHub } from "./stream/stream-hub.ts";
import { createTradeBatcher } from "./trading/trade-batcher.ts";
import { prepareUploadsDirectory } from "./uploads/upload-store.ts";
import { serveWebApp } from "./web/serve-web-app.ts";
import { startWorkers } from "./workers.ts";

/** JSON bodies above this are refused with 413 before they are parsed. */
export const json_body_bytes_max = 1024 * 1024;

export interface BuiltApp {
  app: FastifyInstance;
  context: AppContext;
}

/**
 * The whole HTTP application as a Fastify instance, ready to `listen` or `inject`. The
 * caller owns the database (opened and migrated) and closes it after `app.close()`.
 */
export async function buildApp(options: {
  config: Config;
  database: Database;
  clock?: Clock;
  /**
   * The price feeds this process may ingest (each only while it holds the feed's lock):
   * "from-config" builds them from FEED_SOURCES; tests pass their own (or none).
   */
  feeds?: Feed[] | "from-config";
}): Promise<BuiltApp> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const siteContent = loadSiteContent(config.CONTENT_DIR);
  // Checked and made once, at start: a folder inside WEB_DIST_DIR would be served to anyone.
  const uploadsDirectory = prepareUploadsDirectory(config.DATA_DIR, config.WEB_DIST_DIR);

  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      // Bearer tokens and cookies never reach the log.
      redact: ["req.headers.authorization", "req.headers.cookie"],
      // A person at a terminal gets readable lines; machines and files get JSON.
      ...(process.stdout.isTTY
        ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss" } } }
        : {}),
    },
    bodyLimit: json_body_bytes_max,
    trustProxy: config.TRUST_PROXY,
    // No request can hold a connection for ever.
    connectionTimeout: 60_000,
    requestTimeout: 60_000,
    return503OnClosing: true,
  });
  app.decorateRequest("session", null);
  installReceivedAt(app, clock);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser("text/plain");
  installErrorHandler(app);
  // First, so every request is counted, and before the workers, whose settlements it times.
  const metrics = createMetrics({ database, clock, log: app.log.child({ module: "metrics" }) });
  metrics.installHttpMetrics(app);
  app.addHook("onClose", async () => metrics.stop());

  const bus = config.REDIS_URL
    ? await createRedisEventBus(
        config.REDIS_URL,
        eventChannelFor(config.DATABASE_URL),
        app.log.child({ module: "bus" }),
        clock,
      )
    : createMemoryEventBus(app.log.child({ module: "bus" }));
  // History from the first minute (issue 11). The simulator's past is made before the
  // feeds: the live walk resumes from the newest close, which is then the filled past's last
  // one (no jump where the past meets live). A provider's past is fetched in the background
  // (a slow or unreachable provider must not hold the start), then again after every gap
  // its live line reports.
  const historyLog = app.log.child({ module: "history" });
  const simulatedHistory = createHistoryBackfill({
    database,
    clock,
    log: historyLog,
    sources: createSimulatedHistorySources(config, database),
    hours: config.PRICE_HISTORY_HOURS,
  });
  await simulatedHistory.run(AbortSignal.timeout(backfill_start_timeout_ms));
  const feeds =
    options.feeds === "from-config"
      ? createFeeds(config, clock, app.log.child({ module: "feeds" }), {
          // The simulator resumes from the last recorded prices instead of jumping back.
          simulatedStartPrices: Object.fromEntries(await latestCloses(database)),
        })
      : (options.feeds ?? []);
  const providerHistory = createHistoryBackfill({
    database,
    clock,
    log: historyLog,
    sources:
      options.feeds === "from-config"
        ? createProviderHistorySources(config, clock, historyLog)
        : [],
    hours: config.PRICE_HISTORY_HOURS,
  });
  const historyAbort = new AbortController();
  const providerHistoryRun = providerHistory.run(historyAbort.signal);
  for (const feed of feeds) {
    if (!("onGap" in feed)) continue;
    (feed as ObservableFeed).onGap((gap) => {
      for (const symbol of gap.symbols) {
        providerHistory
          .backfillGap(symbol, { sinceMs: gap.fromMs, signal: historyAbort.signal })
          .catch((error: unknown) => {
            if (!historyAbort.signal.aborted) {
              historyLog.warn({ err: error, symbol }, "could not backfill a gap in the feed");
            }
          });
      }
    });
  }
  app.addHook("onClose", async () => {
    historyAbort.abort();
    await providerHistoryRun;
  });
  const vapidKeys = loadVapidKeys(config, app.log.child({ module: "notifications" }));
  const receiptSigningKey = loadReceiptSigningKey(config, app.log.child({ module: "receipts" }));
  await registerReceiptSigningKey(database, receiptSigningKey, clock.now());
  const workers = startWorkers({
    receiptSigningKey,
    config,
    database,
    clock,
    bus,
    feeds,
    vapidKeys,
    siteName: siteContent.company.name,
    log: app.log,
    onSettled: metrics.observeSettlementLags,
  });
  const proofOfWork = new ProofOfWork(
    loadAltchaHmacKey(config, app.log.child({ module: "auth" })),
    clock,
  );
  const sessionLifetimes = sessionLifetimesOf(config);
  const stream = startStreamHub({
    database,
    clock,
    bus,
    sessionLifetimes,
    log: app.log.child({ module: "stream" }),
    marketStates: () => {
      const nowMs = clock.now().getTime();
      return assetCatalogue.map((asset) => {
        const status = marketStatusOf(
          { marketData: workers.marketData, config, bus },
          asset,
          nowMs,
        );
        return {
          type: "market_state" as const,
          symbol: asset.symbol,
          state: status.state,
          next_open_at:
            status.nextOpenAtMs === null ? null : new Date(status.nextOpenAtMs).toISOString(),
        };
      });
    },
  });
  // Stopped in reverse order of need: sockets, the workers (settlements, ticks), the bus.
  app.addHook("preClose", async () => stream.stop());
  app.addHook("onClose", async () => {
    await workers.stop();
    await bus.close();
  });

  // PRODUCT.md D7: a platform nobody can operate is not one. A start that finds no admin
  // makes the first (from ADMIN_EMAIL / ADMIN_PASSWORD, or with a one-time password).
  await ensureFirstAdmin({ database, config, clock }, app.log.child({ module: "admin" }));

  const context: AppContext = {
    config,
    database,
    clock,
    rateLimiter: new RateLimiter(config.RATE_LIMIT_FACTOR, clock),
    sessions: createSessionLookup(database, clock, sessionLifetimes),
    outbox: workers.outbox,
    accountEmails: workers.accountEmails,
    attemptThrottle: new AttemptThrottle({
      factor: config.RATE_LIMIT_FACTOR,
      clock,
      database,
      proofOfWork,
    }),
    proofOfWork,
    receiptSigningKey,
    notificationDelivery: workers.notificationDelivery,
    vapidKeys,
    siteContent,
    uploadsDirectory,
    bus,
    marketData: workers.marketData,
    settlement: workers.settlement,
    tradeBatcher: metrics.countingTrades(createTradeBatcher(database)),
    stream,
    readiness: new Readiness({ database, bus, log: app.log.child({ module: "readiness" }) }),
    metricsListener: null,
  };
  metrics.watch(context);
  registerMetricsRoute(app, metrics, config);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // The web app needs no inline script or style (its theme and toasts are bundled).
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        // Staff view PDF receipts and documents inline, from blob: URLs (web/src/admin).
        frameSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Same-origin by default; the PWA and uploads arrive later with their own rules.
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCors, { origin: config.PUBLIC_URL, credentials: false });
  // Before any route is added: the plugin attaches itself to each route as it is registered.
  await registerCompression(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${siteContent.company.name} API`,
        version: "1",
        description:
          "Every reply is {status:'success', message?, data?} or {status:'error', message, code?, errors?}. Amounts are US dollars with 2 decimals.",
      },
      servers: [{ url: config.PUBLIC_URL }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: `${API_BASE_PATH}/docs`,
    // The docs page (only) sets styles inline; its own policy allows that and nothing more.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'")
        .replace(" validator.swagger.io", ""),
    // No call to an outside validator service from the docs page.
    uiConfig: { validatorUrl: null },
  });

  await app.register(
    async (api) => {
      // Sign-in replies carry a bearer token (the password step, the second factor, the
      // enrolment, a passkey: all under /login): no browser or proxy may keep them. Signed-in
      // replies get the same in their scope; public data stays cacheable (the offline app).
      api.addHook("onRequest", async (request, reply) => {
        if (request.routeOptions.url?.startsWith(`${API_BASE_PATH}/login`)) doNotStore(reply);
      });
      // Every API route's body, query and path pass the shared input rules before its schema.
      installInputGuard(api);
      api.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
      await apiRoutes(api, context);
    },
    { prefix: API_BASE_PATH },
  );

  await serveWebApp(app, {
    webDistDir: config.WEB_DIST_DIR,
    publicUrl: config.PUBLIC_URL,
    siteContent,
  });
  // Last: nothing after it can fail and leave the port taken with no app to close it.
  if (config.METRICS_PORT !== undefined) {
    const listener = await listenForMetrics(metrics, {
      port: config.METRICS_PORT,
      host: config.HOST,
    });
    context.metricsListener = listener;
    app.addHook("onClose", async () => listener.close());
  }
  // Only now: /ready must never say ready for a half-built app.
  context.readiness.markStarted();
  return { app, context };
}

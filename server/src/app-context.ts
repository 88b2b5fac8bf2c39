import type { SiteContent } from "@tp/domain/site-content";
import type { AttemptThrottle } from "./auth/attempt-throttle.ts";
import type { ProofOfWork } from "./auth/proof-of-work.ts";
import type { SessionLookup } from "./auth/sessions.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { EventBus } from "./events/event-bus.ts";
import type { Readiness } from "./http/readiness.ts";
import type { OutboxDelivery } from "./mail/outbox.ts";
import type { MetricsListener } from "./metrics/metrics-listener.ts";
import type { NotificationDelivery } from "./notifications/notification-delivery.ts";
import type { MarketData } from "./prices/market-data.ts";
import type { VapidKeys } from "./push/vapid-keys.ts";
import type { RateLimiter } from "./rate-limit/rate-limiter.ts";
import type { ReceiptSigningKey } from "./receipts/receipt-signing-key.ts";
import type { StreamHub } from "./stream/stream-hub.ts";
import type { Settlement } from "./trading/settlement.ts";
import type { TradeBatcher } from "./trading/trade-batcher.ts";
import type { PollingWorker } from "./workers/polling-worker.ts";

/** What every route module is given: the process's single instances of each part. */
export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  rateLimiter: RateLimiter;
  sessions: SessionLookup;
  outbox: OutboxDelivery;
  /** Kicked after a forgot-password or resend request was queued (auth/account-email-requests.ts). */
  accountEmails: PollingWorker;
  /** Slows sign-in, forgot and resend per account and asks for a proof of work past a threshold. */
  attemptThrottle: AttemptThrottle;
  /** Makes the ALTCHA challenges the throttle asks for (GET /challenge). */
  proofOfWork: ProofOfWork;
  /** Signs trade receipts (issue 15 item 1). */
  receiptSigningKey: ReceiptSigningKey;
  /** Kicked after a commit that stored notifications, to announce them at once. */
  notificationDelivery: NotificationDelivery;
  /** The server's Web Push identity; browsers subscribe with its public key. */
  vapidKeys: VapidKeys;
  siteContent: SiteContent;
  /** Where receipts and identity documents are kept (DATA_DIR/uploads, checked at start). */
  uploadsDirectory: string;
  bus: EventBus;
  marketData: MarketData;
  settlement: Settlement;
  tradeBatcher: TradeBatcher;
  stream: StreamHub;
  /** Whether this process should receive traffic (GET /ready); main.ts drains it on SIGTERM. */
  readiness: Readiness;
  /** The METRICS_PORT listener (metrics/metrics-routes.ts), or null when none is set. */
  metricsListener: MetricsListener | null;
}

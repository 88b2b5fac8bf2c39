import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";
import { StreamClient } from "./support/stream-client.ts";

const metrics_token = "metrics-token-for-the-tests-0123456789";

/** One sample's value from a Prometheus text exposition, or undefined when absent. */
function sample(
  exposition: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of exposition.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [
        pair[1],
        pair[2],
      ]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

function typeOf(exposition: string, name: string): string | undefined {
  return new RegExp(`^# TYPE ${name} (\\w+)$`, "m").exec(exposition)?.[1];
}

describe.each(databaseKindsUnderTest())("Prometheus metrics (issue 17 item 1) on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind, { env: { METRICS_TOKEN: metrics_token } });
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  async function scrape(): Promise<string> {
    const reply = await http.get("/metrics", metrics_token);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return reply.text;
  }

  it("refuses a scrape without the token or with a wrong one (401, with a message)", async () => {
    for (const token of [undefined, "a-wrong-token-of-enough-length"]) {
      const reply = await http.get("/metrics", token);
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({
        status: "error",
        code: "UNAUTHENTICATED",
        message: "Metrics need the header Authorization: Bearer <METRICS_TOKEN>",
      });
      expect(reply.text).not.toContain("http_requests_total");
    }
    // Off the public API: neither under /api/v1 nor in its published description.
    const openapi = await http.get("/api/v1/openapi.json");
    expect(Object.keys(openapi.body.paths)).not.toContain("/metrics");
  });

  it("shows every family with values that follow from what happened", async () => {
    const before = await scrape();
    // No tick yet: every simulated asset is halted, so the feed is.
    expect(sample(before, "feed_state", { feed: "simulated", state: "halted" })).toBe(1);
    expect(sample(before, "feed_state", { feed: "simulated", state: "live" })).toBe(0);
    expect(sample(before, "feed_tick_age_seconds", { feed: "simulated" })).toBeUndefined();

    const trader = await signedInTrader(platform);
    const stream = new StreamClient(platform.baseUrl);
    await stream.opened;
    await advanceWithTick(platform, "EURUSD", 1.1, 500);
    const trade = { asset: "EURUSD", type: "call", amount: 10, duration: 30, is_practice: true };
    const ids: number[] = [];
    for (let index = 0; index < 3; index++) {
      const placed = await http.post("/api/v1/place-trade", trade, trader.token);
      expect(placed.status, placed.text).toBe(201);
      ids.push(placed.body.data.trade.id);
    }
    // A replay: the same Idempotency-Key twice answers the first reply, once placed.
    const keyed = { json: trade, token: trader.token, headers: { "idempotency-key": "m-1" } };
    expect((await http.request("POST", "/api/v1/place-trade", keyed)).status).toBe(201);
    const replayed = await http.request("POST", "/api/v1/place-trade", keyed);
    expect(replayed.headers.get("idempotency-replayed")).toBe("true");
    // Insufficient: a new trader's real account is empty.
    const broke = await http.post(
      "/api/v1/place-trade",
      { ...trade, is_practice: false },
      trader.token,
    );
    expect(broke.body.code).toBe("INSUFFICIENT_FUNDS");
    expect((await http.get(`/api/v1/trades/${ids[0]}`, trader.token)).status).toBe(200);
    expect((await http.get("/api/v1/no-such-route")).status).toBe(404);

    // At expiry, with no tick after it yet: settlement waits (grace), the trades are due.
    await advanceWithTick(platform, "EURUSD", 1.15, 30_000);
    const due = await scrape();
    expect(sample(due, "settlement_due_unsettled")).toBe(4);

    await advanceWithTick(platform, "EURUSD", 1.2, 600);
    await platform.context.settlement.settleDue();
    const after = await scrape();

    expect(typeOf(after, "http_requests_total")).toBe("counter");
    expect(
      sample(after, "http_requests_total", {
        route: "/api/v1/place-trade",
        method: "POST",
        status: "201",
      }),
    ).toBeGreaterThanOrEqual(4);
    expect(
      sample(after, "http_requests_total", {
        route: "/api/v1/trades/:id",
        method: "GET",
        status: "200",
      }),
    ).toBe(1);
    expect(
      sample(after, "http_requests_total", { route: "unmatched", method: "GET", status: "404" }),
    ).toBe(1);
    // Never a raw URL as a label: the id stays in the pattern.
    expect(after).not.toContain(`/api/v1/trades/${ids[0]}"`);
    expect(typeOf(after, "http_request_duration_seconds")).toBe("histogram");
    expect(
      sample(after, "http_request_duration_seconds_count", {
        route: "/api/v1/place-trade",
        method: "POST",
      }),
    ).toBeGreaterThanOrEqual(5);

    expect(sample(after, "trades_placed_total", { account: "practice" })).toBe(4);
    expect(sample(after, "trades_placed_total", { account: "real" })).toBe(0);
    expect(sample(after, "trades_refused_total", { reason: "insufficient" })).toBe(1);
    expect(sample(after, "trades_refused_total", { reason: "replay" })).toBe(1);
    expect(sample(after, "trades_refused_total", { reason: "guarded" })).toBe(0);

    expect(typeOf(after, "settlement_lag_seconds")).toBe("histogram");
    expect(sample(after, "settlement_lag_seconds_count")).toBe(4);
    // Settled 30.6 s after a 30 s expiry: 0.6 s late each, inside the 1 s bucket, over 0.5.
    expect(sample(after, "settlement_lag_seconds_bucket", { le: "0.5" })).toBe(0);
    expect(sample(after, "settlement_lag_seconds_bucket", { le: "1" })).toBe(4);
    expect(sample(after, "settlement_due_unsettled")).toBe(0);

    // EURUSD ticks, the other simulated assets never did: part of the feed is halted.
    expect(sample(after, "feed_state", { feed: "simulated", state: "stale" })).toBe(1);
    expect(sample(after, "feed_state", { feed: "simulated", state: "live" })).toBe(0);
    expect(sample(after, "feed_state", { feed: "simulated", state: "halted" })).toBe(0);
    expect(sample(after, "feed_tick_age_seconds", { feed: "simulated" })).toBe(0);
    expect(sample(after, "feed_ticks_total", { feed: "simulated" })).toBe(3);

    expect(sample(after, "stream_sockets_open")).toBe(1);
    expect(sample(after, "stream_messages_dropped_total")).toBe(0);
    expect(sample(after, "stream_clients_dropped_total")).toBe(0);

    for (const queue of [
      "outbox_emails_pending",
      "outbox_emails_failed",
      "push_deliveries_pending",
      "push_deliveries_abandoned",
      "notification_deliveries_pending",
    ]) {
      // NaN would mean its query failed.
      expect(sample(after, queue), queue).toBeGreaterThanOrEqual(0);
    }

    if (kind === "postgres") {
      expect(sample(after, "db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
      expect(sample(after, "db_pool_connections", { state: "waiting" })).toBe(0);
    } else {
      expect(sample(after, "db_pool_connections", { state: "total" })).toBeUndefined();
    }
    expect(sample(after, "db_query_duration_seconds_count")).toBeGreaterThan(10);

    expect(sample(after, "bus_connected")).toBe(1);
    expect(sample(after, "ledger_check_ok")).toBe(1);
    // Run by the first scrape, on the platform's clock.
    expect(sample(after, "ledger_check_timestamp_seconds")).toBe(
      new Date("2026-01-15T12:00:00Z").getTime() / 1000,
    );

    expect(sample(after, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(after, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    stream.close();
  });
});

describe.each(databaseKindsUnderTest())(
  "metrics without a token, on a port of their own, on %s",
  (kind) => {
    let platform: TestPlatform;

    beforeAll(async () => {
      platform = await startTestPlatform(kind, { env: { METRICS_PORT: "0" } });
    });
    afterAll(async () => platform?.close());

    it("answers 404 on the main port, and serves the metrics on METRICS_PORT alone", async () => {
      const main = await httpClient(platform.baseUrl).get("/metrics", metrics_token);
      expect(main.status).toBe(404);
      expect(main.body).toMatchObject({ status: "error", code: "NOT_FOUND" });

      const port = platform.context.metricsListener?.port();
      expect(port).toBeGreaterThan(0);
      expect(port).not.toBe(Number(new URL(platform.baseUrl).port));
      const metricsPort = httpClient(`http://127.0.0.1:${port}`);
      const scraped = await metricsPort.get("/metrics");
      expect(scraped.status).toBe(200);
      // The main port's 404 above was counted, as unmatched it is not: /metrics is a route.
      expect(
        sample(scraped.text, "http_requests_total", {
          route: "/metrics",
          method: "GET",
          status: "404",
        }),
      ).toBe(1);
      expect(sample(scraped.text, "bus_connected")).toBe(1);
      // Nothing else of the application is on that port.
      expect((await metricsPort.get("/api/v1/health")).status).toBe(404);
    });
  },
);

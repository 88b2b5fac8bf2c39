import { reality_check_default, responsibleTradingMessages } from "@tp/domain/responsible-trading";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postEntry, systemAccountId, traderAccountId } from "../src/ledger/ledger.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import {
  settlement_feed_wait_ms,
  settlement_grace_ms,
  settlement_record_lag_ms,
} from "../src/trading/settlement.ts";
import { signedInTrader, signInStaff } from "./support/accounts.ts";
import { staff } from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";

const minute_ms = 60_000;
const settingPath = "/api/v1/responsible-trading/reality-check";
const figuresPath = "/api/v1/responsible-trading/session";

describe.each(databaseKindsUnderTest())("reality check (issue 14 item 3) on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    // Real trades on the test's own ticks (simulated prices), as funding-race.test.ts does.
    platform = await startTestPlatform(kind, {
      env: {
        ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true",
        ADMIN_EMAIL: staff.email,
        ADMIN_PASSWORD: staff.password,
      },
    });
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  /** Real money from the house account, as trading.test.ts stands in for a deposit. */
  async function creditReal(userId: number, cents: number) {
    await platform.database.transaction(async (transaction) => {
      await postEntry(transaction, {
        kind: "adjustment",
        reference: `test:credit:${userId}`,
        at: platform.clock.now(),
        postings: [
          { accountId: await systemAccountId(transaction, "house:real"), amountCents: -cents },
          { accountId: await traderAccountId(transaction, userId, "real"), amountCents: cents },
        ],
      });
    });
  }

  it("is on every 60 minutes until the trader changes it; the change is kept", async () => {
    const trader = await signedInTrader(platform);
    const first = await http.get(settingPath, trader.token);
    expect(first.status).toBe(200);
    expect(first.body.data.reality_check).toEqual({ enabled: true, interval_minutes: 60 });
    expect(reality_check_default).toEqual({ enabled: true, interval_minutes: 60 });

    const saved = await http.request("PUT", settingPath, {
      json: { enabled: false, interval_minutes: 15 },
      token: trader.token,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.message).toBe(responsibleTradingMessages.realityCheckSaved);
    expect(saved.body.data.reality_check).toEqual({ enabled: false, interval_minutes: 15 });
    const again = await http.get(settingPath, trader.token);
    expect(again.body.data.reality_check).toEqual({ enabled: false, interval_minutes: 15 });

    // Another trader still has the default: the setting is per user.
    const other = await signedInTrader(platform);
    expect((await http.get(settingPath, other.token)).body.data.reality_check).toEqual({
      enabled: true,
      interval_minutes: 60,
    });
  });

  it.each([
    { interval_minutes: 9, enabled: true, field: "interval_minutes" },
    { interval_minutes: 61, enabled: true, field: "interval_minutes" },
    { interval_minutes: "30", enabled: true, field: "interval_minutes" },
    { interval_minutes: 12.5, enabled: true, field: "interval_minutes" },
    { interval_minutes: 30, enabled: "yes", field: "enabled" },
  ])("refuses $field in %o with 422 and the form's message, changing nothing", async (row) => {
    const trader = await signedInTrader(platform);
    const { field, ...body } = row;
    const reply = await http.request("PUT", settingPath, { json: body, token: trader.token });
    expect(reply.status, reply.text).toBe(422);
    const message =
      field === "enabled"
        ? responsibleTradingMessages.enabledInvalid
        : responsibleTradingMessages.intervalInvalid;
    expect(reply.body.errors[field]).toEqual([message]);
    expect((await http.get(settingPath, trader.token)).body.data.reality_check).toEqual({
      enabled: true,
      interval_minutes: 60,
    });
  });

  it("is only for a signed-in trader: 401 without a session, 403 for staff (no trading)", async () => {
    expect((await http.get(settingPath)).status).toBe(401);
    expect((await http.get(figuresPath)).status).toBe(401);
    const staffToken = await signInStaff(platform, staff.email, staff.password);
    expect((await http.get(settingPath, staffToken)).status).toBe(403);
    expect((await http.get(figuresPath, staffToken)).status).toBe(403);
    const put = await http.request("PUT", settingPath, {
      json: { enabled: false, interval_minutes: 30 },
      token: staffToken,
    });
    expect(put.status).toBe(403);
  });

  it("counts this session's real trades exactly: won, lost and refunded; practice and earlier sessions not", async () => {
    const trader = await signedInTrader(platform);
    const sessionStart = platform.clock.now();
    await creditReal(trader.user.id, 1_000_00);

    const before = await http.get(figuresPath, trader.token);
    expect(before.status, before.text).toBe(200);
    expect(before.body.data).toMatchObject({
      reality_check: { enabled: true, interval_minutes: 60 },
      session_started_at: sessionStart.toISOString(),
      next_check_at: new Date(sessionStart.getTime() + 60 * minute_ms).toISOString(),
      trades: 0,
      stakes: 0,
      result: 0,
    });

    await advanceWithTick(platform, "EURUSD", 1.05, 1_000);
    await advanceWithTick(platform, "GBPJPY", 197.5, 0);
    const place = async (body: Record<string, unknown>) => {
      const reply = await http.post(
        "/api/v1/place-trade",
        { duration: 30, is_practice: false, ...body },
        trader.token,
      );
      expect(reply.status, reply.text).toBe(201);
      return reply.body.data.trade as { id: number; profit: number };
    };
    const won = await place({ asset: "EURUSD", type: "call", amount: 100.37 });
    const lost = await place({ asset: "EURUSD", type: "put", amount: 50.21 });
    const refunded = await place({ asset: "GBPJPY", type: "call", amount: 20.05 });
    await place({ asset: "EURUSD", type: "call", amount: 100, is_practice: true });

    // Placed, none settled: three real trades and their stakes, no result yet.
    const open = (await http.get(figuresPath, trader.token)).body.data;
    expect(open).toMatchObject({ trades: 3, stakes: 170.63, result: 0 });

    // EURUSD ends higher (the call wins, the put loses); GBPJPY's feed goes quiet: refunded.
    await advanceWithTick(platform, "GBPJPY", 197.9, 1_000);
    await platform.context.marketData.flush();
    await advanceWithTick(platform, "EURUSD", 1.2, 9_000);
    await advanceWithTick(platform, "EURUSD", 1.1, 19_900);
    await advanceWithTick(platform, "EURUSD", 1.1, 300);
    await platform.context.settlement.settleDue();
    platform.clock.advance(
      settlement_grace_ms + settlement_record_lag_ms + settlement_feed_wait_ms,
    );
    await platform.context.settlement.settleDue();

    const statusOf = async (id: number) =>
      (await http.get(`/api/v1/trades/${id}`, trader.token)).body.data.trade.status;
    expect([await statusOf(won.id), await statusOf(lost.id), await statusOf(refunded.id)]).toEqual([
      "won",
      "lost",
      "tie",
    ]);

    // Result: the win's profit, less the lost stake; the refund gives its stake back (0).
    const settled = (await http.get(figuresPath, trader.token)).body.data;
    const expectedResultCents = Math.round(won.profit * 100) - 50_21;
    expect(settled).toMatchObject({ trades: 3, stakes: 170.63 });
    expect(Math.round(settled.result * 100)).toBe(expectedResultCents);
    expect(settled.result).toBe(expectedResultCents / 100);
    expect(settled.session_started_at).toBe(sessionStart.toISOString());

    // A new sign-in is a new session: it starts from nothing.
    const login = await http.post("/api/v1/login", {
      email: trader.email,
      password: trader.password,
    });
    expect(login.status).toBe(200);
    const next = (await http.get(figuresPath, login.body.data.token)).body.data;
    expect(next).toMatchObject({ trades: 0, stakes: 0, result: 0 });
    expect(Date.parse(next.session_started_at)).toBeGreaterThan(sessionStart.getTime());
  });

  it("gives the next check after now, a whole number of the trader's intervals after sign-in", async () => {
    const trader = await signedInTrader(platform);
    const start = platform.clock.now().getTime();
    await http.request("PUT", settingPath, {
      json: { enabled: true, interval_minutes: 10 },
      token: trader.token,
    });
    platform.clock.advance(25 * minute_ms);
    const figures = (await http.get(figuresPath, trader.token)).body.data;
    expect(figures.next_check_at).toBe(new Date(start + 30 * minute_ms).toISOString());
    expect(figures.now).toBe(platform.clock.now().toISOString());

    await http.request("PUT", settingPath, {
      json: { enabled: false, interval_minutes: 10 },
      token: trader.token,
    });
    expect((await http.get(figuresPath, trader.token)).body.data.next_check_at).toBeNull();
  });
});

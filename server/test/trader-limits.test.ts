import {
  excludedMessage,
  exclusionNotShortenedMessage,
  moneyLimitReachedMessage,
  openTradesLimitReachedMessage,
  sessionLimitReachedMessage,
  traderLimitMessages,
} from "@tp/domain/trader-limits";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postEntry, systemAccountId, traderAccountId } from "../src/ledger/ledger.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";

const limitsPath = "/api/v1/responsible-trading/limits";
const exclusionPath = "/api/v1/responsible-trading/exclusion";
const hour_ms = 3_600_000;
const asset = "BTCUSDT"; // crypto trades every day: the clock may cross a weekend

describe.each(databaseKindsUnderTest())(
  "trader limits and breaks (issue 14 items 1-2) on %s",
  (kind) => {
    let platform: TestPlatform;
    let http: ReturnType<typeof httpClient>;
    let admin: string;

    beforeAll(async () => {
      platform = await startFundingPlatform(kind, {
        ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true",
      });
      http = httpClient(platform.baseUrl);
      admin = await staffToken(platform);
      await configurePaymentMethods(platform, admin);
    });
    afterAll(async () => platform?.close());
    afterEach(async () => {
      expect(await platform.ledgerViolations()).toEqual([]);
    });

    async function creditReal(userId: number, cents: number) {
      await platform.database.transaction(async (transaction) => {
        await postEntry(transaction, {
          kind: "adjustment",
          reference: `test:credit:${userId}:${cents}`,
          at: platform.clock.now(),
          postings: [
            { accountId: await systemAccountId(transaction, "house:real"), amountCents: -cents },
            { accountId: await traderAccountId(transaction, userId, "real"), amountCents: cents },
          ],
        });
      });
    }

    async function fundedTrader(cents = 10_000_00) {
      const trader = await signedInTrader(platform);
      await creditReal(trader.user.id, cents);
      await advanceWithTick(platform, asset, 50_000, 1_000);
      return trader;
    }

    function trade(token: string, amount: number, is_practice = false) {
      return http.post(
        "/api/v1/place-trade",
        { asset, type: "call", amount, duration: 60, is_practice },
        token,
      );
    }

    async function setLimits(token: string, json: Record<string, number | null>) {
      const reply = await http.request("PUT", limitsPath, { json, token });
      expect(reply.status, reply.text).toBe(200);
      return reply.body as {
        message: string;
        data: {
          limits: Array<{
            kind: string;
            value: number | null;
            pending: { value: number | null; effective_at: string } | null;
            used: number;
            resets_at: string | null;
          }>;
        };
      };
    }

    async function realTradesOf(userId: number) {
      const result = await platform.database.query<{ n: number; stakes: number }>(
        `SELECT COUNT(*)::bigint AS n, COALESCE(SUM(stake_cents), 0)::bigint AS stakes
       FROM trades WHERE user_id = $1 AND NOT is_practice`,
        [userId],
      );
      return result.rows[0]!;
    }

    it("shows every limit unset at first, then what is in force and used; the refusal names the limit and the used amount", async () => {
      const trader = await fundedTrader();
      const first = await http.get(limitsPath, trader.token);
      expect(first.status, first.text).toBe(200);
      expect(first.body.data.limits).toHaveLength(11);
      for (const limit of first.body.data.limits) {
        expect(limit).toMatchObject({ value: null, pending: null });
      }

      const saved = await setLimits(trader.token, { loss_day: 100 });
      expect(saved.message).toBe(traderLimitMessages.limitsSaved);
      expect(saved.data.limits.find((l) => l.kind === "loss_day")).toMatchObject({
        value: 100,
        pending: null,
        used: 0,
        // The day after the test clock's 2026-01-15, 00:00 UTC.
        resets_at: "2026-01-16T00:00:00.000Z",
      });

      expect((await trade(trader.token, 92.5)).status).toBe(201);
      const over = await trade(trader.token, 7.51);
      expect(over.status, over.text).toBe(403);
      expect(over.body.code).toBe("LIMIT_REACHED");
      expect(over.body.message).toBe(moneyLimitReachedMessage("loss_day", 100_00, 92_50));
      expect(over.body.message).toBe(
        "This trade would exceed your daily loss limit of $100.00 (used: $92.50)",
      );
      // Exactly up to the limit is allowed; practice is never limited.
      expect((await trade(trader.token, 7.5)).status).toBe(201);
      expect((await trade(trader.token, 500, true)).status).toBe(201);
      const after = (await http.get(limitsPath, trader.token)).body.data.limits;
      expect(after.find((l: { kind: string }) => l.kind === "loss_day").used).toBe(100);
      expect(await realTradesOf(trader.user.id)).toEqual({ n: 2, stakes: 100_00 });
    });

    it.each([
      ["loss_day", "a loss limit"],
      ["stake_week", "a stake limit"],
    ] as const)("lets 50 trades at once never exceed %s (%s)", async (limitKind, _what) => {
      const trader = await fundedTrader();
      await setLimits(trader.token, { [limitKind]: 100 });
      const replies = await Promise.all(Array.from({ length: 50 }, () => trade(trader.token, 7)));
      const placed = replies.filter((reply) => reply.status === 201).length;
      const refused = replies.filter(
        (reply) => reply.status === 403 && reply.body.code === "LIMIT_REACHED",
      ).length;
      expect(placed + refused).toBe(50);
      // 14 × $7 = $98 fits under $100; a 15th would make $105.
      expect(placed).toBe(14);
      expect(await realTradesOf(trader.user.id)).toEqual({ n: 14, stakes: 98_00 });
    });

    it("counts open trades against the open-trades limit, and the session's age against the session limit", async () => {
      const trader = await fundedTrader();
      await setLimits(trader.token, { open_trades: 2, session_minutes: 30 });
      expect((await trade(trader.token, 1)).status).toBe(201);
      expect((await trade(trader.token, 1)).status).toBe(201);
      const third = await trade(trader.token, 1);
      expect(third.status).toBe(403);
      expect(third.body.message).toBe(openTradesLimitReachedMessage(2));

      // Let the two settle: a new one fits again, until the session is 30 minutes old.
      await advanceWithTick(platform, asset, 50_100, 61_000);
      await advanceWithTick(platform, asset, 50_100, 5_000);
      await platform.context.settlement.settleDue();
      await advanceWithTick(platform, asset, 50_100, 0);
      expect((await trade(trader.token, 1)).status).toBe(201);
      await advanceWithTick(platform, asset, 50_200, 29 * 60_000);
      const late = await trade(trader.token, 1);
      expect(late.status, late.text).toBe(403);
      expect(late.body.message).toBe(sessionLimitReachedMessage(30));
      // A new sign-in starts a new session.
      const login = await http.post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      });
      await platform.context.settlement.settleDue();
      expect((await trade(login.body.data.token, 1)).status).toBe(201);
    });

    it("lowers at once but raises and removes only after 24 hours", async () => {
      const trader = await fundedTrader();
      await setLimits(trader.token, { stake_day: 100, loss_month: 500 });
      const raised = await setLimits(trader.token, { stake_day: 200, loss_month: null });
      expect(raised.message).toBe(traderLimitMessages.limitsSavedWithPending);
      const effectiveAt = new Date(platform.clock.now().getTime() + 24 * hour_ms).toISOString();
      const byKind = (limits: typeof raised.data.limits, kind: string) =>
        limits.find((l) => l.kind === kind)!;
      expect(byKind(raised.data.limits, "stake_day")).toMatchObject({
        value: 100,
        pending: { value: 200, effective_at: effectiveAt },
      });
      expect(byKind(raised.data.limits, "loss_month")).toMatchObject({
        value: 500,
        pending: { value: null, effective_at: effectiveAt },
      });

      await advanceWithTick(platform, asset, 50_000, 24 * hour_ms - 60_000);
      const token = (
        await http.post("/api/v1/login", { email: trader.email, password: trader.password })
      ).body.data.token;
      const early = await trade(token, 150);
      expect(early.status).toBe(403);
      expect(early.body.message).toBe(moneyLimitReachedMessage("stake_day", 100_00, 0));

      await advanceWithTick(platform, asset, 50_000, 60_000);
      expect((await trade(token, 150)).status).toBe(201);
      const now = (await http.get(limitsPath, token)).body.data.limits;
      expect(byKind(now, "stake_day")).toMatchObject({ value: 200, pending: null, used: 150 });
      expect(byKind(now, "loss_month")).toMatchObject({ value: null, pending: null });

      // Lowering while a raise waits: at once, and the raise is dropped.
      await setLimits(token, { stake_day: 300 });
      const lowered = await setLimits(token, { stake_day: 160 });
      expect(lowered.message).toBe(traderLimitMessages.limitsSaved);
      expect(byKind(lowered.data.limits, "stake_day")).toMatchObject({ value: 160, pending: null });
      const over = await trade(token, 10.01);
      expect(over.body.message).toBe(moneyLimitReachedMessage("stake_day", 160_00, 150_00));
    });

    it("refuses a deposit that would cross a deposit limit, in the deposit's own transaction", async () => {
      const trader = await signedInTrader(platform);
      await setLimits(trader.token, { deposit_week: 250 });
      const deposit = (amount: number) =>
        http.post("/api/v1/deposits", { payment_method_id: "bitcoin", amount }, trader.token);
      const replies = await Promise.all([deposit(100), deposit(100), deposit(100)]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 403]);
      const refused = replies.find((reply) => reply.status === 403)!;
      expect(refused.body.code).toBe("LIMIT_REACHED");
      expect(refused.body.message).toBe(moneyLimitReachedMessage("deposit_week", 250_00, 200_00));
      // A cancelled deposit no longer counts.
      const first = replies.find((reply) => reply.status === 201)!;
      expect(
        (
          await http.request("DELETE", `/api/v1/deposits/${first.body.data.deposit_id}`, {
            token: trader.token,
          })
        ).status,
      ).toBe(200);
      expect((await deposit(150)).status).toBe(201);
    });

    it.each([
      ["a time-out", { kind: "time_out", days: 7 }],
      ["self-exclusion", { kind: "self_exclusion", months: 6 }],
    ] as const)(
      "stops trading and deposits at once during %s, not withdrawals; it cannot be shortened",
      async (_name, request) => {
        // Earlier tests moved the clock past the staff session's life: sign in again.
        admin = await staffToken(platform);
        const trader = await withdrawableTrader(platform, admin, 300);
        await advanceWithTick(platform, asset, 50_000, 1_000);
        expect((await trade(trader.token, 10)).status).toBe(201);

        const started = await http.post(exclusionPath, request, trader.token);
        expect(started.status, started.text).toBe(201);
        expect(started.body.message).toBe(traderLimitMessages.exclusionStarted);
        const endsAt = started.body.data.exclusion.ends_at as string;
        expect(started.body.data.exclusion).toMatchObject({
          kind: request.kind,
          started_at: platform.clock.now().toISOString(),
        });
        expect(Date.parse(endsAt)).toBe(
          request.kind === "time_out"
            ? platform.clock.now().getTime() + 7 * 24 * hour_ms
            : Date.parse("2026-07-15T12:00:00.000Z") +
                (platform.clock.now().getTime() - Date.parse("2026-01-15T12:00:00.000Z")),
        );

        for (const is_practice of [false, true]) {
          const refused = await trade(trader.token, 10, is_practice);
          expect(refused.status).toBe(403);
          expect(refused.body.code).toBe("EXCLUDED");
          expect(refused.body.message).toBe(excludedMessage(request.kind, endsAt));
        }
        const deposit = await http.post(
          "/api/v1/deposits",
          { payment_method_id: "bitcoin", amount: 50 },
          trader.token,
        );
        expect(deposit.status).toBe(403);
        expect(deposit.body.message).toBe(excludedMessage(request.kind, endsAt));

        // The open trade settles as usual; a withdrawal still goes through.
        await advanceWithTick(platform, asset, 49_000, 61_000);
        await advanceWithTick(platform, asset, 49_000, 5_000);
        await platform.context.settlement.settleDue();
        const open = await platform.database.query<{ n: number }>(
          "SELECT COUNT(*)::bigint AS n FROM trades WHERE user_id = $1 AND status = 'open'",
          [trader.user.id],
        );
        expect(open.rows[0]!.n).toBe(0);
        const withdrawal = await http.post(
          "/api/v1/withdrawals",
          {
            payment_method_id: "bitcoin",
            amount: 50,
            withdrawal_details: { wallet_address: "bc1qtraderownwallet0000000000" },
          },
          trader.token,
        );
        expect(withdrawal.status, withdrawal.text).toBe(201);
        await confirmWithdrawalByEmail(
          platform,
          trader.email,
          withdrawal.body.data.transaction_hash,
        );

        // Shorter (or as long) is refused; longer replaces it.
        const shorter = await http.post(exclusionPath, { kind: "time_out", days: 1 }, trader.token);
        expect(shorter.status).toBe(409);
        expect(shorter.body.code).toBe("EXCLUSION_NOT_SHORTENED");
        expect(shorter.body.message).toBe(exclusionNotShortenedMessage(endsAt));
        const longer = await http.post(
          exclusionPath,
          { kind: "self_exclusion", months: 12 },
          trader.token,
        );
        expect(longer.status, longer.text).toBe(201);
        expect((await http.get(exclusionPath, trader.token)).body.data.exclusion.kind).toBe(
          "self_exclusion",
        );
      },
    );

    it("ends a time-out at its end: trading comes back", async () => {
      const trader = await fundedTrader();
      expect(
        (await http.post(exclusionPath, { kind: "time_out", days: 2 }, trader.token)).status,
      ).toBe(201);
      await advanceWithTick(platform, asset, 50_000, 48 * hour_ms - 1_000);
      const token = (
        await http.post("/api/v1/login", { email: trader.email, password: trader.password })
      ).body.data.token;
      expect((await trade(token, 5)).status).toBe(403);
      await advanceWithTick(platform, asset, 50_000, 1_000);
      expect((await trade(token, 5)).status).toBe(201);
      expect((await http.get(exclusionPath, token)).body.data.exclusion).toBeNull();
    });

    it.each([
      [{ loss_day: 0 }, "loss_day", traderLimitMessages.moneyInvalid],
      [{ stake_week: 10.001 }, "stake_week", traderLimitMessages.moneyInvalid],
      [{ deposit_month: "100" }, "deposit_month", traderLimitMessages.moneyInvalid],
      [{ open_trades: 1.5 }, "open_trades", traderLimitMessages.openTradesInvalid],
      [{ session_minutes: 5 }, "session_minutes", traderLimitMessages.sessionInvalid],
    ])(
      "refuses limits %o with 422 and the form's message, changing nothing",
      async (json, field, message) => {
        const trader = await signedInTrader(platform);
        const reply = await http.request("PUT", limitsPath, { json, token: trader.token });
        expect(reply.status, reply.text).toBe(422);
        expect(reply.body.errors[field]).toEqual([message]);
        const limits = (await http.get(limitsPath, trader.token)).body.data.limits;
        expect(limits.every((l: { value: unknown }) => l.value === null)).toBe(true);
      },
    );

    it.each([
      [{ kind: "time_out", days: 43 }, "days", traderLimitMessages.timeOutInvalid],
      [{ kind: "self_exclusion", months: 5 }, "months", traderLimitMessages.selfExclusionInvalid],
      [{ kind: "nap", days: 1 }, "kind", traderLimitMessages.exclusionKindInvalid],
    ])("refuses the break %o with 422, starting nothing", async (json, field, message) => {
      const trader = await signedInTrader(platform);
      const reply = await http.post(exclusionPath, json, trader.token);
      expect(reply.status, reply.text).toBe(422);
      expect(Object.values(reply.body.errors ?? {}).flat()).toContain(message);
      expect(field).toBeTruthy();
      expect((await http.get(exclusionPath, trader.token)).body.data.exclusion).toBeNull();
    });
  },
);

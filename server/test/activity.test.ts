import { activity_window_ms, engagementMessages } from "@tp/domain/engagement";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  depositApproved,
  pngBytes,
  postForm,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const bitcoinDetails = { wallet_address: "bc1qtraderownwallet0000000000" };

describe.each(databaseKindsUnderTest())("recent activity on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
  });
  afterAll(async () => platform?.close());

  const recent = async (token: string) => {
    const reply = await http.get("/api/v1/activity/recent", token);
    expect(reply.status).toBe(200);
    return reply.body.data as { enabled: boolean; data: Array<Record<string, unknown>> };
  };

  it("needs a signed-in trader", async () => {
    const reply = await http.get("/api/v1/activity/recent");
    expect(reply.status).toBe(401);
  });

  it("shows only confirmed deposits and paid withdrawals of the last 24 hours, anonymised", async () => {
    const viewer = await signedInTrader(platform);
    // An empty platform has nothing to show: no toast.
    expect(await recent(viewer.token)).toEqual({ enabled: true, data: [] });

    // Money that did not (yet) move is not activity: a deposit under review, a rejected one,
    // a pending and a rejected withdrawal.
    const trader = await withdrawableTrader(platform, admin, 0);
    const underReview = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 11 },
      trader.token,
    );
    await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${underReview.body.data.deposit_id}/receipt`,
      { transaction_hash: underReview.body.data.transaction_hash },
      { field: "receipt", bytes: pngBytes(), name: "r.png", type: "image/png" },
      trader.token,
    );
    const rejected = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 12 },
      trader.token,
    );
    await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${rejected.body.data.deposit_id}/receipt`,
      { transaction_hash: rejected.body.data.transaction_hash },
      { field: "receipt", bytes: pngBytes(), name: "r.png", type: "image/png" },
      trader.token,
    );
    const rejection = await http.post(
      `/api/v1/admin/deposits/${rejected.body.data.deposit_id}/reject`,
      { reason: "No such payment" },
      admin,
    );
    expect(rejection.status).toBe(200);
    expect((await recent(viewer.token)).data).toEqual([]);

    await depositApproved(platform, trader.token, admin, 250.5);
    platform.clock.advance(60_000);
    const pending = await http.post(
      "/api/v1/withdrawals",
      { payment_method_id: "bitcoin", amount: 40, withdrawal_details: bitcoinDetails },
      trader.token,
    );
    expect(pending.status).toBe(201);
    const paid = await http.post(
      "/api/v1/withdrawals",
      { payment_method_id: "bitcoin", amount: 75.25, withdrawal_details: bitcoinDetails },
      trader.token,
    );
    expect(paid.status).toBe(201);
    await confirmWithdrawalByEmail(platform, trader.email, paid.body.data.transaction_hash);
    const payout = await http.post(
      `/api/v1/admin/withdrawals/${paid.body.data.withdrawal_id}/approve`,
      { payout_reference: "tx-0001" },
      admin,
    );
    expect(payout.status).toBe(200);

    const shown = await recent(viewer.token);
    expect(shown.enabled).toBe(true);
    // Newest first; exactly these fields: no trader, id, hash or reference.
    expect(shown.data).toEqual([
      {
        kind: "withdrawal",
        amount: 75.25,
        currency: "USD",
        method: "Bitcoin",
        at: "2026-01-15T12:01:00.000Z",
      },
      {
        kind: "deposit",
        amount: 250.5,
        currency: "USD",
        method: "Bitcoin",
        at: "2026-01-15T12:00:00.000Z",
      },
    ]);
    const text = JSON.stringify(shown);
    for (const secret of [trader.email, paid.body.data.transaction_hash, "tx-0001"]) {
      expect(text).not.toContain(secret);
    }

    // A day later they are no longer recent (read by a fresh session: a trader's session
    // ends after 24 idle hours).
    platform.clock.advance(activity_window_ms - 30_000);
    const later = await http.post("/api/v1/login", {
      email: viewer.email,
      password: viewer.password,
    });
    viewer.token = later.body.data.token;
    expect((await recent(viewer.token)).data.map((item) => item.kind)).toEqual(["withdrawal"]);
    platform.clock.advance(60_000);
    expect((await recent(viewer.token)).data).toEqual([]);
  });

  describe("turned off by the operator", () => {
    let off: TestPlatform;
    beforeAll(async () => {
      off = await startFundingPlatform(kind, { ACTIVITY_TOAST_ENABLED: "false" });
    });
    afterAll(async () => off?.close());

    it("answers an empty list that says so, even with real transactions", async () => {
      const staff = await staffToken(off);
      await configurePaymentMethods(off, staff);
      const trader = await signedInTrader(off);
      await depositApproved(off, trader.token, staff, 20);
      const reply = await httpClient(off.baseUrl).get("/api/v1/activity/recent", trader.token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        status: "success",
        message: engagementMessages.activityDisabled,
        data: { enabled: false, data: [] },
      });
    });
  });
});

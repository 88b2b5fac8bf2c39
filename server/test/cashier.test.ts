import {
  awaiting_deposits_max,
  fundingMessages as f,
  tooManyAwaitingDepositsMessage,
  withdrawal_processing_hours_max,
} from "@tp/domain/funding";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expireUnpaidDeposits } from "../src/funding/deposits.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  balancesOf,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  notificationsOf,
  pngBytes,
  postForm,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const hour_ms = 60 * 60 * 1000;
/** Not the default 24: the window must come from the configuration. */
const window_hours = 3;

/**
 * Issue 13 item 4, a cashier with no dead ends: unpaid deposits expire with a notification
 * and free their place under the cap; cancels of deposits and withdrawals are the owner's
 * only and idempotent; a withdrawal carries its timeline.
 */
describe.each(databaseKindsUnderTest())("cashier on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind, {
      DEPOSIT_PAYMENT_WINDOW_HOURS: String(window_hours),
    });
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
  }, 180_000);
  afterAll(async () => platform?.close());
  beforeEach(async () => {
    // Everything left awaiting payment by an earlier test is expired first, so each test
    // counts only its own deposits; staff sessions idle out when tests move the clock.
    while ((await expireUnpaidDeposits(platform.context, new Date("9999-01-01T00:00:00Z"))) > 0);
    admin = await staffToken(platform);
  });
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  const openDeposit = async (token: string, amount = 40, method = "bitcoin") => {
    const created = await http.post(
      "/api/v1/deposits",
      { payment_method_id: method, amount },
      token,
    );
    expect(created.status).toBe(201);
    return created.body.data as {
      deposit_id: number;
      transaction_hash: string;
      deposit: { payment_expires_at: string; created_at: string };
    };
  };

  it("expires a deposit left unpaid past the window, tells the trader, and spares one with proof", async () => {
    const trader = await signedInTrader(platform);
    const unpaid = await openDeposit(trader.token, 40);
    const proven = await openDeposit(trader.token, 55);
    expect(
      Date.parse(unpaid.deposit.payment_expires_at) - Date.parse(unpaid.deposit.created_at),
    ).toBe(window_hours * hour_ms);
    const receipt = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${proven.deposit_id}/receipt`,
      { transaction_hash: proven.transaction_hash },
      { field: "receipt", bytes: pngBytes(), name: "receipt.png", type: "image/png" },
      trader.token,
    );
    expect(receipt.status).toBe(200);

    // A minute before the window closes nothing moves.
    platform.clock.advance(window_hours * hour_ms - 60_000);
    expect(await expireUnpaidDeposits(platform.context, platform.clock.now())).toBe(0);
    platform.clock.advance(60_000);
    expect(await expireUnpaidDeposits(platform.context, platform.clock.now())).toBe(1);

    const expired = await http.get(`/api/v1/deposits/${unpaid.deposit_id}`, trader.token);
    expect(expired.body.data.deposit.status).toBe("expired");
    const underReview = await http.get(`/api/v1/deposits/${proven.deposit_id}`, trader.token);
    expect(underReview.body.data.deposit.status).toBe("under_review");

    const notes = await notificationsOf(platform, trader.user.id);
    const expiredNotes = notes.filter((note) => note.kind === "deposit_expired");
    expect(expiredNotes).toHaveLength(1);
    expect(expiredNotes[0]!.title).toBe("Deposit expired");
    expect(expiredNotes[0]!.message).toContain(unpaid.transaction_hash);
    expect(expiredNotes[0]!.message).toContain("$40.00");

    // The history shows it with its state; proof, cancel and a second pass all see it gone.
    const history = await http.get("/api/v1/transaction-history", trader.token);
    const row = history.body.data.data.find(
      (item: { transactionId: string }) => item.transactionId === unpaid.transaction_hash,
    );
    expect(row.status).toBe("expired");
    const late = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${unpaid.deposit_id}/receipt`,
      { transaction_hash: unpaid.transaction_hash },
      { field: "receipt", bytes: pngBytes(), name: "receipt.png", type: "image/png" },
      trader.token,
    );
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      code: "DEPOSIT_NOT_AWAITING_PAYMENT",
      message: f.depositExpired,
    });
    const cancel = await http.request("DELETE", `/api/v1/deposits/${unpaid.deposit_id}`, {
      token: trader.token,
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe(f.depositExpired);
    expect(await expireUnpaidDeposits(platform.context, platform.clock.now())).toBe(0);
    expect(
      (await notificationsOf(platform, trader.user.id)).filter(
        (note) => note.kind === "deposit_expired",
      ),
    ).toHaveLength(1);
  });

  it("the cap names the way out, and expiry frees its places", async () => {
    const trader = await signedInTrader(platform);
    for (let index = 0; index < awaiting_deposits_max; index++) {
      await openDeposit(trader.token, 5, "western-union");
    }
    const refused = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "western-union", amount: 5 },
      trader.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: "TOO_MANY_AWAITING_DEPOSITS",
      message: tooManyAwaitingDepositsMessage,
    });
    expect(refused.body.message).toMatch(/Continue .* or cancel one in your Transaction History/);

    platform.clock.advance(window_hours * hour_ms);
    expect(await expireUnpaidDeposits(platform.context, platform.clock.now())).toBe(
      awaiting_deposits_max,
    );
    await openDeposit(trader.token, 5, "western-union");
  });

  it("cancels only the trader's own deposit, and a second cancel is the same answer", async () => {
    const owner = await signedInTrader(platform);
    const other = await signedInTrader(platform);
    const { deposit_id } = await openDeposit(owner.token, 12);

    const stranger = await http.request("DELETE", `/api/v1/deposits/${deposit_id}`, {
      token: other.token,
    });
    expect(stranger.status).toBe(404);
    expect(
      (await http.get(`/api/v1/deposits/${deposit_id}`, owner.token)).body.data.deposit,
    ).toMatchObject({ status: "awaiting_payment" });

    const first = await http.request("DELETE", `/api/v1/deposits/${deposit_id}`, {
      token: owner.token,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.deposit.status).toBe("cancelled");
    const second = await http.request("DELETE", `/api/v1/deposits/${deposit_id}`, {
      token: owner.token,
    });
    expect(second.status).toBe(200);
    expect(second.body.data.deposit).toEqual(first.body.data.deposit);
    // Cancelled by the trader: it never expires later, nor is anyone notified of it.
    platform.clock.advance(window_hours * hour_ms);
    expect(await expireUnpaidDeposits(platform.context, platform.clock.now())).toBe(0);
    expect(await notificationsOf(platform, owner.user.id)).toEqual([]);
  });

  it("the crypto step gets the coin's price only from a live real feed, never a simulated or stale one", async () => {
    const trader = await signedInTrader(platform);
    const wallet = () => http.get("/api/v1/payment-methods/bitcoin/wallet", trader.token);
    expect((await wallet()).body.data.coin_price).toBeNull();

    const store = platform.context.marketData.store;
    const now = platform.clock.now().getTime();
    store.record({ symbol: "BTCUSDT", price: 64_000, at: now - 1, source: "simulated" });
    expect((await wallet()).body.data.coin_price).toBeNull();

    store.record({ symbol: "BTCUSDT", price: 65_000, at: now, source: "binance" });
    expect((await wallet()).body.data.coin_price).toEqual({
      symbol: "BTCUSDT",
      coin: "BTC",
      quote_currency: "USDT",
      price: 65_000,
      at: new Date(now).toISOString(),
      source: "binance",
    });
    // Stale: the same tick an hour later is no longer a price to quote.
    platform.clock.advance(hour_ms);
    expect((await wallet()).body.data.coin_price).toBeNull();
  });

  const withdrawalBody = {
    payment_method_id: "bitcoin",
    amount: 25,
    withdrawal_details: { wallet_address: "bc1qtimelinetest000000000000000" },
  };

  it("a withdrawal's timeline: each step with its time, and the next one with its expected time", async () => {
    const trader = await withdrawableTrader(platform, admin, 100);
    const requested = await http.post("/api/v1/withdrawals", withdrawalBody, trader.token);
    expect(requested.status).toBe(201);
    const { withdrawal_id, transaction_hash } = requested.body.data;
    const requestedAt = platform.clock.now();
    const linkHours = platform.context.config.WITHDRAWAL_CONFIRMATION_HOURS;
    expect(requested.body.data.withdrawal.timeline).toEqual([
      { step: "requested", at: requestedAt.toISOString(), expected_by: null, note: null },
      {
        step: "confirmed",
        at: null,
        expected_by: new Date(requestedAt.getTime() + linkHours * hour_ms).toISOString(),
        note: expect.stringContaining("e-mailed"),
      },
    ]);

    platform.clock.advance(10 * 60_000);
    const confirmedAt = platform.clock.now();
    await confirmWithdrawalByEmail(platform, trader.email, transaction_hash);
    const pending = await http.get(`/api/v1/withdrawals/${withdrawal_id}`, trader.token);
    expect(pending.body.data.withdrawal.timeline).toEqual([
      { step: "requested", at: requestedAt.toISOString(), expected_by: null, note: null },
      { step: "confirmed", at: confirmedAt.toISOString(), expected_by: null, note: null },
      { step: "under_review", at: confirmedAt.toISOString(), expected_by: null, note: null },
      {
        step: "processed",
        at: null,
        expected_by: new Date(
          confirmedAt.getTime() + withdrawal_processing_hours_max * hour_ms,
        ).toISOString(),
        note: expect.any(String),
      },
    ]);

    platform.clock.advance(hour_ms);
    admin = await staffToken(platform);
    const rejectedAt = platform.clock.now();
    const rejected = await http.post(
      `/api/v1/admin/withdrawals/${withdrawal_id}/reject`,
      { reason: "The wallet belongs to someone else" },
      admin,
    );
    expect(rejected.status).toBe(200);
    const done = await http.get(`/api/v1/withdrawals/${withdrawal_id}`, trader.token);
    const timeline = done.body.data.withdrawal.timeline;
    expect(timeline.map((entry: { step: string }) => entry.step)).toEqual([
      "requested",
      "confirmed",
      "under_review",
      "rejected",
    ]);
    expect(timeline.at(-1)).toEqual({
      step: "rejected",
      at: rejectedAt.toISOString(),
      expected_by: null,
      note: "Reason: The wallet belongs to someone else",
    });
  });

  it("cancels a pending withdrawal once: the hold comes back through the ledger, a second cancel changes nothing, a stranger gets 404", async () => {
    const trader = await withdrawableTrader(platform, admin, 80);
    const other = await signedInTrader(platform);
    const requested = await http.post("/api/v1/withdrawals", withdrawalBody, trader.token);
    const { withdrawal_id } = requested.body.data;
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(55);

    const stranger = await http.request("DELETE", `/api/v1/withdrawals/${withdrawal_id}`, {
      token: other.token,
    });
    expect(stranger.status).toBe(404);
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(55);

    platform.clock.advance(60_000);
    const cancelledAt = platform.clock.now();
    const first = await http.request("DELETE", `/api/v1/withdrawals/${withdrawal_id}`, {
      token: trader.token,
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(f.withdrawalCancelled);
    expect(first.body.data.withdrawal.timeline.at(-1)).toEqual({
      step: "cancelled",
      at: cancelledAt.toISOString(),
      expected_by: null,
      note: "Cancelled by you; the amount was returned.",
    });
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(80);

    const second = await http.request("DELETE", `/api/v1/withdrawals/${withdrawal_id}`, {
      token: trader.token,
    });
    expect(second.status).toBe(200);
    expect(second.body.data.withdrawal).toEqual(first.body.data.withdrawal);
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(80);
    const releases = await platform.database.query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM journal_entries WHERE kind = 'withdrawal_release' AND reference = $1",
      [`withdrawal:${withdrawal_id}`],
    );
    expect(releases.rows[0]!.n).toBe(1);
  });
});

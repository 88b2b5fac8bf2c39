import {
  losingAccountsSentence,
  notEnoughDataSentence,
  roundedPercent,
} from "@tp/domain/losing-accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  countLosingAccounts,
  ensureTodaysSnapshot,
  latestSnapshot,
  losingAccountsPeriod,
} from "../src/disclosure/losing-accounts.ts";
import {
  type EntryKind,
  houseAccountCode,
  openTraderAccounts,
  postEntry,
  systemAccountId,
} from "../src/ledger/ledger.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { httpClient } from "./support/http.ts";

/**
 * The real share of losing accounts (issue 14 item 5), from a seeded ledger whose losers
 * are counted by hand below. Entries are posted through the ledger module, as placing and
 * settling trades posts them; the figure is then computed by the start (the worker) and by
 * direct calls at chosen instants of the manual clock.
 */
const day_ms = 24 * 60 * 60_000;
/** The platform clock's start (test-platform.ts). */
const start = new Date("2026-01-15T12:00:00Z");

function monthsBefore(months: number, days = 0): Date {
  const at = new Date(start);
  at.setUTCMonth(at.getUTCMonth() - months);
  return new Date(at.getTime() - days * day_ms);
}
function daysBefore(days: number): Date {
  return new Date(start.getTime() - days * day_ms);
}

describe.each(databaseKindsUnderTest())("the share of losing accounts on %s", (kind) => {
  let platform: TestPlatform;
  let userSequence = 0;
  let tradeSequence = 0;
  let referenceSequence = 0;

  beforeAll(async () => {
    platform = await startTestPlatform(kind, { env: { LOSING_ACCOUNTS_MIN_ACCOUNTS: "6" } });
  }, 120_000);
  afterAll(async () => platform?.close());

  async function newUser(role: "trader" | "support" = "trader") {
    userSequence += 1;
    return platform.database.transaction(async (transaction) => {
      const user = await transaction.query<{ id: number }>(
        `INSERT INTO users (email, username, password_hash, role, first_name, last_name, phone_number, country, referral_code, created_at, updated_at)
         VALUES ($1, $2, 'x', $3, 'A', 'B', '0000000000', 'Brazil', $4, $5, $5) RETURNING id`,
        [
          `losing${userSequence}@example.test`,
          `losing${userSequence}`,
          role,
          `LOSE${userSequence}`,
          daysBefore(800),
        ],
      );
      const userId = user.rows[0]!.id;
      return { userId, ...(await openTraderAccounts(transaction, userId)) };
    });
  }

  /** One entry between the trader's account and a system account (+ credits the trader). */
  async function post(
    entryKind: EntryKind,
    trader: { userId: number; real: number; practice: number },
    cents: number,
    at: Date,
    options: { practice?: boolean; reference?: string } = {},
  ) {
    const practice = options.practice ?? false;
    await platform.database.transaction(async (transaction) => {
      const other =
        entryKind === "deposit"
          ? "deposits:clearing"
          : entryKind === "withdrawal_hold"
            ? "withdrawals:held"
            : entryKind === "practice_topup"
              ? "house:practice"
              : houseAccountCode(practice, trader.userId);
      const systemId = await systemAccountId(transaction, other);
      await postEntry(transaction, {
        kind: entryKind,
        // Funding entries are unique per reference (migration 004): one per entry here.
        reference: options.reference ?? `test:${entryKind}:${++referenceSequence}`,
        at,
        postings: [
          { accountId: practice ? trader.practice : trader.real, amountCents: cents },
          { accountId: systemId, amountCents: -cents },
        ],
      });
    });
  }

  /** A stake (debit) and, when given, its payout or refund (credit) later. */
  async function trade(
    trader: { userId: number; real: number; practice: number },
    stakeCents: number,
    stakedAt: Date,
    outcome: { payoutCents?: number; refundCents?: number; at?: Date } = {},
    practice = false,
  ) {
    tradeSequence += 1;
    const reference = `trade:seed-${tradeSequence}`;
    await post("trade_stake", trader, -stakeCents, stakedAt, { practice, reference });
    const settledAt = outcome.at ?? new Date(stakedAt.getTime() + 60_000);
    if (outcome.payoutCents) {
      await post("trade_payout", trader, outcome.payoutCents, settledAt, { practice, reference });
    }
    if (outcome.refundCents) {
      await post("trade_refund", trader, outcome.refundCents, settledAt, { practice, reference });
    }
  }

  async function funded(role: "trader" | "support" = "trader") {
    const trader = await newUser(role);
    await post("deposit", trader, 10_000_00, daysBefore(500));
    return trader;
  }

  it("says there is not enough data on a platform where nobody traded (computed at start)", async () => {
    const http = httpClient(platform.baseUrl);
    await expect
      .poll(async () => (await http.get("/api/v1/risk-disclosure")).body?.data?.snapshot, {
        timeout: 10_000,
      })
      .not.toBeNull();
    const reply = await http.get("/api/v1/risk-disclosure");
    expect(reply.status).toBe(200);
    expect(reply.body.data.snapshot).toMatchObject({
      computed_at: start.toISOString(),
      period_start: "2025-01-15T12:00:00.000Z",
      period_end: start.toISOString(),
      accounts_traded: 0,
      accounts_lost: 0,
      min_accounts: 6,
      lost_percent: null,
    });
    expect(reply.body.data.sentence).toBe(notEnoughDataSentence);
    expect(reply.body.data.method).toContain("When fewer than 6 accounts traded");
  });

  it("counts by hand: real trader accounts that traded in the 12 months, and those that lost", async () => {
    // Lost: one losing trade 11 months back (drops out of the window a month later).
    const a = await funded();
    await trade(a, 100_00, monthsBefore(11));
    // Won: +80; a withdrawal hold of 500 in the window is not trading.
    const b = await funded();
    await trade(b, 100_00, daysBefore(30), { payoutCents: 180_00 });
    await post("withdrawal_hold", b, -500_00, daysBefore(29));
    // Refunded: 0, traded but did not lose.
    const c = await funded();
    await trade(c, 100_00, daysBefore(25), { refundCents: 100_00 });
    // One lost, one won 250: +50.
    const d = await funded();
    await trade(d, 100_00, daysBefore(20));
    await trade(d, 100_00, daysBefore(10), { payoutCents: 250_00 });
    // Two stakes of 50, one paid 90: -10, lost.
    const k = await funded();
    await trade(k, 50_00, daysBefore(9));
    await trade(k, 50_00, daysBefore(8), { payoutCents: 90_00 });
    // A big loss 13 months back is outside; inside, +90: counted, did not lose.
    const h = await funded();
    await trade(h, 1_000_00, monthsBefore(13));
    await trade(h, 100_00, daysBefore(5), { payoutCents: 190_00 });
    // Staked before the window, paid inside it: no stake in the window, not counted.
    const j = await funded();
    await trade(j, 100_00, monthsBefore(12, 5), { payoutCents: 180_00, at: monthsBefore(12, -5) });
    // Deposits only: not counted.
    await funded();
    // Practice losses only: not counted.
    const f = await newUser();
    await post("practice_topup", f, 10_000_00, daysBefore(400), { practice: true });
    await trade(f, 100_00, daysBefore(3), {}, true);
    await trade(f, 100_00, daysBefore(2), {}, true);
    // Staff with a real account that lost: not a trader, not counted.
    const s = await funded("support");
    await trade(s, 100_00, daysBefore(4));
    expect(await platform.ledgerViolations()).toEqual([]);

    // Counted: a, b, c, d, k, h (6); lost: a and k (2): 2 / 6 = 33.3 % → 33.
    expect(await countLosingAccounts(platform.database, losingAccountsPeriod(start))).toEqual({
      accounts_traded: 6,
      accounts_lost: 2,
    });
  });

  it("counts open trades as losses and refunded ones as neither, as the method says", async () => {
    // A window of its own, years before the other tests' entries, so their counts stay.
    const period = { start: monthsBefore(40), end: monthsBefore(30) };
    const inWindow = (days: number) => new Date(period.start.getTime() + days * day_ms);
    // Open at the computation: staked, settled only after the window's end.
    const open = await funded();
    await trade(open, 100_00, inWindow(10), { payoutCents: 190_00, at: monthsBefore(29) });
    // Refunded in full: traded, neither lost nor won.
    const refunded = await funded();
    await trade(refunded, 100_00, inWindow(20), { refundCents: 100_00 });
    // Won, so the refunded account is not the only one not lost.
    const won = await funded();
    await trade(won, 100_00, inWindow(30), { payoutCents: 180_00 });
    expect(await countLosingAccounts(platform.database, period)).toEqual({
      accounts_traded: 3,
      accounts_lost: 1,
    });
    // After the open trade settles (a won trade), the same account no longer lost.
    expect(
      await countLosingAccounts(platform.database, { start: period.start, end: monthsBefore(28) }),
    ).toEqual({ accounts_traded: 3, accounts_lost: 0 });

    const method = (await httpClient(platform.baseUrl).get("/api/v1/risk-disclosure")).body.data
      .method as string;
    expect(method).toContain(
      "a trade still open at the computation has only its stake in the ledger, so it counts as a loss of its whole stake until it settles.",
    );
    expect(method).toContain(
      "A refunded trade (its stake returned in full) adds its stake and its refund, which cancel out: it is neither a loss nor a gain, and its account still counts as having traded.",
    );
  });

  it("stores the next day's figure at start and states it", async () => {
    platform.clock.advance(day_ms);
    const now = platform.clock.now();
    await platform.restart();
    const http = httpClient(platform.baseUrl);
    await expect
      .poll(async () => (await http.get("/api/v1/risk-disclosure")).body?.data?.snapshot, {
        timeout: 10_000,
      })
      .toMatchObject({ computed_at: now.toISOString() });
    const reply = await http.get("/api/v1/risk-disclosure");
    expect(reply.body.data.snapshot).toEqual({
      computed_at: now.toISOString(),
      period_start: "2025-01-16T12:00:00.000Z",
      period_end: now.toISOString(),
      accounts_traded: 6,
      accounts_lost: 2,
      min_accounts: 6,
      lost_percent: 33,
    });
    expect(reply.body.data.sentence).toBe(
      "33% of real-money accounts on this platform lost money trading in the last 12 months.",
    );
    // The day has its figure: a second computation stores nothing and changes nothing.
    expect(await ensureTodaysSnapshot(platform.database, now, 1)).toBe(false);
    expect((await latestSnapshot(platform.database))?.lost_percent).toBe(33);
  });

  it("states no percentage below the minimum", async () => {
    const now = new Date(start.getTime() + 2 * day_ms);
    expect(await ensureTodaysSnapshot(platform.database, now, 7)).toBe(true);
    const snapshot = await latestSnapshot(platform.database);
    expect(snapshot).toMatchObject({ accounts_traded: 6, accounts_lost: 2, lost_percent: null });
    const reply = await httpClient(platform.baseUrl).get("/api/v1/risk-disclosure");
    expect(reply.body.data.sentence).toBe(notEnoughDataSentence);
    expect(reply.body.data.method).toContain("When fewer than 7 accounts traded");
  });

  it("moves its 12-month window with the platform clock", async () => {
    // A month and two days later, a's losing trade (11 months before the start) is outside.
    const now = new Date(monthsBefore(-1).getTime() + 2 * day_ms);
    expect(await countLosingAccounts(platform.database, losingAccountsPeriod(now))).toEqual({
      accounts_traded: 5,
      accounts_lost: 1,
    });
    expect(await ensureTodaysSnapshot(platform.database, now, 5)).toBe(true);
    expect((await latestSnapshot(platform.database))?.lost_percent).toBe(20);
  });
});

describe("the percentage and its sentence", () => {
  it("rounds halves up, in whole numbers", () => {
    expect(roundedPercent(1, 3)).toBe(33);
    expect(roundedPercent(2, 3)).toBe(67);
    expect(roundedPercent(1, 8)).toBe(13); // 12.5
    expect(roundedPercent(0, 100)).toBe(0);
    expect(roundedPercent(100, 100)).toBe(100);
    expect(() => roundedPercent(1, 0)).toThrow(RangeError);
  });
  it("states the figure or that there is not enough data", () => {
    expect(losingAccountsSentence(74)).toBe(
      "74% of real-money accounts on this platform lost money trading in the last 12 months.",
    );
    expect(losingAccountsSentence(null)).toBe(notEnoughDataSentence);
  });
});

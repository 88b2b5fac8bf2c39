import { feeMessages } from "@tp/domain/fees";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  balancesOf,
  changePaymentMethod,
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

/**
 * Fees as configuration (issue 13 item 3): set per payment method through the four-eyes
 * flow, snapshotted on the deposit or withdrawal when it is made, posted to fees:collected
 * at approval or payout, always taken out of the amount.
 */
/** Each test runs a whole funding journey (sign-ups, four-eyes changes, reviews). */
const journey_timeout_ms = 300_000;

describe.each(databaseKindsUnderTest())("fees on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  const bankDetails = {
    bank_name: "First Bank",
    account_name: "Ada Lovelace",
    account_number: "987654",
    routing_number: "021000021",
  };

  async function feesCollectedCents(): Promise<number> {
    const result = await platform.database.query<{ balance_cents: number }>(
      "SELECT balance_cents FROM ledger_accounts WHERE user_id IS NULL AND code = 'fees:collected'",
    );
    return result.rows[0]!.balance_cents;
  }

  async function setFees(id: string, fees: Record<string, number>) {
    const reply = await changePaymentMethod(platform, admin, id, fees);
    expect(reply.status).toBe(200);
    return reply;
  }

  /** A deposit by `methodId`, its receipt uploaded: under review. */
  async function depositUnderReview(token: string, methodId: string, amount: number) {
    const created = await http.post(
      "/api/v1/deposits",
      { payment_method_id: methodId, amount },
      token,
    );
    expect(created.status).toBe(201);
    const { deposit_id, transaction_hash } = created.body.data;
    const receipt = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${deposit_id}/receipt`,
      { transaction_hash },
      { field: "receipt", bytes: pngBytes(), name: "receipt.png", type: "image/png" },
      token,
    );
    expect(receipt.status).toBe(200);
    return created.body.data.deposit as { id: number; fee: number; net_amount: number };
  }

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
  }, journey_timeout_ms);
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
    const report = await http.get("/api/v1/admin/ledger/check", admin);
    expect(report.body.data.violations).toEqual([]);
  }, journey_timeout_ms);

  it(
    "has none by default, and a fee change waits for a second admin",
    async () => {
      const trader = await signedInTrader(platform);
      const list = await http.get("/api/v1/payment-methods", trader.token);
      for (const method of list.body.data) {
        expect(method).toMatchObject({
          deposit_fee_fixed_cents: 0,
          deposit_fee_basis_points: 0,
          withdrawal_fee_fixed_cents: 0,
          withdrawal_fee_basis_points: 0,
        });
      }
      const proposed = await http.put(
        "/api/v1/admin/payment-methods/western-union",
        { deposit_fee_fixed_cents: 300, withdrawal_fee_basis_points: 250 },
        admin,
      );
      expect(proposed.status).toBe(202);
      expect(proposed.body.data.change.changes).toEqual({
        deposit_fee_fixed_cents: 300,
        withdrawal_fee_basis_points: 250,
      });
      const before = await http.get("/api/v1/payment-methods", trader.token);
      const westernUnion = () =>
        before.body.data.find((method: { id: string }) => method.id === "western-union");
      expect(westernUnion().deposit_fee_fixed_cents).toBe(0);
      const own = await http.post(
        `/api/v1/admin/payment-method-changes/${proposed.body.data.change.id}/confirm`,
        undefined,
        admin,
      );
      expect(own.status).toBe(409);
      expect(own.body.code).toBe("SECOND_APPROVER_REQUIRED");
      await http.post(
        `/api/v1/admin/payment-method-changes/${proposed.body.data.change.id}/discard`,
        undefined,
        admin,
      );

      const confirmed = await setFees("western-union", {
        deposit_fee_fixed_cents: 300,
        withdrawal_fee_basis_points: 250,
      });
      expect(confirmed.body.data.payment_method).toMatchObject({
        deposit_fee_fixed_cents: 300,
        deposit_fee_basis_points: 0,
        withdrawal_fee_fixed_cents: 0,
        withdrawal_fee_basis_points: 250,
      });
      // A later change of other fields leaves the fees as they are.
      await setFees("western-union", { deposit_fee_basis_points: 100 });
      const after = await http.get("/api/v1/payment-methods", trader.token);
      expect(
        after.body.data.find((method: { id: string }) => method.id === "western-union"),
      ).toMatchObject({
        deposit_fee_fixed_cents: 300,
        deposit_fee_basis_points: 100,
        withdrawal_fee_basis_points: 250,
      });
      await setFees("western-union", {
        deposit_fee_fixed_cents: 0,
        deposit_fee_basis_points: 0,
        withdrawal_fee_basis_points: 0,
      });
    },
    journey_timeout_ms,
  );

  it(
    "refuses fees that are negative, fractional, too large or not numbers (422, nothing proposed)",
    async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ deposit_fee_fixed_cents: -1 }, "deposit_fee_fixed_cents", feeMessages.fixedCentsMin],
        [{ deposit_fee_fixed_cents: 2.5 }, "deposit_fee_fixed_cents", feeMessages.fixedCents],
        [
          { withdrawal_fee_fixed_cents: 100_001 },
          "withdrawal_fee_fixed_cents",
          feeMessages.fixedCentsMax,
        ],
        [{ deposit_fee_basis_points: "150" }, "deposit_fee_basis_points", feeMessages.basisPoints],
        [
          { withdrawal_fee_basis_points: 5_001 },
          "withdrawal_fee_basis_points",
          feeMessages.basisPointsMax,
        ],
        [
          { withdrawal_fee_basis_points: -10 },
          "withdrawal_fee_basis_points",
          feeMessages.basisPointsMin,
        ],
        [
          { deposit_fee_basis_points: 1e308 },
          "deposit_fee_basis_points",
          feeMessages.basisPointsMax,
        ],
        [{ deposit_fee_fixed_cents: null }, "deposit_fee_fixed_cents", feeMessages.fixedCents],
      ];
      const pendingBefore = await http.get("/api/v1/admin/payment-method-changes", admin);
      for (const [body, field, message] of cases) {
        const reply = await http.put("/api/v1/admin/payment-methods/bitcoin", body, admin);
        expect(reply.status, JSON.stringify(body)).toBe(422);
        expect(reply.body.errors[field], JSON.stringify(body)).toEqual([message]);
      }
      const pendingAfter = await http.get("/api/v1/admin/payment-method-changes", admin);
      expect(pendingAfter.body.data.length).toBe(pendingBefore.body.data.length);
    },
    journey_timeout_ms,
  );

  it(
    "credits a deposit less its fee and posts the fee to fees:collected; a later fee change does not touch a pending deposit",
    async () => {
      // $2.00 + 1.5 %: on $150.00 that is 200 + 225 = $4.25, so $145.75 is credited.
      await setFees("bank-transfer", {
        deposit_fee_fixed_cents: 200,
        deposit_fee_basis_points: 150,
      });
      const trader = await signedInTrader(platform);
      const feesBefore = await feesCollectedCents();
      const deposit = await depositUnderReview(trader.token, "bank-transfer", 150);
      expect(deposit).toMatchObject({ fee: 4.25, net_amount: 145.75 });

      // Staff change the fee while the deposit waits: the trader keeps the fee they were shown.
      await setFees("bank-transfer", {
        deposit_fee_fixed_cents: 1_000,
        deposit_fee_basis_points: 0,
      });
      const approved = await http.post(
        `/api/v1/admin/deposits/${deposit.id}/approve`,
        undefined,
        admin,
      );
      expect(approved.status).toBe(200);
      expect(approved.body.data.deposit).toMatchObject({
        status: "confirmed",
        amount: 150,
        fee: 4.25,
        net_amount: 145.75,
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(145.75);
      expect((await feesCollectedCents()) - feesBefore).toBe(425);

      const entry = await platform.database.query<{ code: string; amount_cents: number }>(
        `SELECT a.code, p.amount_cents FROM deposits d
       JOIN postings p ON p.entry_id = d.journal_entry_id
       JOIN ledger_accounts a ON a.id = p.account_id
       WHERE d.id = $1 ORDER BY p.amount_cents`,
        [deposit.id],
      );
      expect(entry.rows).toEqual([
        { code: "deposits:clearing", amount_cents: -15_000 },
        { code: "fees:collected", amount_cents: 425 },
        { code: "real", amount_cents: 14_575 },
      ]);

      // A new deposit takes the new fee.
      const next = await depositUnderReview(trader.token, "bank-transfer", 50);
      expect(next).toMatchObject({ fee: 10, net_amount: 40 });
      const history = await http.get("/api/v1/transaction-history", trader.token);
      expect(history.body.data.data.map((row: { fee: number }) => row.fee)).toEqual([10, 4.25]);
      expect(history.body.data.data[1]).toMatchObject({ amount: 150, net_amount: 145.75 });
      const notes = await notificationsOf(platform, trader.user.id);
      expect(notes.find((note) => note.kind === "deposit_confirmed")?.message).toContain(
        "$145.75 (after the $4.25 fee)",
      );

      // A fee at or above the amount is refused: nothing would arrive.
      const tooSmall = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bank-transfer", amount: 10 },
        trader.token,
      );
      expect(tooSmall.status).toBe(422);
      expect(tooSmall.body.errors.amount).toEqual([
        "The amount must be more than its fee ($10.00)",
      ]);
      await setFees("bank-transfer", { deposit_fee_fixed_cents: 0 });
    },
    journey_timeout_ms,
  );

  it(
    "charges only the fee the form showed: a fee changed since is refused (409 FEE_CHANGED) and nothing is written",
    async () => {
      const countOf = async (table: "deposits" | "withdrawals", userId: number) =>
        (
          await platform.database.query<{ count: number }>(
            `SELECT count(*)::int AS count FROM ${table} WHERE user_id = $1`,
            [userId],
          )
        ).rows[0]!.count;
      await setFees("bank-transfer", {
        deposit_fee_fixed_cents: 100,
        withdrawal_fee_fixed_cents: 100,
      });
      const trader = await withdrawableTrader(platform, admin, 200);
      const deposit = (body: Record<string, unknown>) =>
        http.post(
          "/api/v1/deposits",
          { payment_method_id: "bank-transfer", amount: 50, ...body },
          trader.token,
        );
      const withdrawal = (body: Record<string, unknown>) =>
        http.post(
          "/api/v1/withdrawals",
          {
            payment_method_id: "bank-transfer",
            amount: 40,
            withdrawal_details: bankDetails,
            ...body,
          },
          trader.token,
        );

      // As shown: accepted, at that fee.
      const shown = await deposit({ expected_fee: 1 });
      expect(shown.status).toBe(201);
      expect(shown.body.data.deposit).toMatchObject({ fee: 1, net_amount: 49 });

      // Staff raise both fees to $3.00 while the trader looks at the old ones.
      await setFees("bank-transfer", {
        deposit_fee_fixed_cents: 300,
        withdrawal_fee_fixed_cents: 300,
      });
      const depositsBefore = await countOf("deposits", trader.user.id);
      const withdrawalsBefore = await countOf("withdrawals", trader.user.id);
      const balanceBefore = (await balancesOf(platform, trader.token)).account_balance;
      const feesBefore = await feesCollectedCents();
      for (const refused of [
        await deposit({ expected_fee: 1 }),
        await withdrawal({ expected_fee: 1 }),
      ]) {
        expect(refused.status).toBe(409);
        expect(refused.body.code).toBe("FEE_CHANGED");
        expect(refused.body.message).toBe(
          "The fee for Bank Transfer changed from $1.00 to $3.00 since you saw it. Nothing was charged: check the new amounts and confirm again.",
        );
      }
      expect(await countOf("deposits", trader.user.id)).toBe(depositsBefore);
      expect(await countOf("withdrawals", trader.user.id)).toBe(withdrawalsBefore);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(balanceBefore);
      expect(await feesCollectedCents()).toBe(feesBefore);

      // Shown the new fee, the trader confirms again: accepted at $3.00.
      const again = await withdrawal({ expected_fee: 3 });
      expect(again.status).toBe(201);
      expect(again.body.data.withdrawal).toMatchObject({ amount: 40, fee: 3, net_amount: 37 });
      // Without expected_fee (an API client) the fee in force applies, as the reply states.
      const unstated = await deposit({});
      expect(unstated.body.data.deposit).toMatchObject({ fee: 3, net_amount: 47 });

      // Not a fee: refused with the field's message, nothing stored.
      for (const expected_fee of [-1, 0.001, "1", null, 1e308]) {
        const refused = await deposit({ expected_fee });
        expect(refused.status, JSON.stringify(expected_fee)).toBe(422);
        expect(refused.body.errors.expected_fee).toEqual([
          "The expected fee is an amount in dollars, from $0.00, with at most 2 decimals",
        ]);
      }
      expect(await countOf("deposits", trader.user.id)).toBe(depositsBefore + 1);
      await setFees("bank-transfer", { deposit_fee_fixed_cents: 0, withdrawal_fee_fixed_cents: 0 });
    },
    journey_timeout_ms,
  );

  it(
    "pays a withdrawal out less its fee, fees:collected takes the fee, a release returns all",
    async () => {
      // $1.00 + 0.5 % on withdrawals by bank: on $100.00 that is 100 + 50 = $1.50.
      await setFees("bank-transfer", {
        withdrawal_fee_fixed_cents: 100,
        withdrawal_fee_basis_points: 50,
      });
      const trader = await withdrawableTrader(platform, admin, 300);
      const feesBefore = await feesCollectedCents();
      const request = (amount: number) =>
        http.post(
          "/api/v1/withdrawals",
          {
            payment_method_id: "bank-transfer",
            amount,
            withdrawal_details: bankDetails,
          },
          trader.token,
        );
      const created = await request(100);
      expect(created.status).toBe(201);
      const { withdrawal_id, transaction_hash, withdrawal } = created.body.data;
      expect(withdrawal).toMatchObject({ amount: 100, fee: 1.5, net_amount: 98.5 });
      // The confirmation e-mail states the fee and what is paid out, in words.
      const mail = await platform.smtp.waitFor(
        trader.email,
        new RegExp(`^Confirm your withdrawal ${transaction_hash} `),
      );
      expect(mail.text.replace(/\s+/g, " ")).toContain(
        "A withdrawal of $100.00 via Bank Transfer (" +
          transaction_hash +
          ") was requested from your TradePlatform account. After the $1.50 fee, $98.50 is paid out to you.",
      );
      // The whole amount leaves the balance (held); the fee comes out of what is paid.
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(200);
      await confirmWithdrawalByEmail(platform, trader.email, transaction_hash);

      // A fee change while it is pending does not alter it.
      await setFees("bank-transfer", { withdrawal_fee_fixed_cents: 5_000 });
      const paid = await http.post(
        `/api/v1/admin/withdrawals/${withdrawal_id}/approve`,
        { payout_reference: "BANK-TX-1" },
        admin,
      );
      expect(paid.status).toBe(200);
      expect(paid.body.data.withdrawal).toMatchObject({
        status: "paid",
        fee: 1.5,
        net_amount: 98.5,
      });
      expect((await feesCollectedCents()) - feesBefore).toBe(150);
      const entry = await platform.database.query<{ code: string; amount_cents: number }>(
        `SELECT a.code, p.amount_cents FROM withdrawals w
       JOIN postings p ON p.entry_id = w.resolution_entry_id
       JOIN ledger_accounts a ON a.id = p.account_id
       WHERE w.id = $1 ORDER BY p.amount_cents`,
        [withdrawal_id],
      );
      expect(entry.rows).toEqual([
        { code: "withdrawals:held", amount_cents: -10_000 },
        { code: "fees:collected", amount_cents: 150 },
        { code: "payouts:sent", amount_cents: 9_850 },
      ]);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(200);

      // With the new $50.00 + 0.5 % fee ($50.40 on $80.00): a cancelled request releases the
      // whole amount, fee included.
      const second = await request(80);
      expect(second.body.data.withdrawal).toMatchObject({ fee: 50.4, net_amount: 29.6 });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(120);
      const cancelled = await http.request(
        "DELETE",
        `/api/v1/withdrawals/${second.body.data.withdrawal_id}`,
        { token: trader.token },
      );
      expect(cancelled.status).toBe(200);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(200);
      expect((await feesCollectedCents()) - feesBefore).toBe(150);

      const tooSmall = await request(50);
      expect(tooSmall.status).toBe(422);
      expect(tooSmall.body.errors.amount).toEqual([
        "The amount must be more than its fee ($50.25)",
      ]);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(200);

      const history = await http.get("/api/v1/transaction-history", trader.token);
      const paidRow = history.body.data.data.find(
        (row: { id: number; type: string }) =>
          row.type === "withdrawal" && row.id === withdrawal_id,
      );
      expect(paidRow).toMatchObject({ amount: 100, fee: 1.5, net_amount: 98.5, status: "paid" });
      await setFees("bank-transfer", {
        withdrawal_fee_fixed_cents: 0,
        withdrawal_fee_basis_points: 0,
      });
    },
    journey_timeout_ms,
  );
});

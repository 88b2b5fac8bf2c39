import { readFileSync } from "node:fs";
import path from "node:path";
import { adminMessages } from "@tp/domain/admin-api";
import { serverMessages } from "@tp/domain/messages";
import Fastify from "fastify";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { withStaffScope } from "../src/http/staff-scope.ts";
import { openTraderAccounts } from "../src/ledger/ledger.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInStaff, signedInTrader } from "./support/accounts.ts";
import {
  balancesOf,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  fakePngBytes,
  pngBytes,
  postForm,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

/**
 * Issue 12 item 8 (staff are not traders; no one decides alone) and item 9's caps under a
 * lock and re-encoded images. The four-eyes threshold is the default, $1,000.
 */
describe.each(databaseKindsUnderTest())("staff roles and four eyes on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;
  let reviewerA: { id: number; email: string; token: string };
  let reviewerB: { id: number; email: string; token: string };
  let support: { id: number; token: string };

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
    reviewerA = await signedInStaff(platform, "reviewer");
    reviewerB = await signedInStaff(platform, "reviewer");
    support = await signedInStaff(platform, "support");
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  /** A deposit of `amount` with its receipt, under review. */
  async function depositUnderReview(amount: number) {
    const trader = await signedInTrader(platform);
    const created = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount },
      trader.token,
    );
    expect(created.status).toBe(201);
    const { deposit_id, transaction_hash } = created.body.data;
    const receipt = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${deposit_id}/receipt`,
      { transaction_hash },
      { field: "receipt", bytes: pngBytes(), name: "r.png" },
      trader.token,
    );
    expect(receipt.status).toBe(200);
    return { trader, id: deposit_id as number };
  }

  const approveDeposit = (id: number, token: string) =>
    http.post(`/api/v1/admin/deposits/${id}/approve`, undefined, token);

  it("approves a $5,000 deposit only with two different reviewers", async () => {
    const { trader, id } = await depositUnderReview(5000);

    const first = await approveDeposit(id, reviewerA.token);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(adminMessages.depositFirstApproval);
    expect(first.body.data.deposit).toMatchObject({
      status: "under_review",
      reviewed_by: null,
      four_eyes: {
        needs_second_approval: true,
        first_approved_by: { id: reviewerA.id, email: reviewerA.email },
      },
    });
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);

    // The same reviewer twice is refused and changes nothing.
    const again = await approveDeposit(id, reviewerA.token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: "SECOND_APPROVER_REQUIRED",
      message: adminMessages.sameReviewerTwice,
    });
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);

    // It stays in the queue, showing who gave the first approval.
    const queue = await http.get("/api/v1/admin/deposits?status=under_review", support.token);
    const item = queue.body.data.data.find((row: { id: number }) => row.id === id);
    expect(item.four_eyes.first_approved_by.email).toBe(reviewerA.email);

    const second = await approveDeposit(id, reviewerB.token);
    expect(second.status).toBe(200);
    expect(second.body.message).toBe(adminMessages.depositApproved);
    expect(second.body.data.deposit).toMatchObject({
      status: "confirmed",
      reviewed_by: { id: reviewerB.id },
      four_eyes: { first_approved_by: { id: reviewerA.id } },
    });
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(5000);

    const log = await http.get(`/api/v1/admin/audit-log?target=deposit:${id}`, admin);
    const steps = log.body.data.data.map((entry: { action: string; actor: { id: number } }) => [
      entry.action,
      entry.actor.id,
    ]);
    expect(steps).toEqual([
      ["deposit.approved", reviewerB.id],
      ["deposit.first_approved", reviewerA.id],
    ]);
  });

  it("takes one rejection, and one approval below the threshold", async () => {
    const large = await depositUnderReview(5000);
    expect((await approveDeposit(large.id, reviewerA.token)).status).toBe(200);
    const rejected = await http.post(
      `/api/v1/admin/deposits/${large.id}/reject`,
      { reason: "Receipt does not match" },
      reviewerB.token,
    );
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.deposit.status).toBe("rejected");
    expect((await balancesOf(platform, large.trader.token)).account_balance).toBe(0);

    // Exactly at the threshold is not above it: one reviewer is enough.
    const small = await depositUnderReview(1000);
    const approved = await approveDeposit(small.id, reviewerA.token);
    expect(approved.status).toBe(200);
    expect(approved.body.data.deposit).toMatchObject({
      status: "confirmed",
      four_eyes: { needs_second_approval: false, first_approved_by: null },
    });
    expect((await balancesOf(platform, small.trader.token)).account_balance).toBe(1000);
  });

  it("pays a $2,000 withdrawal only after a second reviewer; the payout comes last", async () => {
    const trader = await withdrawableTrader(platform, admin, 2000);
    const requested = await http.post(
      "/api/v1/withdrawals",
      {
        payment_method_id: "bitcoin",
        amount: 2000,
        withdrawal_details: { wallet_address: "bc1qtraderownwallet0000000000" },
      },
      trader.token,
    );
    expect(requested.status).toBe(201);
    // Staff see a withdrawal once its owner confirmed it from the e-mailed link.
    await confirmWithdrawalByEmail(platform, trader.email, requested.body.data.transaction_hash);
    const id = requested.body.data.withdrawal_id;
    const approve = (token: string, body: object) =>
      http.post(`/api/v1/admin/withdrawals/${id}/approve`, body, token);

    // Nothing is paid before the second approval, so the first carries no reference.
    const early = await approve(reviewerA.token, { payout_reference: "TX-1" });
    expect(early.status).toBe(422);
    expect(early.body.errors.payout_reference).toEqual([adminMessages.payoutAfterSecondApproval]);
    const first = await approve(reviewerA.token, {});
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(adminMessages.withdrawalFirstApproval);
    expect(first.body.data.withdrawal).toMatchObject({
      status: "pending",
      four_eyes: { first_approved_by: { id: reviewerA.id } },
    });
    expect((await approve(reviewerA.token, { payout_reference: "TX-1" })).body.code).toBe(
      "SECOND_APPROVER_REQUIRED",
    );
    const noReference = await approve(reviewerB.token, {});
    expect(noReference.status).toBe(422);
    expect(noReference.body.message).toBe(adminMessages.payoutReferenceRequired);
    const paid = await approve(reviewerB.token, { payout_reference: "TX-2" });
    expect(paid.status).toBe(200);
    expect(paid.body.data.withdrawal).toMatchObject({
      status: "paid",
      payout_reference: "TX-2",
      reviewed_by: { id: reviewerB.id },
    });
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);
  });

  it("lets support read but not decide, and reviewers decide but not configure", async () => {
    const { id } = await depositUnderReview(10);
    for (const path_ of [
      "/api/v1/admin/deposits",
      `/api/v1/admin/deposits/${id}`,
      "/api/v1/admin/withdrawals",
      "/api/v1/admin/verifications",
      "/api/v1/admin/users",
      "/api/v1/admin/payment-methods",
      "/api/v1/admin/payment-method-changes",
      "/api/v1/admin/audit-log",
    ]) {
      expect((await http.get(path_, support.token)).status, path_).toBe(200);
    }
    const refused = [
      await approveDeposit(id, support.token),
      await http.post(`/api/v1/admin/deposits/${id}/reject`, { reason: "x" }, support.token),
      await http.put("/api/v1/admin/payment-methods/bitcoin", { is_active: false }, support.token),
      await http.put(
        "/api/v1/admin/payment-methods/bitcoin",
        { is_active: false },
        reviewerA.token,
      ),
      await http.post("/api/v1/admin/notifications", { title: "t", message: "m" }, reviewerA.token),
    ];
    for (const reply of refused) {
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: "FORBIDDEN", message: serverMessages.forbidden });
    }
    const item = await http.get(`/api/v1/admin/deposits/${id}`, support.token);
    expect(item.body.data.deposit.status).toBe("under_review");
    expect((await approveDeposit(id, reviewerA.token)).body.data.deposit.status).toBe("confirmed");
    const trader = await signedInTrader(platform);
    expect((await http.get("/api/v1/admin/deposits", trader.token)).status).toBe(403);
  });

  it("refuses staff on every trader money route, and gives staff no ledger accounts", async () => {
    const accounts = await platform.database.query<{ total: number }>(
      "SELECT COUNT(*)::bigint AS total FROM ledger_accounts WHERE user_id = ANY($1::bigint[])",
      [[reviewerA.id, support.id]],
    );
    expect(Number(accounts.rows[0]!.total)).toBe(0);

    // A staff account from before migration 017 may hold (zero) ledger accounts: it still
    // signs in and works in the back office, and is refused the money routes all the same.
    const legacy = await signedInStaff(platform, "admin");
    await platform.database.transaction((transaction) =>
      openTraderAccounts(transaction, legacy.id),
    );
    expect((await http.get("/api/v1/user", legacy.token)).status).toBe(200);
    expect((await http.get("/api/v1/admin/deposits", legacy.token)).status).toBe(200);

    for (const token of [admin, reviewerA.token, support.token, legacy.token]) {
      const replies = [
        await http.post(
          "/api/v1/deposits",
          { payment_method_id: "bitcoin", amount: 1_000_000 },
          token,
        ),
        await http.post(
          "/api/v1/withdrawals",
          {
            payment_method_id: "bitcoin",
            amount: 10,
            withdrawal_details: { wallet_address: "bc1qtraderownwallet0000000000" },
          },
          token,
        ),
        await http.post(
          "/api/v1/place-trade",
          { asset: "EURUSD", amount: 10, duration: 30, type: "call", is_practice: true },
          token,
        ),
        await http.post("/api/v1/practice-balance/top-up", undefined, token),
        await http.get("/api/v1/payment-methods/bitcoin/wallet", token),
        await postForm(
          platform.baseUrl,
          "/api/v1/upload-verification",
          { id_type: "passport", accept_terms: "1" },
          { field: "file", bytes: pngBytes(), name: "id.png" },
          token,
        ),
      ];
      for (const reply of replies) {
        expect(reply.status, reply.text).toBe(403);
        expect(reply.body).toMatchObject({
          code: "FORBIDDEN",
          message: serverMessages.staffNotTrader,
        });
      }
    }
    const rows = await platform.database.query<{ total: number }>(
      `SELECT (SELECT COUNT(*) FROM deposits WHERE user_id = ANY($1::bigint[]))
            + (SELECT COUNT(*) FROM verification_documents WHERE user_id = ANY($1::bigint[])) AS total`,
      [[reviewerA.id, support.id, legacy.id]],
    );
    expect(Number(rows.rows[0]!.total)).toBe(0);
  });

  it("applies a payment-method change only when a second admin confirms it", async () => {
    const secondAdmin = await signedInStaff(platform, "admin");
    const proposed = await http.put(
      "/api/v1/admin/payment-methods/litecoin",
      { wallet_address: "ltc1qattackerwallet000000000000" },
      admin,
    );
    expect(proposed.status).toBe(202);
    expect(proposed.body.message).toBe(adminMessages.paymentMethodChangeProposed);
    const changeId = proposed.body.data.change.id;
    const trader = await signedInTrader(platform);
    const litecoin = async () =>
      (await http.get("/api/v1/admin/payment-methods", support.token)).body.data.find(
        (method: { id: string }) => method.id === "litecoin",
      );
    expect((await litecoin()).wallet_address).toBeNull();
    expect((await http.get("/api/v1/payment-methods/litecoin/wallet", trader.token)).status).toBe(
      422,
    );

    const pending = await http.get("/api/v1/admin/payment-method-changes", support.token);
    expect(pending.body.data).toContainEqual(
      expect.objectContaining({
        id: changeId,
        payment_method_id: "litecoin",
        changes: { wallet_address: "ltc1qattackerwallet000000000000" },
        status: "pending",
      }),
    );

    const own = await http.post(
      `/api/v1/admin/payment-method-changes/${changeId}/confirm`,
      undefined,
      admin,
    );
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({
      code: "SECOND_APPROVER_REQUIRED",
      message: adminMessages.ownChangeConfirm,
    });
    expect(
      (
        await http.post(
          `/api/v1/admin/payment-method-changes/${changeId}/confirm`,
          undefined,
          reviewerA.token,
        )
      ).status,
    ).toBe(403);
    expect((await litecoin()).wallet_address).toBeNull();

    const confirmed = await http.post(
      `/api/v1/admin/payment-method-changes/${changeId}/confirm`,
      undefined,
      secondAdmin.token,
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.payment_method.wallet_address).toBe(
      "ltc1qattackerwallet000000000000",
    );
    expect((await litecoin()).wallet_address).toBe("ltc1qattackerwallet000000000000");
    const twice = await http.post(
      `/api/v1/admin/payment-method-changes/${changeId}/confirm`,
      undefined,
      secondAdmin.token,
    );
    expect(twice.body.code).toBe("PAYMENT_METHOD_CHANGE_NOT_PENDING");

    // A discarded change never applies.
    const off = await http.put(
      "/api/v1/admin/payment-methods/litecoin",
      { is_active: false },
      admin,
    );
    const discarded = await http.post(
      `/api/v1/admin/payment-method-changes/${off.body.data.change.id}/discard`,
      undefined,
      admin,
    );
    expect(discarded.status).toBe(200);
    expect(discarded.body.data.change.status).toBe("discarded");
    expect((await litecoin()).is_active).toBe(true);

    const log = await http.get("/api/v1/admin/audit-log?target=payment_method:litecoin", admin);
    expect(log.body.data.data.map((entry: { action: string }) => entry.action)).toEqual([
      "payment_method.change_discarded",
      "payment_method.change_proposed",
      "payment_method.updated",
      "payment_method.change_proposed",
    ]);
  });

  it("holds the caps of 10 under 30 concurrent requests", async () => {
    const trader = await withdrawableTrader(platform, admin, 300);
    const deposits = await Promise.all(
      Array.from({ length: 30 }, () =>
        http.post("/api/v1/deposits", { payment_method_id: "bitcoin", amount: 5 }, trader.token),
      ),
    );
    expect(deposits.filter((reply) => reply.status === 201)).toHaveLength(10);
    expect(deposits.filter((reply) => reply.status === 409)).toHaveLength(20);
    for (const reply of deposits.filter((one) => one.status !== 201)) {
      expect(reply.body.code).toBe("TOO_MANY_AWAITING_DEPOSITS");
    }

    const withdrawals = await Promise.all(
      Array.from({ length: 30 }, () =>
        http.post(
          "/api/v1/withdrawals",
          {
            payment_method_id: "bitcoin",
            amount: 10,
            withdrawal_details: { wallet_address: "bc1qtraderownwallet0000000000" },
          },
          trader.token,
        ),
      ),
    );
    expect(withdrawals.filter((reply) => reply.status === 201)).toHaveLength(10);
    for (const reply of withdrawals.filter((one) => one.status !== 201)) {
      expect(reply.body.code).toBe("TOO_MANY_PENDING_WITHDRAWALS");
    }
    const counts = await platform.database.query<{ status: string; total: number }>(
      `SELECT 'deposit' AS status, COUNT(*)::bigint AS total FROM deposits
         WHERE user_id = $1 AND status = 'awaiting_payment'
       UNION ALL
       SELECT 'withdrawal', COUNT(*)::bigint FROM withdrawals
         WHERE user_id = $1 AND status = 'pending'`,
      [trader.user.id],
    );
    expect(counts.rows.map((row) => Number(row.total))).toEqual([10, 10]);
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(200);
  });

  it("keeps only the image of a polyglot upload, without its metadata", async () => {
    const trader = await signedInTrader(platform);
    const created = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 20 },
      trader.token,
    );
    const { deposit_id, transaction_hash } = created.body.data;
    // A real JPEG carrying EXIF text, with a ZIP and an HTML page after its end.
    const photo = await sharp({
      create: { width: 16, height: 12, channels: 3, background: { r: 10, g: 120, b: 200 } },
    })
      .jpeg()
      .withExif({ IFD0: { Copyright: "EXIF-SECRET-GPS-51.5N" } })
      .toBuffer();
    expect(photo.includes("EXIF-SECRET")).toBe(true);
    const polyglot = Buffer.concat([
      photo,
      Buffer.from("PK\x03\x04payload.exe"),
      Buffer.from("<html><script>alert(document.cookie)</script></html>"),
    ]);
    const sent = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${deposit_id}/receipt`,
      { transaction_hash },
      { field: "receipt", bytes: polyglot, name: "receipt.jpg", type: "image/jpeg" },
      trader.token,
    );
    expect(sent.status, sent.text).toBe(200);
    const stored = await platform.database.query<{
      storage_name: string;
      size_bytes: number;
      content_type: string;
    }>(
      "SELECT storage_name, size_bytes, content_type FROM uploads u JOIN deposits d ON d.receipt_upload_id = u.id WHERE d.id = $1",
      [deposit_id],
    );
    const row = stored.rows[0]!;
    expect(row.content_type).toBe("image/jpeg");
    const kept = readFileSync(
      path.join(platform.context.config.DATA_DIR, "uploads", row.storage_name),
    );
    expect(kept.length).toBe(row.size_bytes);
    for (const needle of ["PK\x03\x04", "<script", "EXIF-SECRET"]) {
      expect(kept.includes(needle), needle).toBe(false);
    }
    const decoded = await sharp(kept).metadata();
    expect(decoded).toMatchObject({ format: "jpeg", width: 16, height: 12 });
    expect(decoded.exif).toBeUndefined();

    // Something that only starts like an image is not one: refused, nothing kept.
    const second = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 20 },
      trader.token,
    );
    const fake = await postForm(
      platform.baseUrl,
      `/api/v1/deposits/${second.body.data.deposit_id}/receipt`,
      { transaction_hash: second.body.data.transaction_hash },
      { field: "receipt", bytes: fakePngBytes(), name: "r.png" },
      trader.token,
    );
    expect(fake.status).toBe(422);
    expect(fake.body.errors.receipt).toBeDefined();
  });
});

describe("the staff scope", () => {
  it("stops the server when a staff route does not declare its least role", async () => {
    const app = Fastify();
    const context = { sessions: { find: async () => null, findRecent: async () => null } };
    await expect(
      (async () => {
        await withStaffScope(app, context, async (staff) => {
          staff.get("/undeclared", async () => "open by omission");
        });
        await app.ready();
      })(),
    ).rejects.toThrow("GET /admin/undeclared: a staff route must declare its least role");
    await app.close();
  });
});

import { fundingMessages as f } from "@tp/domain/funding";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { awaiting_deposits_max } from "../src/funding/deposits.ts";
import { pending_withdrawals_max } from "../src/funding/withdrawals.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  balancesOf,
  changePaymentMethod,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  depositApproved,
  identityApproved,
  jpegBytes,
  notificationsOf,
  pdfBytes,
  pngBytes,
  postForm,
  staffToken,
  startFundingPlatform,
  verifiedTrader,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const bitcoinDetails = { wallet_address: "bc1qtraderownwallet0000000000" };

describe.each(databaseKindsUnderTest())("funding on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
    const report = await http.get("/api/v1/admin/ledger/check", admin);
    expect(report.body.data.violations).toEqual([]);
  });

  describe("payment methods", () => {
    it("starts with every spec method unconfigured, so each is unavailable", async () => {
      const trader = await signedInTrader(platform);
      const reply = await http.get("/api/v1/payment-methods", trader.token);
      expect(reply.status).toBe(200);
      expect(reply.body.data.map((method: { id: string }) => method.id)).toEqual([
        "bitcoin",
        "litecoin",
        "ethereum",
        "perfect-money",
        "bitcoin-cash",
        "usdt",
        "bank-transfer",
        "western-union",
      ]);
      for (const method of reply.body.data) {
        expect(method).toMatchObject({ is_available: false, wallet_address: null });
        expect(method.additional_details).toEqual({});
      }
      const kinds = Object.fromEntries(
        reply.body.data.map((method: { id: string; kind: string }) => [method.id, method.kind]),
      );
      expect(kinds).toMatchObject({
        bitcoin: "crypto",
        usdt: "crypto",
        "bitcoin-cash": "crypto",
        "bank-transfer": "bank",
        "western-union": "money_transfer",
      });

      const created = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "litecoin", amount: 10 },
        trader.token,
      );
      expect(created.status).toBe(422);
      expect(created.body).toMatchObject({
        message: f.methodNotAvailable,
        code: "PAYMENT_METHOD_NOT_CONFIGURED",
      });
      const wallet = await http.get("/api/v1/payment-methods/litecoin/wallet", trader.token);
      expect(wallet.status).toBe(422);
      expect(wallet.body).toMatchObject({
        message: f.walletNotAvailable,
        code: "WALLET_ADDRESS_UNAVAILABLE",
      });
      expect((await http.get("/api/v1/payment-methods", undefined)).status).toBe(401);
    });

    it("shows staff's configuration: wallet, instructions, bank and money-transfer details", async () => {
      await configurePaymentMethods(platform, admin);
      const trader = await signedInTrader(platform);
      const list = await http.get("/api/v1/payment-methods", trader.token);
      const byId = Object.fromEntries(
        list.body.data.map((method: { id: string }) => [method.id, method]),
      );
      expect(byId.bitcoin).toMatchObject({ is_available: true, is_recommended: true });
      expect(byId["bank-transfer"]).toMatchObject({
        is_available: true,
        additional_details: { bank_name: "Test Bank", swift_code: "TESTGB2L" },
      });
      expect(byId["western-union"].is_available).toBe(true);
      expect(byId.ethereum.is_available).toBe(false);

      const wallet = await http.get("/api/v1/payment-methods/bitcoin/wallet", trader.token);
      expect(wallet.status).toBe(200);
      expect(wallet.body.data).toEqual({
        payment_method_id: "bitcoin",
        name: "Bitcoin",
        wallet_address: "bc1qtestwalletaddress0000000000000000000",
        instructions: ["Send only BTC to this address", "Use the reference as the memo"],
        // No real feed prices BTC here, so no amount in the coin is offered.
        coin_price: null,
      });
      const unknown = await http.get("/api/v1/payment-methods/dogecoin/wallet", trader.token);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(f.invalidPaymentMethod);
    });

    it("refuses a method staff switched off with the spec's message", async () => {
      await configurePaymentMethods(platform, admin);
      const off = await changePaymentMethod(platform, admin, "bank-transfer", { is_active: false });
      expect(off.status).toBe(200);
      try {
        const trader = await signedInTrader(platform);
        const created = await http.post(
          "/api/v1/deposits",
          { payment_method_id: "bank-transfer", amount: 10 },
          trader.token,
        );
        expect(created.status).toBe(422);
        expect(created.body).toMatchObject({
          message: f.methodCurrentlyUnavailable,
          code: "PAYMENT_METHOD_INACTIVE",
        });
        const wallet = await http.get("/api/v1/payment-methods/bank-transfer/wallet", trader.token);
        expect(wallet.status).toBe(422);
        expect(wallet.body.code).toBe("PAYMENT_METHOD_INACTIVE");
        const list = await http.get("/api/v1/payment-methods", trader.token);
        const bank = list.body.data.find((method: { id: string }) => method.id === "bank-transfer");
        expect(bank).toMatchObject({ is_active: false, is_available: false });
      } finally {
        await changePaymentMethod(platform, admin, "bank-transfer", { is_active: true });
      }
    });
  });

  describe("deposits", () => {
    beforeAll(async () => configurePaymentMethods(platform, admin));

    it("validates the amount form with the same messages as the web", async () => {
      const trader = await signedInTrader(platform);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ payment_method_id: "bitcoin" }, "amount", f.amountRequired],
        [{ payment_method_id: "bitcoin", amount: "ten" }, "amount", f.validAmount],
        [{ payment_method_id: "bitcoin", amount: 0 }, "amount", f.validAmount],
        [{ payment_method_id: "bitcoin", amount: 0.99 }, "amount", f.amountMinimum],
        [{ payment_method_id: "bitcoin", amount: 1.005 }, "amount", f.amountDecimals],
        [{ payment_method_id: "bitcoin", amount: 1_000_000.01 }, "amount", f.amountMaximum],
        [{ amount: 10 }, "payment_method_id", f.invalidPaymentMethod],
        [
          { payment_method_id: "dogecoin", amount: 10 },
          "payment_method_id",
          f.invalidPaymentMethod,
        ],
      ];
      for (const [body, field, message] of cases) {
        const reply = await http.post("/api/v1/deposits", body, trader.token);
        expect(reply.status, JSON.stringify(body)).toBe(422);
        expect(reply.body.message, JSON.stringify(body)).toBe(message);
        expect(reply.body.errors[field], JSON.stringify(body)).toEqual([message]);
      }
      const total = await platform.database.query(
        "SELECT 1 FROM deposits d JOIN users u ON u.id = d.user_id WHERE u.email = $1",
        [trader.email],
      );
      expect(total.rowCount).toBe(0);
      const exactlyOne = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 1 },
        trader.token,
      );
      expect(exactlyOne.status).toBe(201);
    });

    it("walks awaiting_payment → under_review → confirmed and credits the real balance once", async () => {
      const trader = await signedInTrader(platform);
      const created = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 150.25 },
        trader.token,
      );
      expect(created.status).toBe(201);
      const { deposit_id, transaction_hash, deposit } = created.body.data;
      expect(deposit_id).toBe(deposit.id);
      expect(transaction_hash).toMatch(/^DEP-[A-HJ-NP-Z2-9]{12}$/);
      expect(deposit).toMatchObject({
        status: "awaiting_payment",
        amount: 150.25,
        method: "Bitcoin",
        has_receipt: false,
      });

      const receipt = await postForm(
        platform.baseUrl,
        `/api/v1/deposits/${deposit_id}/receipt`,
        { transaction_hash },
        { field: "receipt", bytes: pdfBytes(), name: "receipt.pdf" },
        trader.token,
      );
      expect(receipt.status).toBe(200);
      expect(receipt.body.message).toBe(f.depositSubmitted);
      expect(receipt.body.data.deposit).toMatchObject({
        status: "under_review",
        has_receipt: true,
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);

      // A second receipt, or a cancel, is refused once under review.
      const again = await postForm(
        platform.baseUrl,
        `/api/v1/deposits/${deposit_id}/receipt`,
        { transaction_hash },
        { field: "receipt", bytes: pdfBytes(), name: "receipt.pdf" },
        trader.token,
      );
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        message: f.depositNotAwaitingPayment,
        code: "DEPOSIT_NOT_AWAITING_PAYMENT",
      });
      const cancel = await http.request("DELETE", `/api/v1/deposits/${deposit_id}`, {
        token: trader.token,
      });
      expect(cancel.status).toBe(409);
      expect(cancel.body.code).toBe("DEPOSIT_NOT_AWAITING_PAYMENT");

      const queue = await http.get("/api/v1/admin/deposits?status=under_review", admin);
      const item = queue.body.data.data.find((row: { id: number }) => row.id === deposit_id);
      expect(item.trader).toEqual({
        id: trader.user.id,
        name: "Ada Lovelace",
        email: trader.email,
      });
      expect(item.receipt_content_type).toBe("application/pdf");

      const approved = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/approve`,
        undefined,
        admin,
      );
      expect(approved.status).toBe(200);
      expect(approved.body.data.deposit).toMatchObject({
        status: "confirmed",
        reviewed_by: { email: "staff@example.test" },
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(150.25);

      const twice = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/approve`,
        undefined,
        admin,
      );
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe("DEPOSIT_NOT_UNDER_REVIEW");
      const rejectLate = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/reject`,
        { reason: "too late" },
        admin,
      );
      expect(rejectLate.status).toBe(409);
      expect(rejectLate.body.code).toBe("DEPOSIT_NOT_UNDER_REVIEW");
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(150.25);
      const entries = await platform.database.query(
        "SELECT 1 FROM journal_entries WHERE kind = 'deposit' AND reference = $1",
        [`deposit:${deposit_id}`],
      );
      expect(entries.rowCount).toBe(1);
      expect(await notificationsOf(platform, trader.user.id)).toEqual([
        expect.objectContaining({ kind: "deposit_confirmed", title: "Deposit confirmed" }),
      ]);
      const mine = await http.get(`/api/v1/deposits/${deposit_id}`, trader.token);
      expect(mine.body.data.deposit.status).toBe("confirmed");
    });

    it("rejects with a reason: nothing credited, the trader is told why", async () => {
      const trader = await signedInTrader(platform);
      const created = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bank-transfer", amount: 40 },
        trader.token,
      );
      const { deposit_id, transaction_hash } = created.body.data;
      const tooEarly = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/reject`,
        { reason: "No payment" },
        admin,
      );
      expect(tooEarly.status).toBe(409);
      expect(tooEarly.body.code).toBe("DEPOSIT_NOT_UNDER_REVIEW");
      await postForm(
        platform.baseUrl,
        `/api/v1/deposits/${deposit_id}/receipt`,
        { transaction_hash },
        { field: "receipt", bytes: jpegBytes(), name: "r.jpg" },
        trader.token,
      );
      const noReason = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/reject`,
        { reason: "  " },
        admin,
      );
      expect(noReason.status).toBe(422);
      expect(noReason.body.message).toBe("A reason is required");
      const rejected = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/reject`,
        { reason: "The receipt shows another amount" },
        admin,
      );
      expect(rejected.status).toBe(200);
      expect(rejected.body.data.deposit).toMatchObject({
        status: "rejected",
        rejection_reason: "The receipt shows another amount",
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);
      const approveAfter = await http.post(
        `/api/v1/admin/deposits/${deposit_id}/approve`,
        undefined,
        admin,
      );
      expect(approveAfter.status).toBe(409);
      expect(approveAfter.body.code).toBe("DEPOSIT_NOT_UNDER_REVIEW");
      const notes = await notificationsOf(platform, trader.user.id);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.kind).toBe("deposit_rejected");
      expect(notes[0]!.message).toContain("The receipt shows another amount");
    });

    it("lets the owner cancel while awaiting payment, only once", async () => {
      const trader = await signedInTrader(platform);
      const created = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "western-union", amount: 12 },
        trader.token,
      );
      const id = created.body.data.deposit_id;
      const cancelled = await http.request("DELETE", `/api/v1/deposits/${id}`, {
        token: trader.token,
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.deposit.status).toBe("cancelled");
      // Cancelling again is idempotent: the same answer, nothing else changes.
      const again = await http.request("DELETE", `/api/v1/deposits/${id}`, { token: trader.token });
      expect(again.status).toBe(200);
      expect(again.body.message).toBe(f.depositCancelled);
      expect(again.body.data.deposit).toEqual(cancelled.body.data.deposit);
      const receipt = await postForm(
        platform.baseUrl,
        `/api/v1/deposits/${id}/receipt`,
        { transaction_hash: created.body.data.transaction_hash },
        { field: "receipt", bytes: pngBytes(), name: "r.png" },
        trader.token,
      );
      expect(receipt.status).toBe(409);
      expect(receipt.body.code).toBe("DEPOSIT_NOT_AWAITING_PAYMENT");
    });

    it("checks the receipt form: file, hash, type by content", async () => {
      const trader = await signedInTrader(platform);
      const created = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 10 },
        trader.token,
      );
      const { deposit_id, transaction_hash } = created.body.data;
      const path = `/api/v1/deposits/${deposit_id}/receipt`;
      const noFile = await postForm(
        platform.baseUrl,
        path,
        { transaction_hash },
        null,
        trader.token,
      );
      expect(noFile.status).toBe(422);
      expect(noFile.body.errors.receipt).toEqual([f.receiptRequired]);
      const noHash = await postForm(
        platform.baseUrl,
        path,
        {},
        { field: "receipt", bytes: pngBytes(), name: "r.png" },
        trader.token,
      );
      expect(noHash.status).toBe(422);
      expect(noHash.body.message).toBe(f.transactionHashRequired);
      const wrongHash = await postForm(
        platform.baseUrl,
        path,
        { transaction_hash: "DEP-AAAAAAAAAAAA" },
        { field: "receipt", bytes: pngBytes(), name: "r.png" },
        trader.token,
      );
      expect(wrongHash.status).toBe(422);
      expect(wrongHash.body.message).toBe(f.transactionHashMismatch);
      const json = await http.post(path, { transaction_hash }, trader.token);
      expect(json.status).toBe(415);
      expect(json.body.message).toBe(f.sendMultipart);
      const still = await http.get(`/api/v1/deposits/${deposit_id}`, trader.token);
      expect(still.body.data.deposit.status).toBe("awaiting_payment");
    });

    it("keeps each trader's deposits their own: another trader gets 404 everywhere", async () => {
      const owner = await signedInTrader(platform);
      const other = await signedInTrader(platform);
      const created = await http.post(
        "/api/v1/deposits",
        { payment_method_id: "bitcoin", amount: 10 },
        owner.token,
      );
      const { deposit_id, transaction_hash } = created.body.data;
      const path = `/api/v1/deposits/${deposit_id}`;
      expect((await http.get(path, other.token)).status).toBe(404);
      expect((await http.request("DELETE", path, { token: other.token })).status).toBe(404);
      const upload = await postForm(
        platform.baseUrl,
        `${path}/receipt`,
        { transaction_hash },
        { field: "receipt", bytes: pngBytes(), name: "r.png" },
        other.token,
      );
      expect(upload.status).toBe(404);
      expect((await http.get(`${path}/receipt`, other.token)).status).toBe(404);
      expect((await http.get("/api/v1/deposits/999999999", owner.token)).status).toBe(404);
      expect((await http.get(path, owner.token)).body.data.deposit.status).toBe("awaiting_payment");
      // Then the owner uploads; the other still sees nothing of it.
      await postForm(
        platform.baseUrl,
        `${path}/receipt`,
        { transaction_hash },
        { field: "receipt", bytes: pngBytes(), name: "r.png" },
        owner.token,
      );
      expect((await http.get(`${path}/receipt`, other.token)).status).toBe(404);
      expect((await http.get(`${path}/receipt`, owner.token)).status).toBe(200);
      const history = await http.get("/api/v1/transaction-history", other.token);
      expect(history.body.data.data).toEqual([]);
    });

    it("refuses a deposit past the awaiting-payment limit with its own code", async () => {
      const trader = await signedInTrader(platform);
      const create = () =>
        http.post(
          "/api/v1/deposits",
          { payment_method_id: "western-union", amount: 5 },
          trader.token,
        );
      for (let index = 0; index < awaiting_deposits_max; index++) {
        expect((await create()).status).toBe(201);
      }
      const refused = await create();
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("TOO_MANY_AWAITING_DEPOSITS");
    });

    it("replays an Idempotency-Key instead of creating a second deposit", async () => {
      const trader = await signedInTrader(platform);
      const send = (amount: number) =>
        http.request("POST", "/api/v1/deposits", {
          json: { payment_method_id: "bitcoin", amount },
          token: trader.token,
          headers: { "idempotency-key": "deposit-once" },
        });
      const first = await send(20);
      const second = await send(20);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers.get("idempotency-replayed")).toBe("true");
      expect(second.body.data.deposit_id).toBe(first.body.data.deposit_id);
      const reused = await send(21);
      expect(reused.status).toBe(409);
      expect(reused.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
      const count = await platform.database.query("SELECT 1 FROM deposits WHERE user_id = $1", [
        trader.user.id,
      ]);
      expect(count.rowCount).toBe(1);
    });
  });

  describe("withdrawals", () => {
    beforeAll(async () => configurePaymentMethods(platform, admin));

    it("needs a verified e-mail, then approved identity documents, each with its message", async () => {
      const trader = await signedInTrader(platform);
      const body = { payment_method_id: "bitcoin", amount: 25, withdrawal_details: bitcoinDetails };
      const unverified = await http.post("/api/v1/withdrawals", body, trader.token);
      expect(unverified.status).toBe(403);
      expect(unverified.body).toMatchObject({
        message: f.emailNotVerified,
        code: "EMAIL_NOT_VERIFIED",
      });
      const verified = await verifiedTrader(platform);
      const noIdentity = await http.post("/api/v1/withdrawals", body, verified.token);
      expect(noIdentity.status).toBe(403);
      expect(noIdentity.body).toMatchObject({
        message: f.identityNotVerified,
        code: "IDENTITY_NOT_VERIFIED",
      });
      await identityApproved(platform, verified.token, admin);
      const noMoney = await http.post("/api/v1/withdrawals", body, verified.token);
      expect(noMoney.status).toBe(422);
      expect(noMoney.body).toMatchObject({
        message: f.insufficientBalance,
        code: "INSUFFICIENT_FUNDS",
      });
      const rows = await platform.database.query(
        "SELECT 1 FROM withdrawals WHERE user_id = ANY($1)",
        [[trader.user.id, verified.user.id]],
      );
      expect(rows.rowCount).toBe(0);
    });

    it("never pays out practice money", async () => {
      const trader = await withdrawableTrader(platform, admin, 0);
      expect((await balancesOf(platform, trader.token)).practice_balance).toBe(10000);
      const reply = await http.post(
        "/api/v1/withdrawals",
        { payment_method_id: "bitcoin", amount: 5, withdrawal_details: bitcoinDetails },
        trader.token,
      );
      expect(reply.status).toBe(422);
      expect(reply.body.message).toBe(f.insufficientBalance);
      expect((await balancesOf(platform, trader.token)).practice_balance).toBe(10000);
    });

    it("checks the details by the method's kind, with the form's messages", async () => {
      const trader = await withdrawableTrader(platform, admin, 0);
      const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
        [
          { payment_method_id: "paypal", amount: 10, withdrawal_details: {} },
          { payment_method_id: [f.invalidWithdrawalMethod] },
        ],
        [
          { payment_method_id: "bitcoin", amount: 0, withdrawal_details: {} },
          {
            amount: [f.validAmount],
            "withdrawal_details.wallet_address": [f.walletAddressRequired],
          },
        ],
        [
          {
            payment_method_id: "bitcoin",
            amount: 10,
            withdrawal_details: { wallet_address: "not a wallet!" },
          },
          { "withdrawal_details.wallet_address": [f.walletAddressInvalid] },
        ],
        [
          {
            payment_method_id: "western-union",
            amount: 10,
            withdrawal_details: { amount: 11, receiver_name: "Ada" },
          },
          {
            "withdrawal_details.amount": [f.detailsAmountMismatch],
            "withdrawal_details.receiver_address": [f.receiverAddressRequired],
          },
        ],
        [
          {
            payment_method_id: "bank-transfer",
            amount: 10,
            withdrawal_details: { bank_name: "B" },
          },
          {
            "withdrawal_details.account_name": [f.accountNameRequired],
            "withdrawal_details.account_number": [f.accountNumberRequired],
            "withdrawal_details.routing_number": [f.routingNumberRequired],
          },
        ],
        [
          { payment_method_id: "bitcoin", amount: 10 },
          { withdrawal_details: [f.withdrawalDetailsRequired] },
        ],
      ];
      for (const [body, errors] of cases) {
        const reply = await http.post("/api/v1/withdrawals", body, trader.token);
        expect(reply.status, JSON.stringify(body)).toBe(422);
        expect(reply.body.errors, JSON.stringify(body)).toEqual(errors);
      }
    });

    it("holds the amount on request, pays it out on approval, and shows it in history", async () => {
      const trader = await withdrawableTrader(platform, admin, 100);
      platform.clock.advance(1000);
      const requested = await http.post(
        "/api/v1/withdrawals",
        {
          payment_method_id: "bank-transfer",
          amount: 60,
          withdrawal_details: {
            amount: 60,
            bank_name: " First Bank ",
            account_name: "Ada Lovelace",
            account_number: "987654",
            routing_number: "021000021",
            unexpected: "<script>",
          },
        },
        trader.token,
      );
      expect(requested.status).toBe(201);
      expect(requested.body.message).toBe(f.withdrawalRequested);
      const { withdrawal_id, transaction_hash, withdrawal, account_balance } = requested.body.data;
      expect(transaction_hash).toMatch(/^WDR-/);
      expect(account_balance).toBe(40);
      expect(withdrawal).toMatchObject({ id: withdrawal_id, status: "pending", amount: 60 });
      expect(withdrawal.withdrawal_details).toEqual({
        amount: 60,
        bank_name: "First Bank",
        account_name: "Ada Lovelace",
        account_number: "987654",
        routing_number: "021000021",
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(40);
      await confirmWithdrawalByEmail(platform, trader.email, transaction_hash);

      const noReference = await http.post(
        `/api/v1/admin/withdrawals/${withdrawal_id}/approve`,
        {},
        admin,
      );
      expect(noReference.status).toBe(422);
      expect(noReference.body.message).toBe("A payout reference is required");
      const paid = await http.post(
        `/api/v1/admin/withdrawals/${withdrawal_id}/approve`,
        { payout_reference: "BANK-TX-778" },
        admin,
      );
      expect(paid.status).toBe(200);
      expect(paid.body.data.withdrawal).toMatchObject({
        status: "paid",
        payout_reference: "BANK-TX-778",
        trader: { id: trader.user.id, email: trader.email },
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(40);
      const again = await http.post(
        `/api/v1/admin/withdrawals/${withdrawal_id}/reject`,
        { reason: "changed my mind" },
        admin,
      );
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("WITHDRAWAL_NOT_PENDING");
      const cancelLate = await http.request("DELETE", `/api/v1/withdrawals/${withdrawal_id}`, {
        token: trader.token,
      });
      expect(cancelLate.status).toBe(409);
      expect(cancelLate.body).toMatchObject({
        message: f.withdrawalNotPending,
        code: "WITHDRAWAL_NOT_PENDING",
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(40);

      const history = await http.get("/api/v1/transaction-history", trader.token);
      expect(history.status).toBe(200);
      expect(history.body.data.pagination).toEqual({ last_page: 1, current_page: 1, total: 2 });
      const [newest, oldest] = history.body.data.data;
      expect(newest).toMatchObject({
        id: withdrawal_id,
        type: "withdrawal",
        method: "Bank Transfer",
        amount: 60,
        status: "paid",
        transactionId: transaction_hash,
        note: "BANK-TX-778",
      });
      expect(oldest).toMatchObject({ type: "deposit", status: "confirmed", amount: 100 });
      const kinds = (await notificationsOf(platform, trader.user.id)).map((note) => note.kind);
      expect(kinds).toEqual([
        "verification_approved",
        "deposit_confirmed",
        "withdrawal_requested",
        "withdrawal_paid",
      ]);
      const sums = await platform.database.query<{ code: string; balance_cents: number }>(
        `SELECT code, balance_cents FROM ledger_accounts WHERE code IN ('withdrawals:held', 'payouts:sent')`,
      );
      expect(
        sums.rows.find((row) => row.code === "payouts:sent")!.balance_cents,
      ).toBeGreaterThanOrEqual(6000);
    });

    it("releases the hold when staff reject or the trader cancels", async () => {
      const trader = await withdrawableTrader(platform, admin, 50);
      const request = () =>
        http.post(
          "/api/v1/withdrawals",
          {
            payment_method_id: "western-union",
            amount: 30,
            withdrawal_details: { receiver_name: "Ada Lovelace", receiver_address: "1 Main St" },
          },
          trader.token,
        );
      const first = await request();
      expect(first.status).toBe(201);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(20);
      const second = await request();
      expect(second.status).toBe(422);
      expect(second.body.message).toBe(f.insufficientBalance);
      await confirmWithdrawalByEmail(platform, trader.email, first.body.data.transaction_hash);

      const rejected = await http.post(
        `/api/v1/admin/withdrawals/${first.body.data.withdrawal_id}/reject`,
        { reason: "Name does not match the account" },
        admin,
      );
      expect(rejected.status).toBe(200);
      expect(rejected.body.data.withdrawal).toMatchObject({
        status: "rejected",
        rejection_reason: "Name does not match the account",
      });
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(50);

      const third = await request();
      expect(third.status).toBe(201);
      const id = third.body.data.withdrawal_id;
      const other = await signedInTrader(platform);
      expect(
        (await http.request("DELETE", `/api/v1/withdrawals/${id}`, { token: other.token })).status,
      ).toBe(404);
      expect((await http.get(`/api/v1/withdrawals/${id}`, other.token)).status).toBe(404);
      const cancelled = await http.request("DELETE", `/api/v1/withdrawals/${id}`, {
        token: trader.token,
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.withdrawal.status).toBe("cancelled");
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(50);
      const payCancelled = await http.post(
        `/api/v1/admin/withdrawals/${id}/approve`,
        { payout_reference: "X" },
        admin,
      );
      expect(payCancelled.status).toBe(409);
      expect(payCancelled.body.code).toBe("WITHDRAWAL_NOT_PENDING");
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(50);
      const kinds = (await notificationsOf(platform, trader.user.id)).map((note) => note.kind);
      expect(kinds.slice(-4)).toEqual([
        "withdrawal_requested",
        "withdrawal_rejected",
        "withdrawal_requested",
        "withdrawal_cancelled",
      ]);
    });

    it("replays a withdrawal sent twice with one Idempotency-Key: one hold", async () => {
      const trader = await withdrawableTrader(platform, admin, 10);
      const send = () =>
        http.request("POST", "/api/v1/withdrawals", {
          json: { payment_method_id: "bitcoin", amount: 10, withdrawal_details: bitcoinDetails },
          token: trader.token,
          headers: { "idempotency-key": "w-1" },
        });
      const [first, second] = await Promise.all([send(), send()]);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.data.withdrawal_id).toBe(first.body.data.withdrawal_id);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);
      const rows = await platform.database.query("SELECT 1 FROM withdrawals WHERE user_id = $1", [
        trader.user.id,
      ]);
      expect(rows.rowCount).toBe(1);
    });

    it("refuses a withdrawal past the pending limit with its own code", async () => {
      const trader = await withdrawableTrader(platform, admin, pending_withdrawals_max + 1);
      const request = () =>
        http.post(
          "/api/v1/withdrawals",
          { payment_method_id: "bitcoin", amount: 1, withdrawal_details: bitcoinDetails },
          trader.token,
        );
      for (let index = 0; index < pending_withdrawals_max; index++) {
        expect((await request()).status).toBe(201);
      }
      const refused = await request();
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("TOO_MANY_PENDING_WITHDRAWALS");
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(1);
    });

    it("can be switched off: REQUIRE_KYC_FOR_WITHDRAWAL=false needs only the e-mail", async () => {
      const relaxed = await startFundingPlatform(kind, {
        REQUIRE_KYC_FOR_WITHDRAWAL: "false",
        REQUIRE_VERIFIED_EMAIL_FOR_WITHDRAWAL: "true",
      });
      try {
        const relaxedAdmin = await staffToken(relaxed);
        await configurePaymentMethods(relaxed, relaxedAdmin);
        const trader = await verifiedTrader(relaxed);
        await depositApproved(relaxed, trader.token, relaxedAdmin, 5);
        const reply = await httpClient(relaxed.baseUrl).post(
          "/api/v1/withdrawals",
          { payment_method_id: "bitcoin", amount: 5, withdrawal_details: bitcoinDetails },
          trader.token,
        );
        expect(reply.status).toBe(201);
        expect(await relaxed.ledgerViolations()).toEqual([]);
      } finally {
        await relaxed.close();
      }
    });
  });

  describe("identity documents", () => {
    it("asks for the terms first, then takes the document for review", async () => {
      const trader = await signedInTrader(platform);
      const file = { field: "file", bytes: pngBytes(), name: "id.png" };
      const noTerms = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { id_type: "passport", accept_terms: "0" },
        file,
        trader.token,
      );
      expect(noTerms.status).toBe(422);
      expect(noTerms.body.message).toBe(f.acceptTermsFirst);
      const badType = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { id_type: "library_card", accept_terms: "1" },
        file,
        trader.token,
      );
      expect(badType.status).toBe(422);
      expect(badType.body.errors.id_type).toEqual([f.idTypeInvalid]);
      const noFile = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { id_type: "passport", accept_terms: "1" },
        null,
        trader.token,
      );
      expect(noFile.status).toBe(422);
      expect(noFile.body.message).toBe(f.fileRequired);

      // SPEC §3 names the fields idType / acceptTerms too; the type is optional (SPEC §5).
      const uploaded = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { acceptTerms: "1" },
        file,
        trader.token,
      );
      expect(uploaded.status).toBe(201);
      expect(uploaded.body.message).toBe(f.verificationUploaded);
      expect(uploaded.body.data.verification).toMatchObject({
        status: "pending",
        id_type: null,
        content_type: "image/png",
      });
      const twice = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { id_type: "passport", accept_terms: "1" },
        file,
        trader.token,
      );
      expect(twice.status).toBe(409);
      expect(twice.body).toMatchObject({
        message: f.identityAlreadyPending,
        code: "VERIFICATION_ALREADY_PENDING",
      });

      const id = uploaded.body.data.verification.id;
      const rejected = await http.post(
        `/api/v1/admin/verifications/${id}/reject`,
        { reason: "The photo is blurred" },
        admin,
      );
      expect(rejected.status).toBe(200);
      expect((await balancesOf(platform, trader.token)).kyc_verified_at).toBeNull();
      const mine = await http.get("/api/v1/verifications", trader.token);
      expect(mine.body.data).toMatchObject({
        kyc_verified_at: null,
        data: [{ id, status: "rejected", rejection_reason: "The photo is blurred" }],
      });

      const second = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { id_type: "drivers_license", accept_terms: "1" },
        { field: "file", bytes: pdfBytes(), name: "licence.pdf" },
        trader.token,
      );
      expect(second.status).toBe(201);
      const approved = await http.post(
        `/api/v1/admin/verifications/${second.body.data.verification.id}/approve`,
        undefined,
        admin,
      );
      expect(approved.status).toBe(200);
      expect(approved.body.data.verification.kyc_verified_at).not.toBeNull();
      expect((await balancesOf(platform, trader.token)).kyc_verified_at).toBe(
        platform.clock.now().toISOString(),
      );
      const afterApproval = await postForm(
        platform.baseUrl,
        "/api/v1/upload-verification",
        { id_type: "passport", accept_terms: "1" },
        file,
        trader.token,
      );
      expect(afterApproval.status).toBe(409);
      expect(afterApproval.body).toMatchObject({
        message: f.identityAlreadyVerified,
        code: "IDENTITY_ALREADY_VERIFIED",
      });
      const approveAgain = await http.post(
        `/api/v1/admin/verifications/${second.body.data.verification.id}/approve`,
        undefined,
        admin,
      );
      expect(approveAgain.status).toBe(409);
      expect(approveAgain.body.code).toBe("VERIFICATION_NOT_PENDING");
      expect((await notificationsOf(platform, trader.user.id)).map((note) => note.kind)).toEqual([
        "verification_rejected",
        "verification_approved",
      ]);
      const other = await signedInTrader(platform);
      expect((await http.get(`/api/v1/verifications/${id}/file`, other.token)).status).toBe(404);
      expect((await http.get(`/api/v1/verifications/${id}/file`, trader.token)).status).toBe(200);
    });
  });

  describe("transaction history", () => {
    it("pages newest first", async () => {
      await configurePaymentMethods(platform, admin);
      const trader = await signedInTrader(platform);
      for (const amount of [1, 2, 3]) {
        await http.post("/api/v1/deposits", { payment_method_id: "bitcoin", amount }, trader.token);
        platform.clock.advance(1000);
      }
      const page1 = await http.get("/api/v1/transaction-history?page=1&limit=2", trader.token);
      expect(page1.body.data.data.map((row: { amount: number }) => row.amount)).toEqual([3, 2]);
      expect(page1.body.data.pagination).toEqual({ last_page: 2, current_page: 1, total: 3 });
      const page2 = await http.get("/api/v1/transaction-history?page=2&limit=2", trader.token);
      expect(page2.body.data.data.map((row: { amount: number }) => row.amount)).toEqual([1]);
      expect(page2.body.data.data[0]).toMatchObject({
        type: "deposit",
        method: "Bitcoin",
        status: "awaiting_payment",
      });
      const bad = await http.get("/api/v1/transaction-history?limit=1000", trader.token);
      expect(bad.status).toBe(400);
      expect((await http.get("/api/v1/transaction-history", undefined)).status).toBe(401);
    });
  });
});

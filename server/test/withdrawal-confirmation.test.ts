import { fundingMessages as f } from "@tp/domain/funding";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { step_up_window_ms } from "../src/auth/step-up.ts";
import { expireUnconfirmedWithdrawals } from "../src/funding/withdrawals.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { emailedLink } from "./support/accounts.ts";
import {
  balancesOf,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  notificationsOf,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const hour_ms = 60 * 60 * 1000;
const body = {
  payment_method_id: "bitcoin",
  amount: 25,
  withdrawal_details: { wallet_address: "bc1qconfirmbyemail0000000000000" },
};

/**
 * Issue 12: money leaves only after a fresh step-up and the trader's e-mailed link; staff
 * do not see a withdrawal before it is confirmed; an unconfirmed one expires and releases.
 */
describe.each(databaseKindsUnderTest())(
  "withdrawal step-up and e-mail confirmation on %s",
  (kind) => {
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
    // Staff sessions end after 30 idle minutes and tests move the clock by hours: each test
    // signs staff in afresh.
    beforeEach(async () => {
      admin = await staffToken(platform);
    });
    afterEach(async () => {
      expect(await platform.ledgerViolations()).toEqual([]);
    });

    const staffQueueIds = async () =>
      (
        (await http.get("/api/v1/admin/withdrawals?status=pending", admin)).body.data
          .data as Array<{
          id: number;
        }>
      ).map((row) => row.id);

    it("is refused without a fresh step-up and without the e-mail confirmation; accepted with both", async () => {
      const trader = await withdrawableTrader(platform, admin, 100);
      // Staff may have taken a while: the sign-in's step-up has run out.
      platform.clock.advance(step_up_window_ms + 1000);
      admin = await staffToken(platform);
      const refused = await http.post("/api/v1/withdrawals", body, trader.token);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("STEP_UP_REQUIRED");
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(100);

      const stepped = await http.post(
        "/api/v1/step-up",
        { password: trader.password },
        trader.token,
      );
      expect(stepped.status).toBe(200);
      const requested = await http.post("/api/v1/withdrawals", body, trader.token);
      expect(requested.status).toBe(201);
      const { withdrawal_id, transaction_hash } = requested.body.data;
      expect(requested.body.data.withdrawal.email_confirmed_at).toBeNull();
      // Held at once: the balance shown is what can still be spent.
      expect(requested.body.data.account_balance).toBe(75);

      // Not confirmed: staff neither list it nor can act on it.
      expect(await staffQueueIds()).not.toContain(withdrawal_id);
      expect((await http.get(`/api/v1/admin/withdrawals/${withdrawal_id}`, admin)).status).toBe(
        404,
      );
      const payEarly = await http.post(
        `/api/v1/admin/withdrawals/${withdrawal_id}/approve`,
        { payout_reference: "EARLY" },
        admin,
      );
      expect(payEarly.status).toBe(404);

      // The trader was e-mailed: amount, method, reference, a link to the confirm page.
      const mail = await platform.smtp.waitFor(
        trader.email,
        new RegExp(`^Confirm your withdrawal ${transaction_hash} of \\$25\\.00$`),
      );
      expect(mail.text).toContain("Bitcoin");
      const link = await emailedLink(platform, trader.email, new RegExp(transaction_hash));
      expect(link.url.pathname).toBe("/account/confirm-withdrawal");
      const wrong = await http.post("/api/v1/withdrawals/confirm", { token: "not-a-token" });
      expect(wrong.status).toBe(422);
      expect(wrong.body.message).toBe(f.withdrawalConfirmLinkInvalid);

      const confirmed = await confirmWithdrawalByEmail(platform, trader.email, transaction_hash);
      expect(confirmed.body.message).toBe(f.withdrawalConfirmed);
      expect(confirmed.body.data.withdrawal.email_confirmed_at).toBe(
        platform.clock.now().toISOString(),
      );
      const again = await http.post("/api/v1/withdrawals/confirm", { token: link.token });
      expect(again.status).toBe(200);
      expect(again.body.message).toBe(f.withdrawalAlreadyConfirmed);

      expect(await staffQueueIds()).toContain(withdrawal_id);
      const paid = await http.post(
        `/api/v1/admin/withdrawals/${withdrawal_id}/approve`,
        { payout_reference: "BTC-TX-1" },
        admin,
      );
      expect(paid.status).toBe(200);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(75);
    });

    it("a link never opened expires: the withdrawal is cancelled and the money is back; the link then fails", async () => {
      const trader = await withdrawableTrader(platform, admin, 60);
      const requested = await http.post("/api/v1/withdrawals", body, trader.token);
      expect(requested.status).toBe(201);
      const { withdrawal_id, transaction_hash } = requested.body.data;
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(35);
      const link = await emailedLink(platform, trader.email, new RegExp(transaction_hash));

      // Not yet due: nothing moves.
      platform.clock.advance(23 * hour_ms);
      expect(await expireUnconfirmedWithdrawals(platform.context, platform.clock.now())).toBe(0);
      // Still held (this read also keeps the trader's 24-hour idle session alive).
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(35);
      platform.clock.advance(hour_ms);
      expect(await expireUnconfirmedWithdrawals(platform.context, platform.clock.now())).toBe(1);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(60);
      const after = await http.get(`/api/v1/withdrawals/${withdrawal_id}`, trader.token);
      expect(after.body.data.withdrawal.status).toBe("cancelled");
      const late = await http.post("/api/v1/withdrawals/confirm", { token: link.token });
      expect(late.status).toBe(422);
      expect(late.body.message).toBe(f.withdrawalConfirmLinkInvalid);
      const notes = await notificationsOf(platform, trader.user.id);
      expect(notes.at(-1)).toMatchObject({ kind: "withdrawal_cancelled" });
      expect(notes.at(-1)!.message).toMatch(/not confirmed from the e-mailed link in time/);
      // A second pass finds nothing more (the release happened once).
      expect(await expireUnconfirmedWithdrawals(platform.context, platform.clock.now())).toBe(0);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(60);
    });

    it("a link of a withdrawal the trader cancelled does not confirm it", async () => {
      const trader = await withdrawableTrader(platform, admin, 30);
      const requested = await http.post("/api/v1/withdrawals", body, trader.token);
      const { withdrawal_id, transaction_hash } = requested.body.data;
      const link = await emailedLink(platform, trader.email, new RegExp(transaction_hash));
      const cancelled = await http.request("DELETE", `/api/v1/withdrawals/${withdrawal_id}`, {
        token: trader.token,
      });
      expect(cancelled.status).toBe(200);
      const confirm = await http.post("/api/v1/withdrawals/confirm", { token: link.token });
      expect(confirm.status).toBe(422);
      expect((await balancesOf(platform, trader.token)).account_balance).toBe(30);
    });
  },
);

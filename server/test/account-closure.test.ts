import { existsSync } from "node:fs";
import path from "node:path";
import { accountClosureMessages, closureBalanceRemainingMessage } from "@tp/domain/account-closure";
import { excludedMessage } from "@tp/domain/trader-limits";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ClosureDependencies, runClosurePass } from "../src/account-closure/closure.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import {
  balancesOf,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient, newTrader } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";

const closurePath = "/api/v1/account/closure";
const asset = "BTCUSDT"; // crypto trades every day: the clock may cross a weekend
const wallet = { wallet_address: "bc1qtraderownwallet0000000000" };

describe.each(databaseKindsUnderTest())("account closure (issue 14 item 7) on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind, { ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true" });
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  /** The worker's pass, run now rather than at its next poll. */
  function closurePass() {
    const { context } = platform;
    const dependencies: ClosureDependencies = {
      database: context.database,
      bus: context.bus,
      retentionYears: context.config.RECORD_RETENTION_YEARS,
      siteName: context.siteContent.company.name,
      uploadsDirectory: context.uploadsDirectory,
      onEmailsQueued: context.outbox.kick,
    };
    return runClosurePass(dependencies, platform.clock.now());
  }

  function trade(token: string, amount: number, is_practice = false) {
    return http.post(
      "/api/v1/place-trade",
      { asset, type: "call", amount, duration: 60, is_practice },
      token,
    );
  }

  async function withdraw(trader: { token: string; email: string }, amount: number) {
    const reply = await http.post(
      "/api/v1/withdrawals",
      { payment_method_id: "bitcoin", amount, withdrawal_details: wallet },
      trader.token,
    );
    expect(reply.status, reply.text).toBe(201);
    await confirmWithdrawalByEmail(platform, trader.email, reply.body.data.transaction_hash);
    return reply.body.data.withdrawal_id as number;
  }

  async function count(sql: string, params: unknown[]): Promise<number> {
    const result = await platform.database.query<{ n: number }>(sql, params);
    return Number(result.rows[0]!.n);
  }

  it("refuses a wrong or missing password, and real money left on the account", async () => {
    admin = await staffToken(platform);
    const trader = await withdrawableTrader(platform, admin, 120);

    const missing = await http.post(closurePath, {}, trader.token);
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe(accountClosureMessages.passwordRequired);
    const wrong = await http.post(closurePath, { password: "NotMyPassword1" }, trader.token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toEqual([accountClosureMessages.passwordWrong]);

    const withMoney = await http.post(closurePath, { password: trader.password }, trader.token);
    expect(withMoney.status).toBe(409);
    expect(withMoney.body.code).toBe("CLOSURE_BALANCE_REMAINING");
    expect(withMoney.body.message).toBe(closureBalanceRemainingMessage(120_00));

    // Nothing was started: the account is open and trades as before.
    const state = await http.get(closurePath, trader.token);
    expect(state.body.data.closure).toEqual({
      status: "open",
      requested_at: null,
      closed_at: null,
      waiting_for: [],
      record_retention_years: 5,
    });
    await advanceWithTick(platform, asset, 50_000, 1_000);
    expect((await trade(trader.token, 5)).status).toBe(201);
  });

  it("stops trading and deposits at once, waits for the open trade and the withdrawals, then closes, e-mails once, erases what it says and keeps what it says; the kept identity goes after the retention time", async () => {
    admin = await staffToken(platform);
    const trader = await withdrawableTrader(platform, admin, 300);
    const userId = trader.user.id as number;
    await advanceWithTick(platform, asset, 50_000, 1_000);
    expect((await trade(trader.token, 10)).status).toBe(201);
    const awaiting = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 50 },
      trader.token,
    );
    expect(awaiting.status, awaiting.text).toBe(201);
    const firstWithdrawal = await withdraw(trader, 290);
    expect((await balancesOf(platform, trader.token)).account_balance).toBe(0);

    const requested = await http.post(closurePath, { password: trader.password }, trader.token);
    expect(requested.status, requested.text).toBe(201);
    expect(requested.body.message).toBe(accountClosureMessages.requested);
    expect(requested.body.data.closure).toEqual({
      status: "closing",
      requested_at: platform.clock.now().toISOString(),
      closed_at: null,
      waiting_for: ["open_trades", "pending_withdrawals"],
      record_retention_years: 5,
    });
    const again = await http.post(closurePath, { password: trader.password }, trader.token);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(accountClosureMessages.alreadyRequested);
    const awaitingNow = await platform.database.query<{ status: string }>(
      "SELECT status FROM deposits WHERE id = $1",
      [awaiting.body.data.deposit_id],
    );
    expect(awaitingNow.rows[0]!.status).toBe("cancelled");

    // Trading (practice too: the real balance is nil) and deposits stop at once.
    const refusedTrade = await trade(trader.token, 5, true);
    expect(refusedTrade.status).toBe(403);
    expect(refusedTrade.body.message).toBe(excludedMessage("closure", null));
    const refusedDeposit = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 50 },
      trader.token,
    );
    expect(refusedDeposit.status).toBe(403);
    expect(refusedDeposit.body.code).toBe("EXCLUDED");
    expect(await closurePass()).toBe(0);

    // The open trade settles as usual (a win): its payout must be withdrawn, and can be.
    await advanceWithTick(platform, asset, 51_000, 61_000);
    await advanceWithTick(platform, asset, 51_000, 5_000);
    await platform.context.settlement.settleDue();
    const winnings = (await balancesOf(platform, trader.token)).account_balance;
    expect(winnings).toBeGreaterThan(0);
    expect((await http.get(closurePath, trader.token)).body.data.closure.waiting_for).toEqual([
      "pending_withdrawals",
      "real_balance",
    ]);
    expect(await closurePass()).toBe(0);
    const secondWithdrawal = await withdraw(trader, winnings);
    expect(await closurePass()).toBe(0);

    admin = await staffToken(platform);
    for (const [id, reference] of [
      [firstWithdrawal, "BTC-1"],
      [secondWithdrawal, "BTC-2"],
    ] as const) {
      const paid = await http.post(
        `/api/v1/admin/withdrawals/${id}/approve`,
        { payout_reference: reference },
        admin,
      );
      expect(paid.status, paid.text).toBe(200);
    }
    const staffView = await http.get(`/api/v1/admin/users/${userId}`, admin);
    expect(staffView.body.data.user.closure).toMatchObject({ status: "closing", closed_at: null });

    // Keys and browsers the closing must erase (the second factor and a push subscription).
    const at = platform.clock.now();
    await platform.database.query(
      "INSERT INTO totp_secrets (user_id, secret_base32, created_at) VALUES ($1, 'JBSWY3DPEHPK3PXP', $2)",
      [userId, at],
    );
    await platform.database.query(
      "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES ($1, 'hash', $2)",
      [userId, at],
    );
    await platform.database.query(
      `INSERT INTO passkeys (user_id, credential_id, public_key, name, created_at)
       VALUES ($1, $2, '\\x00', 'Laptop', $3)`,
      [userId, `credential-${userId}`, at],
    );
    await platform.database.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at, updated_at)
       VALUES ($1, $2, 'key', 'auth', $3, $3)`,
      [userId, `https://push.example.test/${userId}`, at],
    );
    const before = await platform.database.query<Record<string, unknown>>(
      "SELECT email, first_name, last_name, country FROM users WHERE id = $1",
      [userId],
    );
    const ledgerLinesBefore = await count(
      `SELECT COUNT(*)::bigint AS n FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
       WHERE a.user_id = $1`,
      [userId],
    );
    const mailsBefore = platform.smtp.messages.filter((m) => m.to.includes(trader.email)).length;

    expect(await closurePass()).toBe(1);
    const closedAt = platform.clock.now();
    expect(await closurePass()).toBe(0);
    const closed = await http.get(`/api/v1/admin/users/${userId}`, admin);
    expect(closed.body.data.user.closure).toMatchObject({
      status: "closed",
      closed_at: closedAt.toISOString(),
    });

    // No sign-in, and the old session is over.
    const signIn = await http.post("/api/v1/login", {
      email: trader.email,
      password: trader.password,
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe("ACCOUNT_CLOSED");
    expect(signIn.body.message).toBe(accountClosureMessages.accountClosed);
    expect((await http.get("/api/v1/user", trader.token)).status).toBe(401);

    // One e-mail, the confirmation; a reset request and a new sign-up with the address send none.
    const confirmation = await platform.smtp.waitFor(
      trader.email,
      new RegExp(`^${accountClosureMessages.closedConfirmationSubject}`),
    );
    expect(confirmation.text).toContain("this is the last e-mail we send you");
    expect((await http.post("/api/v1/forgot-password", { email: trader.email })).status).toBe(200);
    for (let waited = 0; waited < 100; waited++) {
      if ((await count("SELECT COUNT(*)::bigint AS n FROM account_email_requests", [])) === 0) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The address is still taken (kept for record keeping): a sign-up with it would e-mail the owner.
    const signUp = await http.post("/api/v1/register", newTrader({ email: trader.email }));
    expect(signUp.status).toBe(201);
    platform.context.outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const queuedSince = await platform.database.query<{ subject: string }>(
      "SELECT subject FROM outbox_emails WHERE recipient = $1 AND created_at >= $2",
      [trader.email, closedAt],
    );
    expect(queuedSince.rows.map((row) => row.subject)).toEqual([confirmation.subject]);
    expect(platform.smtp.messages.filter((m) => m.to.includes(trader.email)).length).toBe(
      mailsBefore + 1,
    );

    // Erased: credentials, keys, browsers, notifications, network traces, contact data.
    const user = await platform.database.query<Record<string, unknown>>(
      "SELECT password_hash, phone_number, username, closed_at FROM users WHERE id = $1",
      [userId],
    );
    expect(user.rows[0]).toEqual({
      password_hash: "",
      phone_number: "",
      username: `closed-${userId}`,
      closed_at: closedAt,
    });
    for (const table of [
      "totp_secrets",
      "recovery_codes",
      "passkeys",
      "email_tokens",
      "auth_challenges",
      "push_subscriptions",
      "notifications",
    ]) {
      expect(
        await count(`SELECT COUNT(*)::bigint AS n FROM ${table} WHERE user_id = $1`, [userId]),
        table,
      ).toBe(0);
    }
    expect(
      await count(
        `SELECT COUNT(*)::bigint AS n FROM sessions
         WHERE user_id = $1 AND (ip IS NOT NULL OR user_agent IS NOT NULL OR revoked_at IS NULL)`,
        [userId],
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT COUNT(*)::bigint AS n FROM sign_in_attempts
         WHERE user_id = $1 AND (ip <> '' OR user_agent IS NOT NULL OR device_key <> '')`,
        [userId],
      ),
    ).toBe(0);
    expect(
      await count("SELECT COUNT(*)::bigint AS n FROM sign_in_attempts WHERE user_id = $1", [
        userId,
      ]),
    ).toBeGreaterThan(0);

    // Kept for record keeping: the identity, documents, trades, funding rows, ledger lines.
    const kept = await platform.database.query<Record<string, unknown>>(
      "SELECT email, first_name, last_name, country FROM users WHERE id = $1",
      [userId],
    );
    expect(kept.rows[0]).toEqual(before.rows[0]);
    const uploads = await platform.database.query<{ storage_name: string; original_name: string }>(
      "SELECT storage_name, original_name FROM uploads WHERE user_id = $1",
      [userId],
    );
    expect(uploads.rows.length).toBeGreaterThanOrEqual(2); // receipt and passport
    for (const upload of uploads.rows) {
      expect(upload.original_name).not.toBeNull();
      expect(existsSync(path.join(platform.context.uploadsDirectory, upload.storage_name))).toBe(
        true,
      );
    }
    expect(
      await count("SELECT COUNT(*)::bigint AS n FROM trades WHERE user_id = $1", [userId]),
    ).toBe(1);
    expect(
      await count(
        `SELECT COUNT(*)::bigint AS n FROM withdrawals
         WHERE user_id = $1 AND withdrawal_details->>'wallet_address' = $2`,
        [userId, wallet.wallet_address],
      ),
    ).toBe(2);
    expect(
      await count("SELECT COUNT(*)::bigint AS n FROM deposits WHERE user_id = $1", [userId]),
    ).toBe(2);
    expect(
      await count(`SELECT COUNT(*)::bigint AS n FROM verification_documents WHERE user_id = $1`, [
        userId,
      ]),
    ).toBe(1);

    // Just before the retention time nothing more goes; at it, the kept identity goes too.
    const retention_ms =
      Date.UTC(closedAt.getUTCFullYear() + 5, closedAt.getUTCMonth(), closedAt.getUTCDate()) -
      Date.UTC(closedAt.getUTCFullYear(), closedAt.getUTCMonth(), closedAt.getUTCDate());
    platform.clock.advance(retention_ms - 1_000);
    expect(await closurePass()).toBe(0);
    platform.clock.advance(1_000);
    expect(await closurePass()).toBe(1);
    const erased = await platform.database.query<Record<string, unknown>>(
      "SELECT email, first_name, last_name, country, username, phone_number FROM users WHERE id = $1",
      [userId],
    );
    expect(erased.rows[0]).toEqual({
      email: `erased-${userId}@erased.invalid`,
      first_name: "",
      last_name: "",
      country: "",
      username: `closed-${userId}`,
      phone_number: "",
    });
    for (const upload of uploads.rows) {
      expect(existsSync(path.join(platform.context.uploadsDirectory, upload.storage_name))).toBe(
        false,
      );
    }
    expect(
      await count(
        "SELECT COUNT(*)::bigint AS n FROM uploads WHERE user_id = $1 AND original_name IS NOT NULL",
        [userId],
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT COUNT(*)::bigint AS n FROM withdrawals
         WHERE user_id = $1 AND withdrawal_details <> '{}'::jsonb`,
        [userId],
      ),
    ).toBe(0);
    expect(
      await count("SELECT COUNT(*)::bigint AS n FROM outbox_emails WHERE recipient = $1", [
        trader.email,
      ]),
    ).toBe(0);
    // Pseudonymous financial rows stay, and the ledger still balances (afterEach checks it).
    expect(
      await count(
        `SELECT COUNT(*)::bigint AS n FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
         WHERE a.user_id = $1`,
        [userId],
      ),
    ).toBe(ledgerLinesBefore);
    expect(
      await count("SELECT COUNT(*)::bigint AS n FROM trades WHERE user_id = $1", [userId]),
    ).toBe(1);
    expect(await closurePass()).toBe(0);
  });

  it("closes an account with nothing in flight at the next pass; its referrer no longer sees its name", async () => {
    const referrer = await signedInTrader(platform);
    const code = (await http.get("/api/v1/referral-details", referrer.token)).body.data.referral_id;
    const referred = await signedInTrader(platform, {
      first_name: "Grace",
      last_name: "Hopper",
      referral_code: code,
    });
    const names = async () =>
      (await http.get("/api/v1/referrals", referrer.token)).body.data.data.map(
        (row: { name: string }) => row.name,
      );
    expect(await names()).toEqual(["Grace H."]);
    const requested = await http.post(closurePath, { password: referred.password }, referred.token);
    expect(requested.status, requested.text).toBe(201);
    expect(requested.body.data.closure.waiting_for).toEqual([]);
    expect(await closurePass()).toBe(1);
    expect((await http.get("/api/v1/user", referred.token)).status).toBe(401);
    expect(await names()).toEqual(["Closed account"]);
  });

  it("is for traders only: staff have no account to close", async () => {
    const trader = await signedInTrader(platform);
    const state = await http.get(closurePath, trader.token);
    expect(state.status).toBe(200);
    admin = await staffToken(platform);
    const staffReply = await http.post(closurePath, { password: "x" }, admin);
    expect(staffReply.status).toBe(403);
  });
});

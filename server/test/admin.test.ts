import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { adminMessages, staffCountryRestrictedMessage } from "@tp/domain/admin-api";
import Fastify from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { default_admin_email, ensureFirstAdmin } from "../src/admin/first-admin.ts";
import { verifyPassword } from "../src/auth/passwords.ts";
import { ManualClock } from "../src/clock.ts";
import { migrate } from "../src/db/migrate.ts";
import { openPgliteDatabase } from "../src/db/pglite-database.ts";
import { postEntry, systemAccountId } from "../src/ledger/ledger.ts";
import { ledgerReport } from "../src/reconciliation/reconciliation.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInStaff, signedInTrader } from "./support/accounts.ts";
import {
  changePaymentMethod,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  depositApproved,
  pngBytes,
  postForm,
  signIn,
  staff,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { runCli } from "./support/run-cli.ts";

/** Every admin endpoint, with a body that would be valid for it. */
const adminEndpoints: Array<[string, string, unknown?]> = [
  ["GET", "/api/v1/admin/deposits"],
  ["GET", "/api/v1/admin/deposits/1"],
  ["GET", "/api/v1/admin/deposits/1/receipt"],
  ["POST", "/api/v1/admin/deposits/1/approve"],
  ["POST", "/api/v1/admin/deposits/1/reject", { reason: "x" }],
  ["GET", "/api/v1/admin/withdrawals?status=pending"],
  ["GET", "/api/v1/admin/withdrawals/1"],
  ["POST", "/api/v1/admin/withdrawals/1/approve", { payout_reference: "x" }],
  ["POST", "/api/v1/admin/withdrawals/1/reject", { reason: "x" }],
  ["GET", "/api/v1/admin/verifications"],
  ["GET", "/api/v1/admin/verifications/1/file"],
  ["POST", "/api/v1/admin/verifications/1/approve"],
  ["POST", "/api/v1/admin/verifications/1/reject", { reason: "x" }],
  ["GET", "/api/v1/admin/users?q=a"],
  ["GET", "/api/v1/admin/users/1"],
  // A user that does not exist: staff's own sessions must survive this test.
  ["POST", "/api/v1/admin/users/999999/sessions/1/revoke"],
  ["POST", "/api/v1/admin/users/999999/sessions/revoke-all"],
  ["GET", "/api/v1/admin/payment-methods"],
  ["PUT", "/api/v1/admin/payment-methods/bitcoin", { is_active: true }],
  ["GET", "/api/v1/admin/audit-log"],
  ["GET", "/api/v1/admin/ledger/check"],
  ["GET", "/api/v1/admin/feeds"],
];

describe.each(databaseKindsUnderTest())("back office on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    // France restricted, for the user detail's restrictions (nobody else declares it here).
    platform = await startFundingPlatform(kind, { RESTRICTED_COUNTRIES: "FR" });
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
    expect((await ledgerReport(platform.database, new Date())).violations).toEqual([]);
  });

  it("answers 401 signed out and 403 to a trader on every admin endpoint, whatever the body", async () => {
    const trader = await signedInTrader(platform);
    for (const [method, url, body] of adminEndpoints) {
      const json = method === "GET" ? undefined : body;
      const anonymous = await http.request(method, url, { json });
      expect(anonymous.status, `${method} ${url}`).toBe(401);
      const asTrader = await http.request(method, url, { json, token: trader.token });
      expect(asTrader.status, `${method} ${url}`).toBe(403);
      expect(asTrader.body.code).toBe("FORBIDDEN");
      const garbage = await http.request(method, url, {
        json: method === "GET" ? undefined : { nonsense: true },
        token: trader.token,
      });
      expect(garbage.status, `${method} ${url}`).toBe(403);
      const asAdmin = await http.request(method, url, { json, token: admin });
      // 202: a payment-method change is proposed, waiting for a second admin.
      expect([200, 202, 404, 409], `${method} ${url}: ${asAdmin.text}`).toContain(asAdmin.status);
    }
  });

  it("creates the first admin from ADMIN_EMAIL and ADMIN_PASSWORD, once", async () => {
    const me = await http.get("/api/v1/user", admin);
    expect(me.body.data.user).toMatchObject({ email: staff.email, role: "admin" });
    expect(me.body.data.user.email_verified_at).not.toBeNull();
    // (The tests' second admin, for four-eyes steps, is made by the test support.)
    const adminsBefore = await platform.database.query("SELECT 1 FROM users WHERE role = 'admin'");
    await platform.restart();
    http = httpClient(platform.baseUrl);
    const admins = await platform.database.query("SELECT 1 FROM users WHERE role = 'admin'");
    expect(admins.rowCount).toBe(adminsBefore.rowCount);
    const log = await http.get("/api/v1/admin/audit-log?action=admin.created", admin);
    const bootstrap = log.body.data.data.filter(
      (entry: { actor_label: string }) => entry.actor_label === "bootstrap",
    );
    expect(bootstrap).toHaveLength(1);
    expect(bootstrap[0]).toMatchObject({
      actor: null,
      actor_label: "bootstrap",
      target_type: "user",
      after: { email: staff.email, role: "admin" },
    });
  });

  it("reviews deposits with an audit record of who, what, when, before, after and IP", async () => {
    const trader = await signedInTrader(platform);
    const depositId = await depositApproved(platform, trader.token, admin, 75);
    const log = await http.get(`/api/v1/admin/audit-log?target=deposit:${depositId}`, admin);
    expect(log.status).toBe(200);
    expect(log.body.data.data).toHaveLength(1);
    const [entry] = log.body.data.data;
    expect(entry).toMatchObject({
      actor: { email: staff.email },
      actor_label: staff.email,
      action: "deposit.approved",
      target_type: "deposit",
      target_id: String(depositId),
      before: { status: "under_review", amount_cents: 7500, journal_entry_id: null },
      after: { status: "confirmed", amount_cents: 7500 },
      ip: "127.0.0.1",
      created_at: platform.clock.now().toISOString(),
    });
    expect(entry.after.journal_entry_id).toEqual(expect.any(Number));

    const byActor = await http.get(
      `/api/v1/admin/audit-log?actor=${encodeURIComponent("staff@")}&action=deposit.approved`,
      admin,
    );
    expect(byActor.body.data.data.map((row: { target_id: string }) => row.target_id)).toContain(
      String(depositId),
    );
    const later = new Date(platform.clock.now().getTime() + 1000).toISOString();
    const none = await http.get(`/api/v1/admin/audit-log?from=${encodeURIComponent(later)}`, admin);
    expect(none.body.data.data).toEqual([]);
    const paged = await http.get("/api/v1/admin/audit-log?limit=1&page=1", admin);
    expect(paged.body.data.data).toHaveLength(1);
    expect(paged.body.data.pagination.total).toBeGreaterThanOrEqual(2);
    const bad = await http.get("/api/v1/admin/audit-log?action=deposit.stolen", admin);
    expect(bad.status).toBe(400);
    const badDate = await http.get("/api/v1/admin/audit-log?from=yesterday", admin);
    expect(badDate.status).toBe(400);
  });

  it("keeps the audit log append-only, even against direct SQL", async () => {
    const before = await platform.database.query("SELECT id FROM admin_audit_log");
    expect(before.rowCount).toBeGreaterThan(0);
    await expect(
      platform.database.query("UPDATE admin_audit_log SET actor_label = 'someone else'"),
    ).rejects.toThrow(/append-only/);
    await expect(platform.database.query("DELETE FROM admin_audit_log")).rejects.toThrow(
      /append-only/,
    );
    await expect(platform.database.query("TRUNCATE admin_audit_log")).rejects.toThrow(
      /append-only/,
    );
    const after = await platform.database.query("SELECT id FROM admin_audit_log");
    expect(after.rowCount).toBe(before.rowCount);
  });

  it("lists queues by status with the trader's id, name and e-mail", async () => {
    const trader = await signedInTrader(platform, { first_name: "Grace", last_name: "Hopper" });
    const created = await http.post(
      "/api/v1/deposits",
      { payment_method_id: "bitcoin", amount: 33 },
      trader.token,
    );
    const awaiting = await http.get("/api/v1/admin/deposits?status=awaiting_payment", admin);
    const item = awaiting.body.data.data.find(
      (row: { id: number }) => row.id === created.body.data.deposit_id,
    );
    expect(item).toMatchObject({
      status: "awaiting_payment",
      amount: 33,
      trader: { id: trader.user.id, name: "Grace Hopper", email: trader.email },
      reviewed_by: null,
    });
    const underReview = await http.get("/api/v1/admin/deposits?status=under_review", admin);
    expect(
      underReview.body.data.data.some(
        (row: { id: number }) => row.id === created.body.data.deposit_id,
      ),
    ).toBe(false);
    const bad = await http.get("/api/v1/admin/deposits?status=stolen", admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Unknown deposit status");

    const uploaded = await postForm(
      platform.baseUrl,
      "/api/v1/upload-verification",
      { accept_terms: "1", id_type: "national_id" },
      { field: "file", bytes: pngBytes(), name: "id.png" },
      trader.token,
    );
    const verifications = await http.get("/api/v1/admin/verifications?status=pending", admin);
    expect(verifications.body.data.data).toContainEqual(
      expect.objectContaining({
        id: uploaded.body.data.verification.id,
        id_type: "national_id",
        trader: { id: trader.user.id, name: "Grace Hopper", email: trader.email },
      }),
    );
    const file = await fetch(
      `${platform.baseUrl}/api/v1/admin/verifications/${uploaded.body.data.verification.id}/file`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(
      /^attachment; filename="identity-\d+\.png"$/,
    );

    const holder = await withdrawableTrader(platform, admin, 20);
    const requested = await http.post(
      "/api/v1/withdrawals",
      {
        payment_method_id: "western-union",
        amount: 20,
        withdrawal_details: { receiver_name: "Ada", receiver_address: "1 Main St" },
      },
      holder.token,
    );
    await confirmWithdrawalByEmail(platform, holder.email, requested.body.data.transaction_hash);
    const pending = await http.get("/api/v1/admin/withdrawals?status=pending", admin);
    expect(pending.body.data.data).toContainEqual(
      expect.objectContaining({
        id: requested.body.data.withdrawal_id,
        trader: { id: holder.user.id, name: "Ada Lovelace", email: holder.email },
        withdrawal_details: { amount: 20, receiver_name: "Ada", receiver_address: "1 Main St" },
      }),
    );
    // Leave the ledger as we found it: pay it.
    await http.post(
      `/api/v1/admin/withdrawals/${requested.body.data.withdrawal_id}/approve`,
      { payout_reference: "WU-1" },
      admin,
    );
  });

  it("edits payment methods with validation and an audit trail", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, adminMessages.nothingToChange],
      [{ wallet_addresss: "typo" }, 422, ""],
      [{ instructions: "one line" }, 422, "Must be a list of lines"],
      [{ name: "" }, 422, "Name is required"],
      [{ additional_details: { "bad key!": "x" } }, 422, ""],
      [{ is_active: "yes" }, 422, "Must be true or false"],
    ];
    for (const [body, status, message] of cases) {
      const reply = await http.put("/api/v1/admin/payment-methods/ethereum", body, admin);
      expect(reply.status, JSON.stringify(body)).toBe(status);
      if (message) expect(reply.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(
      (await http.put("/api/v1/admin/payment-methods/dogecoin", { is_active: true }, admin)).status,
    ).toBe(404);

    const updated = await changePaymentMethod(platform, admin, "ethereum", {
      wallet_address: "0xabc0000000000000000000000000000000000001",
      instructions: ["ERC-20 only"],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.payment_method).toMatchObject({
      is_available: true,
      instructions: ["ERC-20 only"],
    });
    const cleared = await changePaymentMethod(platform, admin, "ethereum", {
      wallet_address: "",
    });
    expect(cleared.body.data.payment_method).toMatchObject({
      wallet_address: null,
      is_available: false,
      instructions: ["ERC-20 only"],
    });
    const log = await http.get(
      "/api/v1/admin/audit-log?target=payment_method:ethereum&action=payment_method.updated",
      admin,
    );
    expect(log.body.data.data).toHaveLength(2);
    expect(log.body.data.data[0]).toMatchObject({
      action: "payment_method.updated",
      before: { wallet_address: "0xabc0000000000000000000000000000000000001" },
      after: { wallet_address: null },
    });
    const all = await http.get("/api/v1/admin/payment-methods", admin);
    expect(all.body.data).toHaveLength(8);
  });

  it("finds users and shows balances, ledger, deposits and sessions; revokes sessions", async () => {
    const trader = await signedInTrader(platform, {
      first_name: "Katherine",
      last_name: "Johnson",
    });
    await depositApproved(platform, trader.token, admin, 12.5);
    const byEmail = await http.get(
      `/api/v1/admin/users?q=${encodeURIComponent(trader.email.slice(0, 12).toUpperCase())}`,
      admin,
    );
    expect(byEmail.body.data.data.map((user: { id: number }) => user.id)).toContain(trader.user.id);
    const byName = await http.get("/api/v1/admin/users?q=katherine%20johnson", admin);
    expect(byName.body.data.data).toEqual([
      expect.objectContaining({
        id: trader.user.id,
        account_balance: 12.5,
        practice_balance: 10000,
      }),
    ]);
    const byId = await http.get(`/api/v1/admin/users?q=${trader.user.id}`, admin);
    expect(byId.body.data.data[0].id).toBe(trader.user.id);
    const wildcard = await http.get("/api/v1/admin/users?q=%25", admin);
    expect(wildcard.body.data.data).toEqual([]);

    const detail = await http.get(`/api/v1/admin/users/${trader.user.id}`, admin);
    expect(detail.status).toBe(200);
    expect(detail.body.data.user).toMatchObject({
      name: "Katherine Johnson",
      account_balance: 12.5,
    });
    expect(detail.body.data.ledger.map((line: { kind: string }) => line.kind).sort()).toEqual([
      "deposit",
      "practice_topup",
    ]);
    expect(detail.body.data.deposits).toHaveLength(1);
    expect(detail.body.data.sessions).toHaveLength(1);
    expect((await http.get("/api/v1/admin/users/99999999", admin)).status).toBe(404);

    const second = await signIn(platform, trader.email, trader.password);
    const sessions = (await http.get(`/api/v1/admin/users/${trader.user.id}`, admin)).body.data
      .sessions as Array<{ id: number }>;
    expect(sessions).toHaveLength(2);
    const newest = sessions[0]!.id;
    const revoked = await http.post(
      `/api/v1/admin/users/${trader.user.id}/sessions/${newest}/revoke`,
      undefined,
      admin,
    );
    expect(revoked.status).toBe(200);
    expect((await http.get("/api/v1/user", second)).status).toBe(401);
    expect((await http.get("/api/v1/user", trader.token)).status).toBe(200);
    const otherUsersSession = await http.post(
      `/api/v1/admin/users/${trader.user.id + 100000}/sessions/${newest}/revoke`,
      undefined,
      admin,
    );
    expect(otherUsersSession.status).toBe(404);
    const all = await http.post(
      `/api/v1/admin/users/${trader.user.id}/sessions/revoke-all`,
      undefined,
      admin,
    );
    expect(all.body.data.revoked).toBe(1);
    expect((await http.get("/api/v1/user", trader.token)).status).toBe(401);
    const log = await http.get(`/api/v1/admin/audit-log?action=sessions.revoked`, admin);
    expect(log.body.data.data[0]).toMatchObject({
      target_id: String(trader.user.id),
      after: { revoked: 1 },
    });
  });

  it("shows staff plainly a trader's country restriction and self-exclusion", async () => {
    const trader = await signedInTrader(platform);
    const path = `/api/v1/admin/users/${trader.user.id}`;
    expect((await http.get(path, admin)).body.data.restrictions).toEqual({
      country: null,
      exclusion: null,
    });

    // The trader declared France, on this platform's RESTRICTED_COUNTRIES.
    await platform.database.query("UPDATE users SET country = 'France' WHERE id = $1", [
      trader.user.id,
    ]);
    const excluded = await http.post(
      "/api/v1/responsible-trading/exclusion",
      { kind: "self_exclusion", months: 6 },
      trader.token,
    );
    expect(excluded.status, excluded.text).toBe(201);
    const detail = await http.get(path, admin);
    expect(detail.status).toBe(200);
    expect(detail.body.data.restrictions).toEqual({
      country: staffCountryRestrictedMessage("France"),
      exclusion: excluded.body.data.exclusion,
    });
    expect(detail.body.data.restrictions.country).toBe("Real money blocked: France is restricted");
    expect(detail.body.data.restrictions.exclusion).toMatchObject({
      kind: "self_exclusion",
      started_at: platform.clock.now().toISOString(),
    });
    // Support reads it too (the detail is a support-level read).
    const support = await signedInStaff(platform, "support");
    expect((await http.get(path, support.token)).body.data.restrictions).toEqual(
      detail.body.data.restrictions,
    );
  });

  it("reconciles: balances by kind, funding totals, and catches a ledger that disagrees", async () => {
    const holder = await withdrawableTrader(platform, admin, 40);
    const requested = await http.post(
      "/api/v1/withdrawals",
      {
        payment_method_id: "bitcoin",
        amount: 15,
        withdrawal_details: { wallet_address: "bc1qreconcile000000000000" },
      },
      holder.token,
    );
    await confirmWithdrawalByEmail(platform, holder.email, requested.body.data.transaction_hash);
    expect(requested.status).toBe(201);
    const report = await http.get("/api/v1/admin/ledger/check", admin);
    expect(report.status).toBe(200);
    const data = report.body.data;
    expect(data).toMatchObject({ ok: true, violations: [], currency: "USD" });
    expect(data.held_withdrawals.amount).toBeGreaterThanOrEqual(15);
    expect(data.balances_by_kind["withdrawals:held"]).toBe(data.held_withdrawals.amount);
    expect(data.balances_by_kind["payouts:sent"]).toBe(data.paid_withdrawals.amount);
    expect(data.balances_by_kind["deposits:clearing"]).toBe(-data.confirmed_deposits.amount);
    expect(data.confirmed_deposits.count).toBeGreaterThanOrEqual(1);
    const sum = Object.values(data.balances_by_kind as Record<string, number>).reduce(
      (total, value) => total + Math.round(value * 100),
      0,
    );
    expect(sum).toBe(0);
    expect(data.trading_results).toEqual({ real: 0, practice: 0 });

    // A balanced entry that moves held money somewhere it should not be: the ledger's own
    // invariants still hold, the reconciliation does not.
    const move = async (cents: number) =>
      platform.database.transaction(async (transaction) =>
        postEntry(transaction, {
          kind: "adjustment",
          reference: "test:misplaced-hold",
          at: platform.clock.now(),
          postings: [
            {
              accountId: await systemAccountId(transaction, "withdrawals:held"),
              amountCents: -cents,
            },
            { accountId: await systemAccountId(transaction, "house:real"), amountCents: cents },
          ],
        }),
      );
    await move(100);
    try {
      const broken = await http.get("/api/v1/admin/ledger/check", admin);
      expect(broken.body.data.ok).toBe(false);
      expect(broken.body.data.violations).toEqual([
        expect.stringMatching(
          /^withdrawals:held vs pending withdrawals: ledger \d+ cents but funding records say \d+ cents$/,
        ),
      ]);
    } finally {
      await move(-100);
    }
    await http.post(
      `/api/v1/admin/withdrawals/${requested.body.data.withdrawal_id}/reject`,
      { reason: "test over" },
      admin,
    );
  });
});

function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  const app = Fastify({ logger: { level: "info", stream } });
  return { log: app.log, lines };
}

describe("the first admin without ADMIN_PASSWORD", () => {
  it("is made with a one-time password printed once, that signs in", async () => {
    const database = await openPgliteDatabase(null);
    try {
      await migrate(database);
      const clock = new ManualClock(new Date("2026-01-15T12:00:00Z"));
      const { log, lines } = capturingLogger();
      const config = { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined };
      expect(await ensureFirstAdmin({ database, config, clock }, log)).toBe("created");
      expect(await ensureFirstAdmin({ database, config, clock }, log)).toBe("exists");
      const printed = lines.filter((line) => /one-time password/.test(line.msg));
      expect(printed).toHaveLength(1);
      expect(printed[0]!.level).toBe(40);
      const password = /one-time password (\S+) /.exec(printed[0]!.msg)![1]!;
      expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{20}$/);
      const row = await database.query<{ password_hash: string; role: string }>(
        "SELECT password_hash, role FROM users WHERE email = $1",
        [default_admin_email],
      );
      expect(row.rows[0]!.role).toBe("admin");
      expect(row.rows[0]!.password_hash).not.toContain(password);
      expect(await verifyPassword(row.rows[0]!.password_hash, password)).toBe(true);
      expect(lines.filter((line) => line.msg.includes(password))).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it("never turns a trader with the ADMIN_EMAIL address into staff", async () => {
    const database = await openPgliteDatabase(null);
    try {
      await migrate(database);
      await database.query(
        `INSERT INTO users (email, username, password_hash, first_name, last_name, phone_number,
                            country, referral_code, created_at, updated_at)
         VALUES ('taken@example.test', 'taken1', 'x', 'T', 'T', '', '', 'CODE1', now(), now())`,
      );
      const { log, lines } = capturingLogger();
      const result = await ensureFirstAdmin(
        {
          database,
          config: { ADMIN_EMAIL: "taken@example.test", ADMIN_PASSWORD: undefined },
          clock: new ManualClock(),
        },
        log,
      );
      expect(result).toBe("skipped");
      expect(lines.some((line) => line.level === 50 && /belongs to a trader/.test(line.msg))).toBe(
        true,
      );
      const roles = await database.query<{ role: string }>("SELECT role FROM users");
      expect(roles.rows).toEqual([{ role: "trader" }]);
    } finally {
      await database.close();
    }
  });
});

describe("npm run admin -- create, and npm run ledger:check", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tp-admin-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function run(script: string, args: string[], env: Record<string, string> = {}) {
    return runCli(script, args, {
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "",
      ...env,
    });
  }

  it("adds an admin with a one-time password, refuses a duplicate, and reconciles", async () => {
    const cli = "server/src/cli/admin.ts";
    const created = await run(cli, ["create", "ops@example.test"]);
    expect(created.code, created.output).toBe(0);
    expect(created.output).toMatch(/one-time password: [A-Za-z\d]{20}\n/);
    const again = await run(cli, ["create", "ops@example.test"]);
    expect(again.code).toBe(1);
    expect(again.output).toContain("already an admin");
    const usage = await run(cli, ["remove", "ops@example.test"]);
    expect(usage.code).toBe(64);
    const badRole = await run(cli, ["create", "ops3@example.test", "--role", "trader"]);
    expect(badRole.code).toBe(64);
    const reviewer = await run(cli, ["create", "reviewer@example.test", "--role", "reviewer"]);
    expect(reviewer.code, reviewer.output).toBe(0);
    expect(reviewer.output).toContain("reviewer reviewer@example.test created");
    const reviewerAgain = await run(cli, ["create", "reviewer@example.test", "--role=admin"]);
    expect(reviewerAgain.code).toBe(1);
    expect(reviewerAgain.output).toContain("already staff (reviewer)");
    const badEmail = await run(cli, ["create", "not-an-email"]);
    expect(badEmail.code).toBe(64);
    expect(badEmail.output).toContain("Please enter a valid email address");
    const withPassword = await run(cli, ["create", "ops2@example.test"], {
      ADMIN_PASSWORD: "OpsSecret99",
    });
    expect(withPassword.code, withPassword.output).toBe(0);
    expect(withPassword.output).not.toContain("OpsSecret99");

    const check = await run("server/src/cli/ledger-check.ts", []);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toMatch(/^ledger ok/);
    expect(check.output).toContain("held withdrawals:    0 totalling 0.00");
  }, 180_000);
});

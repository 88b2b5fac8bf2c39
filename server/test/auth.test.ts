import { serverMessages } from "@tp/domain/messages";
import { validationMessages } from "@tp/domain/validation";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { emailedLink, signedInTrader } from "./support/accounts.ts";
import { httpClient, newTrader } from "./support/http.ts";

const minute_ms = 60_000;

describe.each(databaseKindsUnderTest())("accounts and sessions on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  describe("POST /register", () => {
    it("creates the trader with a username, a real account at 0.00 and practice at 10,000.00", async () => {
      const trader = newTrader({ email: "New.Trader@Example.TEST" });
      const reply = await http.post("/api/v1/register", trader);
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ status: "success", message: serverMessages.registered });

      const login = await http.post("/api/v1/login", {
        email: "new.trader@example.test",
        password: trader.password,
      });
      expect(login.status).toBe(200);
      const user = login.body.data.user;
      expect(user.email).toBe("new.trader@example.test");
      expect(user.username).toMatch(/^ada\d{5,6}$/);
      expect(user.role).toBe("trader");
      expect(user.email_verified_at).toBeNull();
      expect(user.account).toEqual({
        first_name: "Ada",
        last_name: "Lovelace",
        phone_number: "+44 20 7946 0958",
        country: "United Kingdom",
        account_balance: 0,
        practice_balance: 10000,
        kyc_verified_at: null,
        plan: "Basic",
      });
      // The practice money came from the ledger: one entry, two postings.
      const entries = await platform.database.query<{ kind: string; postings: number }>(
        `SELECT e.kind, COUNT(p.id)::int AS postings FROM journal_entries e JOIN postings p ON p.entry_id = e.id
         WHERE e.reference = $1 GROUP BY e.kind`,
        [`user:${user.id}:registration`],
      );
      expect(entries.rows).toEqual([{ kind: "practice_topup", postings: 2 }]);
    });

    it("sends a verification e-mail whose link verifies the address once", async () => {
      const trader = newTrader();
      expect((await http.post("/api/v1/register", trader)).status).toBe(201);
      const link = await emailedLink(platform, trader.email, /^Verify your e-mail address/);
      expect(link.url.pathname).toBe("/account/verify-email");
      expect(link.email).toBe(trader.email);
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const verified = await http.post("/api/v1/email/verify", {
        email: link.email,
        token: link.token,
      });
      expect(verified.status).toBe(200);
      expect(verified.body.message).toBe(serverMessages.emailVerified);
      const again = await http.post("/api/v1/email/verify", {
        email: link.email,
        token: link.token,
      });
      expect(again.status).toBe(200);
      expect(again.body.message).toBe(serverMessages.emailAlreadyVerified);

      const login = await http.post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      });
      expect(login.body.data.user.email_verified_at).toBe(platform.clock.now().toISOString());
    });

    it("refuses a verification token for another address or a made-up one", async () => {
      const first = newTrader();
      const second = newTrader();
      await http.post("/api/v1/register", first);
      await http.post("/api/v1/register", second);
      const link = await emailedLink(platform, first.email, /^Verify/);
      const crossed = await http.post("/api/v1/email/verify", {
        email: second.email,
        token: link.token,
      });
      expect(crossed.status).toBe(422);
      expect(crossed.body.message).toBe(serverMessages.verificationLinkInvalid);
      const madeUp = await http.post("/api/v1/email/verify", {
        email: first.email,
        token: "x".repeat(43),
      });
      expect(madeUp.status).toBe(422);
    });

    it("answers a taken address exactly like a new one and e-mails its owner instead", async () => {
      const trader = newTrader();
      const first = await http.post("/api/v1/register", trader);
      const second = await http.post("/api/v1/register", { ...trader, first_name: "Mallory" });
      expect(second.status).toBe(first.status);
      expect(second.body).toEqual(first.body);
      await platform.smtp.waitFor(trader.email, /already have/);
      const rows = await platform.database.query("SELECT 1 FROM users WHERE email = $1", [
        trader.email,
      ]);
      expect(rows.rowCount).toBe(1);
    });

    it("gives every field its spec message and writes nothing", async () => {
      const before = await platform.database.query("SELECT COUNT(*)::int AS n FROM users");
      const reply = await http.post("/api/v1/register", {
        first_name: "J0hn",
        last_name: "",
        email: "not-an-email",
        password: "alllowercase1",
        password_confirmation: "different",
        country: "Atlantis",
        phone_number: "123",
        accept_terms: false,
      });
      expect(reply.status).toBe(422);
      expect(reply.body.status).toBe("error");
      expect(reply.body.errors).toEqual({
        first_name: [validationMessages.nameInvalid],
        last_name: [validationMessages.lastNameRequired],
        email: [validationMessages.emailInvalid],
        password: [validationMessages.passwordInvalid],
        password_confirmation: [validationMessages.passwordsMismatch],
        country: [validationMessages.countryRequired],
        phone_number: [validationMessages.phoneInvalid],
        accept_terms: ["You must be 18 or older and accept the terms"],
      });
      const after = await platform.database.query("SELECT COUNT(*)::int AS n FROM users");
      expect(after.rows).toEqual(before.rows);
    });

    it("requires matching passwords and the 18+/terms checkbox", async () => {
      const mismatch = await http.post(
        "/api/v1/register",
        newTrader({ password_confirmation: "Secret124" }),
      );
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.errors).toEqual({ password_confirmation: ["Passwords do not match"] });
      const noTerms = newTrader();
      const { accept_terms: _omitted, ...withoutTerms } = noTerms;
      const refused = await http.post("/api/v1/register", withoutTerms);
      expect(refused.status).toBe(422);
      expect(refused.body.errors.accept_terms).toEqual([
        "You must be 18 or older and accept the terms",
      ]);
    });

    it("says which fields are missing with the spec's required messages", async () => {
      const reply = await http.post("/api/v1/register", {});
      expect(reply.status).toBe(422);
      expect(reply.body.errors).toMatchObject({
        first_name: ["First name is required"],
        last_name: ["Last name is required"],
        email: ["Email is required"],
        password: ["Password is required"],
        country: ["Please select a country"],
        phone_number: ["Phone number is required"],
      });
    });

    it("refuses wrong types with the field's message, not a 500", async () => {
      const reply = await http.post(
        "/api/v1/register",
        newTrader({ first_name: 42, phone_number: ["1"], accept_terms: "yes" }),
      );
      expect(reply.status).toBe(422);
      expect(reply.body.errors.first_name).toEqual([validationMessages.nameInvalid]);
      expect(reply.body.errors.phone_number).toEqual([validationMessages.phoneInvalid]);
      expect(reply.body.errors.accept_terms).toBeDefined();
    });

    it("links the new trader to the referrer whose code was given", async () => {
      const referrer = await signedInTrader(platform);
      const code = (
        await platform.database.query<{ referral_code: string }>(
          "SELECT referral_code FROM users WHERE id = $1",
          [referrer.user.id],
        )
      ).rows[0]!.referral_code;
      const referred = newTrader({ referral_code: code });
      await http.post("/api/v1/register", referred);
      const row = await platform.database.query<{ referred_by_user_id: number }>(
        "SELECT referred_by_user_id FROM users WHERE email = $1",
        [referred.email],
      );
      expect(row.rows[0]!.referred_by_user_id).toBe(referrer.user.id);
    });
  });

  describe("POST /login", () => {
    it("returns the user and a token that GET /user accepts", async () => {
      const trader = await signedInTrader(platform);
      expect(trader.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const me = await http.get("/api/v1/user", trader.token);
      expect(me.status).toBe(200);
      expect(me.body.data.user.email).toBe(trader.email);
      expect(Object.keys(me.body.data.user).sort()).toEqual(
        ["account", "email", "email_verified_at", "id", "role", "username"].sort(),
      );
      expect(me.text).not.toContain("password");
    });

    it("stores only a hash of the token", async () => {
      const trader = await signedInTrader(platform);
      const stored = await platform.database.query<{ token_hash: string }>(
        "SELECT token_hash FROM sessions WHERE user_id = $1",
        [trader.user.id],
      );
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0]!.token_hash).not.toContain(trader.token);
      expect(stored.rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it("gives one message for a wrong password and an unknown e-mail", async () => {
      const trader = await signedInTrader(platform);
      const wrongPassword = await http.post("/api/v1/login", {
        email: trader.email,
        password: "Wrong1234",
      });
      const unknownEmail = await http.post("/api/v1/login", {
        email: "nobody@example.test",
        password: "Wrong1234",
      });
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      expect(wrongPassword.body).toEqual(unknownEmail.body);
      expect(wrongPassword.body.message).toBe(serverMessages.loginInvalid);
    });
  });

  describe("sessions", () => {
    it("refuses missing, malformed and forged tokens with 401", async () => {
      expect((await http.get("/api/v1/user")).status).toBe(401);
      expect(
        (await http.request("GET", "/api/v1/user", { headers: { authorization: "Basic abc" } }))
          .status,
      ).toBe(401);
      const forged = await http.get("/api/v1/user", "A".repeat(43));
      expect(forged.status).toBe(401);
      expect(forged.body).toEqual({
        status: "error",
        message: serverMessages.notSignedIn,
        code: "UNAUTHENTICATED",
      });
    });

    it("POST /logout ends this session only", async () => {
      const trader = await signedInTrader(platform);
      const second = await http.post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      });
      const logout = await http.post("/api/v1/logout", undefined, trader.token);
      expect(logout.status).toBe(200);
      expect((await http.get("/api/v1/user", trader.token)).status).toBe(401);
      expect((await http.get("/api/v1/user", second.body.data.token)).status).toBe(200);
    });

    it("POST /logout-all-sessions ends every other session and keeps this one", async () => {
      const trader = await signedInTrader(platform);
      const other = await http.post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      });
      const reply = await http.post("/api/v1/logout-all-sessions", undefined, trader.token);
      expect(reply.status).toBe(200);
      expect(reply.body.message).toBe("Logged out from all sessions except current");
      expect((await http.get("/api/v1/user", trader.token)).status).toBe(200);
      expect((await http.get("/api/v1/user", other.body.data.token)).status).toBe(401);
    });
  });

  describe("e-mail resend and password reset", () => {
    it("resend answers the same for unknown addresses and sends a fresh link to unverified ones", async () => {
      const trader = newTrader();
      await http.post("/api/v1/register", trader);
      await platform.smtp.waitFor(trader.email, /^Verify/);
      const known = await http.post("/api/v1/email/resend", { email: trader.email });
      const unknown = await http.post("/api/v1/email/resend", { email: "ghost@example.test" });
      expect(known.status).toBe(200);
      expect(known.body).toEqual(unknown.body);
      await expect
        .poll(
          () =>
            platform.smtp.messages.filter(
              (mail) => mail.to.includes(trader.email) && /^Verify/.test(mail.subject),
            ).length,
          {
            timeout: 10_000,
          },
        )
        .toBe(2);
    });

    it("forgot-password answers the same either way; the link resets once, within 60 minutes, and signs out everywhere", async () => {
      const trader = await signedInTrader(platform);
      const known = await http.post("/api/v1/forgot-password", { email: trader.email });
      const unknown = await http.post("/api/v1/forgot-password", { email: "ghost@example.test" });
      expect(known.status).toBe(200);
      expect(known.body).toEqual(unknown.body);

      const link = await emailedLink(platform, trader.email, /^Reset your/);
      expect(link.url.pathname).toBe("/account/reset-password");
      const body = {
        email: trader.email,
        token: link.token,
        password: "Renewed123",
        password_confirmation: "Renewed123",
      };
      const reset = await http.post("/api/v1/reset-password", body);
      expect(reset.status).toBe(200);
      expect(reset.body.message).toBe("Password reset successfully!");
      expect((await http.get("/api/v1/user", trader.token)).status).toBe(401);
      expect(
        (await http.post("/api/v1/login", { email: trader.email, password: trader.password }))
          .status,
      ).toBe(401);
      expect(
        (await http.post("/api/v1/login", { email: trader.email, password: "Renewed123" })).status,
      ).toBe(200);

      const reused = await http.post("/api/v1/reset-password", {
        ...body,
        password: "Another123",
        password_confirmation: "Another123",
      });
      expect(reused.status).toBe(422);
      expect(reused.body.message).toBe(serverMessages.resetLinkInvalid);
    });

    it("a reset link dies after 60 minutes", async () => {
      const trader = await signedInTrader(platform);
      await http.post("/api/v1/forgot-password", { email: trader.email });
      const link = await emailedLink(platform, trader.email, /^Reset your/);
      platform.clock.advance(60 * minute_ms + 1);
      const late = await http.post("/api/v1/reset-password", {
        email: trader.email,
        token: link.token,
        password: "Renewed123",
        password_confirmation: "Renewed123",
      });
      expect(late.status).toBe(422);
      expect(
        (await http.post("/api/v1/login", { email: trader.email, password: trader.password }))
          .status,
      ).toBe(200);
    });

    it("reset validates the new password with the spec's rules", async () => {
      const reply = await http.post("/api/v1/reset-password", {
        email: "a@example.test",
        token: "t",
        password: "short",
        password_confirmation: "other",
      });
      expect(reply.status).toBe(422);
      expect(reply.body.errors.password).toEqual([validationMessages.passwordInvalid]);
    });
  });

  describe("personal data and password", () => {
    it("PUT /update-profile changes names and phone, never e-mail, username or country", async () => {
      const trader = await signedInTrader(platform);
      const reply = await http.put(
        "/api/v1/update-profile",
        {
          first_name: "Grace",
          last_name: "Hopper",
          phone_number: "+1 202 555 0100",
          country: "United Kingdom",
          email: "x@y.z",
          username: "root",
        },
        trader.token,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.message).toBe("Personal data updated successfully");
      const user = reply.body.data.user;
      expect(user.account).toMatchObject({
        first_name: "Grace",
        last_name: "Hopper",
        phone_number: "+1 202 555 0100",
        country: "United Kingdom",
      });
      expect(user.email).toBe(trader.email);
      expect(user.username).toBe(trader.user.username);

      const countryChange = await http.put(
        "/api/v1/update-profile",
        {
          first_name: "Grace",
          last_name: "Hopper",
          phone_number: "+1 202 555 0100",
          country: "France",
        },
        trader.token,
      );
      expect(countryChange.status).toBe(422);
      expect(countryChange.body.errors.country).toEqual(["Country cannot be changed"]);
      expect((await http.get("/api/v1/user", trader.token)).body.data.user.account.country).toBe(
        "United Kingdom",
      );
    });

    it("PUT /update-profile validates with the spec's messages", async () => {
      const trader = await signedInTrader(platform);
      const reply = await http.put(
        "/api/v1/update-profile",
        { first_name: "", last_name: "X", phone_number: "abc" },
        trader.token,
      );
      expect(reply.status).toBe(422);
      expect(reply.body.errors).toEqual({
        first_name: ["First name is required"],
        last_name: [validationMessages.nameInvalid],
        phone_number: [validationMessages.phoneInvalid],
      });
    });

    it("PUT /update-password needs the current password and signs out the other sessions", async () => {
      const trader = await signedInTrader(platform);
      const other = await http.post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      });
      const wrong = await http.put(
        "/api/v1/update-password",
        {
          current_password: "Nope12345",
          password: "Changed123",
          password_confirmation: "Changed123",
        },
        trader.token,
      );
      expect(wrong.status).toBe(422);
      expect(wrong.body.message).toBe(serverMessages.currentPasswordWrong);
      expect(wrong.body.errors).toEqual({
        current_password: [serverMessages.currentPasswordWrong],
      });

      const missing = await http.put("/api/v1/update-password", {}, trader.token);
      expect(missing.body.errors).toMatchObject({
        current_password: ["Current password is required"],
        password: ["New password is required"],
      });

      const changed = await http.put(
        "/api/v1/update-password",
        {
          current_password: trader.password,
          password: "Changed123",
          password_confirmation: "Changed123",
        },
        trader.token,
      );
      expect(changed.status).toBe(200);
      expect(changed.body.message).toBe("Password updated successfully");
      expect((await http.get("/api/v1/user", trader.token)).status).toBe(200);
      expect((await http.get("/api/v1/user", other.body.data.token)).status).toBe(401);
      expect(
        (await http.post("/api/v1/login", { email: trader.email, password: "Changed123" })).status,
      ).toBe(200);
    });
  });

  describe("POST /practice-balance/top-up", () => {
    it("refuses when the balance is already at the top-up level and changes nothing", async () => {
      const trader = await signedInTrader(platform);
      const reply = await http.post("/api/v1/practice-balance/top-up", undefined, trader.token);
      expect(reply.status).toBe(409);
      expect(reply.body.code).toBe("PRACTICE_TOP_UP_NOT_NEEDED");
      expect(reply.body.message).toBe(serverMessages.topUpNotNeeded);
      expect(
        (await http.get("/api/v1/user", trader.token)).body.data.user.account.practice_balance,
      ).toBe(10000);
    });

    it("puts a spent practice balance back to 10,000.00 with one ledger entry", async () => {
      const trader = await signedInTrader(platform);
      await spendPractice(platform, trader.user.id, 1234_56);
      expect(
        (await http.get("/api/v1/user", trader.token)).body.data.user.account.practice_balance,
      ).toBe(8765.44);
      const reply = await http.post("/api/v1/practice-balance/top-up", undefined, trader.token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        status: "success",
        message: "Practice balance topped up successfully!",
        data: { practice_balance: 10000 },
      });
      const topUps = await platform.database.query<{ amount_cents: number }>(
        `SELECT p.amount_cents FROM journal_entries e JOIN postings p ON p.entry_id = e.id
         JOIN ledger_accounts a ON a.id = p.account_id
         WHERE e.reference = $1 AND a.user_id = $2`,
        [`user:${trader.user.id}:practice-top-up`, trader.user.id],
      );
      expect(topUps.rows).toEqual([{ amount_cents: 1234_56 }]);
    });

    it("adds the difference once when top-ups race", async () => {
      const trader = await signedInTrader(platform);
      await spendPractice(platform, trader.user.id, 5000_00);
      const replies = await Promise.all(
        Array.from({ length: 5 }, () =>
          http.post("/api/v1/practice-balance/top-up", undefined, trader.token),
        ),
      );
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409, 409]);
      expect(
        (await http.get("/api/v1/user", trader.token)).body.data.user.account.practice_balance,
      ).toBe(10000);
    });

    it("with an Idempotency-Key, a retried top-up replays its first reply instead of refusing", async () => {
      const trader = await signedInTrader(platform);
      await spendPractice(platform, trader.user.id, 10_00);
      const send = () =>
        http.request("POST", "/api/v1/practice-balance/top-up", {
          token: trader.token,
          headers: { "idempotency-key": "top-up-1" },
        });
      const first = await send();
      const again = await send();
      expect(first.status).toBe(200);
      expect(first.headers.get("idempotency-replayed")).toBeNull();
      expect(again.status).toBe(200);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      const fresh = await http.post("/api/v1/practice-balance/top-up", undefined, trader.token);
      expect(fresh.status).toBe(409);
    });
  });
});

/** Stands in for losing practice trades (a later issue): moves money to the house account. */
async function spendPractice(platform: TestPlatform, userId: number, cents: number) {
  const { postEntry, systemAccountId, traderAccountId } = await import("../src/ledger/ledger.ts");
  await platform.database.transaction(async (transaction) => {
    await postEntry(transaction, {
      kind: "adjustment",
      reference: `test:spend:${userId}`,
      at: platform.clock.now(),
      postings: [
        { accountId: await traderAccountId(transaction, userId, "practice"), amountCents: -cents },
        { accountId: await systemAccountId(transaction, "house:practice"), amountCents: cents },
      ],
    });
  });
}

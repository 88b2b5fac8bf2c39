import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverMessages } from "@tp/domain/messages";
import { validationMessages } from "@tp/domain/validation";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttleRules } from "../src/auth/attempt-throttle.ts";
import {
  altcha_key_file,
  challenge_lifetime_ms,
  loadAltchaHmacKey,
} from "../src/auth/proof-of-work.ts";
import { loadConfig } from "../src/config.ts";
import { rateRules } from "../src/rate-limit/rate-limiter.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { emailedLink, signedInTrader } from "./support/accounts.ts";
import { httpClient, newTrader } from "./support/http.ts";

/**
 * Issue 12 items 6 and 7 over HTTP, with the limits on (RATE_LIMIT_FACTOR = 1): no lockout
 * that an attacker can turn against the owner, a proof of work instead, the password rules.
 */
describe.each(databaseKindsUnderTest())(
  "lockout that cannot be used against the owner on %s",
  (kind) => {
    let platform: TestPlatform;
    let http: ReturnType<typeof httpClient>;

    beforeAll(async () => {
      platform = await startTestPlatform(kind, {
        // The per-address limits see X-Forwarded-For, so attacker and owner can differ.
        env: { RATE_LIMIT_FACTOR: "1", TRUST_PROXY: "true" },
      });
      http = httpClient(platform.baseUrl);
    });
    afterAll(async () => platform?.close());

    function from(address: string) {
      return {
        post: (path: string, json: unknown) =>
          http.request("POST", path, { json, headers: { "x-forwarded-for": address } }),
      };
    }

    /** Fetches a challenge and solves it with altcha-lib's own solver, as the widget does. */
    async function solvedChallenge(): Promise<string> {
      const reply = await http.get("/api/v1/challenge");
      expect(reply.status).toBe(200);
      expect(reply.headers.get("cache-control")).toBe("no-store");
      const challenge = reply.body;
      const solution = await solveChallenge({ challenge, deriveKey });
      expect(solution).not.toBeNull();
      return Buffer.from(
        JSON.stringify({
          challenge: { parameters: challenge.parameters, signature: challenge.signature },
          solution,
        }),
      ).toString("base64");
    }

    it("after ten bad attempts from one address, the owner signs in from another with a solved challenge", async () => {
      const owner = await signedInTrader(platform);
      const attacker = from("203.0.113.7");
      const startedMs = Date.now();
      for (let attempt = 1; attempt <= 10; attempt++) {
        const reply = await attacker.post("/api/v1/login", {
          email: owner.email,
          password: `Wrong${attempt}Guess`,
        });
        // Refused as a wrong password until the threshold, then as needing a proof of work:
        // never as "locked".
        if (attempt <= throttleRules.signIn.challenge_after) {
          expect(reply.status, `attempt ${attempt}`).toBe(401);
        } else {
          expect(reply.status, `attempt ${attempt}`).toBe(428);
          expect(reply.body).toEqual({
            status: "error",
            message: serverMessages.challengeRequired,
            code: "CHALLENGE_REQUIRED",
          });
        }
      }
      // Attempts past the third were slowed down (100 + 200 + … ms): guessing got dearer.
      expect(Date.now() - startedMs).toBeGreaterThanOrEqual(1_500);

      const owners = from("198.51.100.20");
      const withoutChallenge = await owners.post("/api/v1/login", {
        email: owner.email,
        password: owner.password,
      });
      expect(withoutChallenge.status).toBe(428);
      expect(withoutChallenge.body.code).toBe("CHALLENGE_REQUIRED");

      const forged = await owners.post("/api/v1/login", {
        email: owner.email,
        password: owner.password,
        altcha: Buffer.from('{"challenge":{"parameters":{}},"solution":{}}').toString("base64"),
      });
      expect(forged.status).toBe(428);

      const altcha = await solvedChallenge();
      const signedIn = await owners.post("/api/v1/login", {
        email: owner.email,
        password: owner.password,
        altcha,
      });
      expect(signedIn.status).toBe(200);
      expect(typeof signedIn.body.data.token).toBe("string");

      // The owner's sign-in cleared the count: the next sign-in needs no challenge.
      const again = await owners.post("/api/v1/login", {
        email: owner.email,
        password: owner.password,
      });
      expect(again.status).toBe(200);
    });

    it("a solved challenge opens one request: a replay, a wrong password with it, and an expired one are refused", async () => {
      const owner = await signedInTrader(platform);
      const attacker = from("203.0.113.8");
      for (let attempt = 0; attempt < throttleRules.signIn.challenge_after; attempt++) {
        await attacker.post("/api/v1/login", { email: owner.email, password: "Wrong1234" });
      }
      const altcha = await solvedChallenge();
      // The attacker's solved challenge gets a wrong password checked, nothing more…
      const guessed = await attacker.post("/api/v1/login", {
        email: owner.email,
        password: "Wrong5678",
        altcha,
      });
      expect(guessed.status).toBe(401);
      // …and cannot be used again, not even with the right password.
      const replayed = await attacker.post("/api/v1/login", {
        email: owner.email,
        password: owner.password,
        altcha,
      });
      expect(replayed.status).toBe(428);

      const stale = await solvedChallenge();
      platform.clock.advance(challenge_lifetime_ms + 1_000);
      const expired = await attacker.post("/api/v1/login", {
        email: owner.email,
        password: owner.password,
        altcha: stale,
      });
      // The 15-minute window is not over, so the challenge is still asked for and this one is stale.
      expect(expired.status).toBe(428);
    });

    it("forgot-password past its threshold asks for a challenge instead of blocking the owner's reset", async () => {
      const owner = await signedInTrader(platform);
      for (let attempt = 0; attempt < throttleRules.forgotPassword.challenge_after; attempt++) {
        expect(
          (await from("203.0.113.9").post("/api/v1/forgot-password", { email: owner.email }))
            .status,
        ).toBe(200);
      }
      const blocked = await from("198.51.100.21").post("/api/v1/forgot-password", {
        email: owner.email,
      });
      expect(blocked.status).toBe(428);
      expect(blocked.body.code).toBe("CHALLENGE_REQUIRED");
      // An unknown address is treated the same, so the reply reveals nothing.
      for (let attempt = 0; attempt < throttleRules.forgotPassword.challenge_after; attempt++) {
        await http.post("/api/v1/forgot-password", { email: "ghost@example.test" });
      }
      expect(
        (await http.post("/api/v1/forgot-password", { email: "ghost@example.test" })).status,
      ).toBe(428);

      const sent = await from("198.51.100.21").post("/api/v1/forgot-password", {
        email: owner.email,
        altcha: await solvedChallenge(),
      });
      expect(sent.status).toBe(200);
      expect(sent.body.message).toBe(serverMessages.forgotPasswordNeutral);
    });

    it("resend past its threshold asks for a challenge too", async () => {
      const email = "unverified.resend@example.test";
      for (let attempt = 0; attempt < throttleRules.resendVerification.challenge_after; attempt++) {
        expect((await http.post("/api/v1/email/resend", { email })).status).toBe(200);
      }
      expect((await http.post("/api/v1/email/resend", { email })).status).toBe(428);
      expect(
        (await http.post("/api/v1/email/resend", { email, altcha: await solvedChallenge() }))
          .status,
      ).toBe(200);
    });

    it("limits guesses of the current password per session", async () => {
      const trader = await signedInTrader(platform);
      const attempt = (current_password: string) =>
        http.put(
          "/api/v1/update-password",
          { current_password, password: "Changed123", password_confirmation: "Changed123" },
          trader.token,
        );
      for (let guess = 0; guess < rateRules.currentPasswordPerSession.limit; guess++) {
        expect((await attempt(`Guess${guess}abc`)).status).toBe(422);
      }
      const limited = await attempt(trader.password);
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe("RATE_LIMITED");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);

      // Another session of the owner keeps its own count.
      const other = await http.post("/api/v1/login", {
        email: trader.email,
        password: trader.password,
      });
      const changed = await http.put(
        "/api/v1/update-password",
        {
          current_password: trader.password,
          password: "Changed123",
          password_confirmation: "Changed123",
        },
        other.body.data.token,
      );
      expect(changed.status).toBe(200);
    });
  },
);

describe.each(databaseKindsUnderTest())("password rules (ASVS V6) on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());

  it.each(["Password1", "Qwerty123", "Welcome1"])(
    "refuses the common password %j on sign-up with its own message",
    async (password) => {
      const reply = await http.post(
        "/api/v1/register",
        newTrader({ password, password_confirmation: password }),
      );
      expect(reply.status).toBe(422);
      expect(reply.body.code).toBe("VALIDATION_FAILED");
      expect(reply.body.errors).toEqual({ password: [validationMessages.passwordTooCommon] });
    },
  );

  it.each([
    "Passw0rd!",
    "Tr0ub4dor&3xtra",
    "Correct horse battery staple 9",
    "Пароль2026ок",
    `Aa1${"é".repeat(125)}`,
  ])(
    "accepts %j: symbols, spaces and any script, up to 128 characters, and signs in with it",
    async (password) => {
      const trader = newTrader({ password, password_confirmation: password });
      expect((await http.post("/api/v1/register", trader)).status).toBe(201);
      const login = await http.post("/api/v1/login", { email: trader.email, password });
      expect(login.status).toBe(200);
    },
  );

  it("refuses a passphrase without upper case or digit with the rule's message, which is then accurate", async () => {
    const password = "correct horse battery staple";
    const reply = await http.post(
      "/api/v1/register",
      newTrader({ password, password_confirmation: password }),
    );
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ password: [validationMessages.passwordInvalid] });
  });

  it("refuses a common password on reset and on change as well", async () => {
    const trader = await signedInTrader(platform);
    const change = await http.put(
      "/api/v1/update-password",
      {
        current_password: trader.password,
        password: "Password1",
        password_confirmation: "Password1",
      },
      trader.token,
    );
    expect(change.status).toBe(422);
    expect(change.body.errors).toEqual({ password: [validationMessages.passwordTooCommon] });

    expect((await http.post("/api/v1/forgot-password", { email: trader.email })).status).toBe(200);
    const link = await emailedLink(platform, trader.email, /reset/i);
    const reset = await http.post("/api/v1/reset-password", {
      email: trader.email,
      token: link.token,
      password: "Password1",
      password_confirmation: "Password1",
    });
    expect(reset.status).toBe(422);
    expect(reset.body.errors).toEqual({ password: [validationMessages.passwordTooCommon] });
  });
});

describe.each(databaseKindsUnderTest())(
  "forgot-password and resend do the same work for any address on %s",
  (kind) => {
    let platform: TestPlatform;
    let http: ReturnType<typeof httpClient>;

    beforeAll(async () => {
      platform = await startTestPlatform(kind);
      http = httpClient(platform.baseUrl);
    });
    afterAll(async () => platform?.close());

    async function counts() {
      const row = await platform.database.query<{
        tokens: number;
        mails: number;
        requests: number;
      }>(
        `SELECT (SELECT count(*)::int FROM email_tokens) AS tokens,
              (SELECT count(*)::int FROM outbox_emails) AS mails,
              (SELECT count(*)::int FROM account_email_requests) AS requests`,
      );
      return row.rows[0]!;
    }

    it("each request only inserts one queued row; the worker then mails the existing address", async () => {
      const owner = await signedInTrader(platform);
      const unverified = newTrader();
      expect((await http.post("/api/v1/register", unverified)).status).toBe(201);
      // Hold the worker, so what the request itself wrote can be seen.
      await platform.context.accountEmails.stop();
      const before = await counts();
      expect(before.requests).toBe(0);

      const replies = [
        await http.post("/api/v1/forgot-password", { email: owner.email }),
        await http.post("/api/v1/forgot-password", { email: "ghost@example.test" }),
        await http.post("/api/v1/email/resend", { email: unverified.email }),
        await http.post("/api/v1/email/resend", { email: "ghost@example.test" }),
      ];
      for (const reply of replies) expect(reply.status).toBe(200);
      expect(replies[0]!.body).toEqual(replies[1]!.body);
      expect(replies[2]!.body).toEqual(replies[3]!.body);

      const during = await counts();
      // One row per request, known address or not; no token and no e-mail yet.
      expect(during).toEqual({ tokens: before.tokens, mails: before.mails, requests: 4 });
      const queued = await platform.database.query<{ purpose: string; email: string }>(
        "SELECT purpose, email FROM account_email_requests ORDER BY id",
      );
      expect(queued.rows).toEqual([
        { purpose: "reset_password", email: owner.email },
        { purpose: "reset_password", email: "ghost@example.test" },
        { purpose: "verify_email", email: unverified.email.toLowerCase() },
        { purpose: "verify_email", email: "ghost@example.test" },
      ]);

      // A new process picks the queue up and the real SMTP capture receives the links.
      await platform.restart();
      const reset = await emailedLink(platform, owner.email, /reset/i);
      expect(reset.token.length).toBeGreaterThan(10);
      // The second verification e-mail to this address (the first came with the sign-up).
      const verifyMails = () =>
        platform.smtp.messages.filter(
          (mail) =>
            mail.to.includes(unverified.email.toLowerCase()) && /^Verify/.test(mail.subject),
        );
      const deadlineMs = Date.now() + 15_000;
      while (verifyMails().length < 2 && Date.now() < deadlineMs) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(verifyMails()).toHaveLength(2);
      const after = await counts();
      expect(after.requests).toBe(0);
      // Two tokens and two e-mails: the ghost got neither.
      expect(after.tokens).toBe(before.tokens + 2);
      expect(after.mails).toBe(before.mails + 2);
      expect(platform.smtp.messages.some((mail) => mail.to.includes("ghost@example.test"))).toBe(
        false,
      );
    });
  },
);

describe("the ALTCHA HMAC key", () => {
  const silent = pino({ level: "silent" });

  it("is generated once into DATA_DIR, readable by the server's user only, and kept across starts", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tp-altcha-"));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = loadAltchaHmacKey(config, silent);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(loadAltchaHmacKey(config, silent)).toBe(first);
      expect(statSync(path.join(dataDir, altcha_key_file)).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("comes from ALTCHA_HMAC_KEY when set, which must be at least 32 characters", () => {
    const key = "k".repeat(40);
    expect(loadAltchaHmacKey(loadConfig({ ALTCHA_HMAC_KEY: key }), silent)).toBe(key);
    expect(() => loadConfig({ ALTCHA_HMAC_KEY: "short" })).toThrow(/ALTCHA_HMAC_KEY/);
  });
});

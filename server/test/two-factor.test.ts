import { serverMessages } from "@tp/domain/messages";
import { twoFactorMessages } from "@tp/domain/two-factor";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { step_up_window_ms } from "../src/auth/step-up.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { signInWithSecondFactor, totpCodeAt } from "../src/testing/second-factor-sign-in.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import { signedInTrader } from "./support/accounts.ts";
import { staff, startFundingPlatform } from "./support/funding.ts";
import { httpClient } from "./support/http.ts";

const step_ms = 30_000;

describe.each(databaseKindsUnderTest())("two-factor authentication on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind);
    http = httpClient(platform.baseUrl);
  });
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  const step = () => Math.floor(platform.clock.now().getTime() / step_ms);

  /** A trader who turned 2FA on through the API; returns the secret and recovery codes. */
  async function traderWithTwoFactor() {
    const trader = await signedInTrader(platform);
    const started = await http.post("/api/v1/two-factor/enrol", undefined, trader.token);
    expect(started.status).toBe(200);
    const { secret, otpauth_uri } = started.body.data;
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    const confirmed = await http.post(
      "/api/v1/two-factor/confirm",
      { code: totpCodeAt(secret, step()) },
      trader.token,
    );
    expect(confirmed.status).toBe(200);
    const recoveryCodes = confirmed.body.data.recovery_codes as string[];
    return { ...trader, secret: secret as string, recoveryCodes };
  }

  async function passwordStep(email: string, password: string) {
    const login = await http.post("/api/v1/login", { email, password });
    expect(login.status).toBe(200);
    return login.body.data;
  }

  it("enrols: a wrong confirming code leaves 2FA off; the right one turns it on with ten distinct recovery codes, stored hashed", async () => {
    const trader = await signedInTrader(platform);
    expect((await http.get("/api/v1/two-factor", trader.token)).body.data).toEqual({
      enabled: false,
      recovery_codes_left: 0,
    });
    const started = await http.post("/api/v1/two-factor/enrol", undefined, trader.token);
    const secret = started.body.data.secret as string;
    const wrong = await http.post("/api/v1/two-factor/confirm", { code: "000000" }, trader.token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");
    // Not yet confirmed: signing in asks for nothing.
    expect((await passwordStep(trader.email, trader.password)).token).toBeTypeOf("string");

    const confirmed = await http.post(
      "/api/v1/two-factor/confirm",
      { code: totpCodeAt(secret, step()) },
      trader.token,
    );
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await http.get("/api/v1/two-factor", trader.token)).body.data).toEqual({
      enabled: true,
      recovery_codes_left: 10,
    });
    const stored = await platform.database.query<{ code_hash: string }>(
      "SELECT code_hash FROM recovery_codes WHERE user_id = $1",
      [trader.user.id],
    );
    for (const code of codes) {
      expect(stored.rows.map((row) => row.code_hash)).not.toContain(code);
    }
  });

  it("signs in with the password, then a code; the same code is refused the second time; drift of one step is allowed", async () => {
    const trader = await traderWithTwoFactor();
    const first = await passwordStep(trader.email, trader.password);
    expect(first).toEqual({
      next_step: "second_factor",
      sign_in_token: expect.any(String),
      methods: ["totp", "recovery_code"],
    });
    expect(first.token).toBeUndefined();
    // The confirming code used this step: the next good code is one step ahead (drift).
    const ahead = totpCodeAt(trader.secret, step() + 1);
    const signedIn = await http.post("/api/v1/login/second-factor", {
      sign_in_token: first.sign_in_token,
      code: ahead,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.email).toBe(trader.email);
    expect((await http.get("/api/v1/user", signedIn.body.data.token)).status).toBe(200);

    // Replay: the same code on a new sign-in is refused, and the sign-in token is single use.
    const second = await passwordStep(trader.email, trader.password);
    const replayed = await http.post("/api/v1/login/second-factor", {
      sign_in_token: second.sign_in_token,
      code: ahead,
    });
    expect(replayed.status).toBe(422);
    expect(replayed.body.code).toBe("SECOND_FACTOR_INVALID");
    const reused = await http.post("/api/v1/login/second-factor", {
      sign_in_token: first.sign_in_token,
      code: totpCodeAt(trader.secret, step() + 1),
    });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("AUTH_CHALLENGE_INVALID");
    // Two steps away is outside the drift.
    const farAhead = await http.post("/api/v1/login/second-factor", {
      sign_in_token: second.sign_in_token,
      code: totpCodeAt(trader.secret, step() + 3),
    });
    expect(farAhead.status).toBe(422);
  });

  it("five wrong codes end the sign-in step; the password must be given again", async () => {
    const trader = await traderWithTwoFactor();
    const login = await passwordStep(trader.email, trader.password);
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await http.post("/api/v1/login/second-factor", {
        sign_in_token: login.sign_in_token,
        code: "123456",
      });
      expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");
    }
    platform.clock.advance(step_ms);
    const dead = await http.post("/api/v1/login/second-factor", {
      sign_in_token: login.sign_in_token,
      code: totpCodeAt(trader.secret, step()),
    });
    expect(dead.status).toBe(422);
    expect(dead.body.code).toBe("AUTH_CHALLENGE_INVALID");
  });

  it("a recovery code signs in once; the second use is refused", async () => {
    const trader = await traderWithTwoFactor();
    const code = trader.recoveryCodes[0]!;
    const first = await passwordStep(trader.email, trader.password);
    const used = await http.post("/api/v1/login/second-factor", {
      sign_in_token: first.sign_in_token,
      code: code.toUpperCase(),
    });
    expect(used.status).toBe(200);
    const again = await passwordStep(trader.email, trader.password);
    const refused = await http.post("/api/v1/login/second-factor", {
      sign_in_token: again.sign_in_token,
      code,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("SECOND_FACTOR_INVALID");
    const status = await http.get("/api/v1/two-factor", used.body.data.token);
    expect(status.body.data.recovery_codes_left).toBe(9);
  });

  it("turning 2FA off needs a current code; regenerating recovery codes replaces the old ones", async () => {
    const trader = await traderWithTwoFactor();
    platform.clock.advance(step_ms);
    const noCode = await http.post("/api/v1/two-factor/disable", {}, trader.token);
    expect(noCode.status).toBe(422);
    const wrong = await http.post("/api/v1/two-factor/disable", { code: "999999" }, trader.token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");
    expect((await http.get("/api/v1/two-factor", trader.token)).body.data.enabled).toBe(true);

    const regenerated = await http.post(
      "/api/v1/two-factor/recovery-codes",
      { code: totpCodeAt(trader.secret, step()) },
      trader.token,
    );
    expect(regenerated.status).toBe(200);
    const fresh = regenerated.body.data.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    // An old recovery code no longer works; a new one turns 2FA off.
    const old = await http.post(
      "/api/v1/two-factor/disable",
      { code: trader.recoveryCodes[1] },
      trader.token,
    );
    expect(old.status).toBe(422);
    const off = await http.post("/api/v1/two-factor/disable", { code: fresh[0] }, trader.token);
    expect(off.status).toBe(200);
    expect(off.body.message).toBe(twoFactorMessages.disabled);
    expect((await passwordStep(trader.email, trader.password)).token).toBeTypeOf("string");
  });

  describe("staff", () => {
    it("a staff member without 2FA gets no session for the right password, but the enrolment step; a session only after a code", async () => {
      const login = await passwordStep(staff.email, staff.password);
      expect(login).toEqual({
        next_step: "enrol_totp",
        sign_in_token: expect.any(String),
        otpauth_uri: expect.stringMatching(/^otpauth:\/\/totp\/.*secret=/),
        secret: expect.any(String),
      });
      const sessions = await platform.database.query(
        "SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1",
        [staff.email],
      );
      expect(sessions.rowCount).toBe(0);
      // The enrolment token is no sign-in token for the code step, and a wrong code fails.
      const wrongStep = await http.post("/api/v1/login/second-factor", {
        sign_in_token: login.sign_in_token,
        code: totpCodeAt(login.secret, step()),
      });
      expect(wrongStep.body.code).toBe("AUTH_CHALLENGE_INVALID");
      const wrong = await http.post("/api/v1/login/enrol", {
        sign_in_token: login.sign_in_token,
        code: "000000",
      });
      expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");

      const enrolled = await http.post("/api/v1/login/enrol", {
        sign_in_token: login.sign_in_token,
        code: totpCodeAt(login.secret, step()),
      });
      expect(enrolled.status).toBe(200);
      expect(enrolled.body.data.user.role).toBe("admin");
      expect(enrolled.body.data.recovery_codes).toHaveLength(10);
      expect((await http.get("/api/v1/admin/withdrawals", enrolled.body.data.token)).status).toBe(
        200,
      );
      // From now on a code is asked for, and the shared helper answers it.
      const next = await passwordStep(staff.email, staff.password);
      expect(next.next_step).toBe("second_factor");
      const again = await signInWithSecondFactor(platform, staff.email, staff.password);
      expect(again.user.role).toBe("admin");
      // Staff cannot turn 2FA off (their next sign-in would only ask them to enrol again).
      const off = await http.post(
        "/api/v1/two-factor/disable",
        { code: enrolled.body.data.recovery_codes[0] },
        again.token,
      );
      expect(off.status).toBe(403);
    });
  });

  describe("step-up", () => {
    it("a session older than the window is refused a password change until it steps up (password when 2FA is off)", async () => {
      const trader = await signedInTrader(platform);
      const change = {
        current_password: trader.password,
        password: "Stepped2Up",
        password_confirmation: "Stepped2Up",
      };
      platform.clock.advance(step_up_window_ms + 1000);
      const refused = await http.put("/api/v1/update-password", change, trader.token);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("STEP_UP_REQUIRED");
      expect(refused.body.message).toBe(serverMessages.stepUpRequired);

      const wrong = await http.post("/api/v1/step-up", { password: "Wrong1234" }, trader.token);
      expect(wrong.status).toBe(422);
      expect(wrong.body.code).toBe("SECOND_FACTOR_INVALID");
      const stepped = await http.post(
        "/api/v1/step-up",
        { password: trader.password },
        trader.token,
      );
      expect(stepped.status).toBe(200);
      expect((await http.put("/api/v1/update-password", change, trader.token)).status).toBe(200);
    });

    it("with 2FA on, the password is not enough: a code steps up; enrolment itself needs a fresh step-up", async () => {
      const trader = await traderWithTwoFactor();
      platform.clock.advance(step_up_window_ms + step_ms);
      const regenerate = await http.post("/api/v1/two-factor/enrol", undefined, trader.token);
      expect(regenerate.body.code).toBe("STEP_UP_REQUIRED");
      const byPassword = await http.post(
        "/api/v1/step-up",
        { password: trader.password },
        trader.token,
      );
      expect(byPassword.status).toBe(422);
      expect(byPassword.body.message).toBe(twoFactorMessages.stepUpNeedsCode);
      const byCode = await http.post(
        "/api/v1/step-up",
        { code: totpCodeAt(trader.secret, step()) },
        trader.token,
      );
      expect(byCode.status).toBe(200);
      const sessions = await platform.database.query<{ stepped_up_at: Date }>(
        "SELECT stepped_up_at FROM sessions WHERE user_id = $1 ORDER BY id DESC LIMIT 1",
        [trader.user.id],
      );
      expect(sessions.rows[0]!.stepped_up_at.getTime()).toBe(platform.clock.now().getTime());
      const both = await http.post(
        "/api/v1/step-up",
        { password: trader.password, code: "123456" },
        trader.token,
      );
      expect(both.status).toBe(422);
    });
  });
});

import { Secret, TOTP } from "otpauth";
import type { ManualClock } from "../clock.ts";
import type { Database } from "../db/database.ts";

/**
 * Test support: signing in through the second factor, as a user with an authenticator app
 * would (issue 12). Staff must enrol on their first sign-in and give a code on every later
 * one, so every helper that signs staff in (server tests, browser suites) goes through here.
 *
 * Codes are computed from the secret the platform stored, at the platform's own clock. A
 * code is good once per 30-second step and the test clock is usually still, so the step of
 * now is used first, then one ahead and one behind (the drift the server allows), then the
 * recovery codes kept from enrolment, and only then is the clock moved on by one step.
 *
 * The browser suites run on the real clock: a code of the step behind now is refused if a
 * step boundary passes before the server checks it (a CI run failed that way), so it comes
 * last, and on the real clock the helper waits for the next step instead of moving time.
 */

type PlatformLike = { baseUrl: string; database: Database; clock: ManualClock };

const totp_period_ms = 30_000;

/** The recovery codes each user got at enrolment, per platform database (tests only). */
const recoveryCodesByDatabase = new WeakMap<Database, Map<string, string[]>>();

export function totpCodeAt(secretBase32: string, step: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: 30 });
  return totp.generate({ timestamp: step * totp_period_ms });
}

async function post(baseUrl: string, path: string, body: unknown) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, text };
}

/** A code the server will take now: an unused TOTP step, else a kept recovery code. */
export async function nextSecondFactorCode(platform: PlatformLike, email: string): Promise<string> {
  const found = await platform.database.query<{ secret_base32: string; last_used_step: number }>(
    `SELECT t.secret_base32, t.last_used_step FROM totp_secrets t JOIN users u ON u.id = t.user_id
     WHERE u.email = $1`,
    [email.toLowerCase()],
  );
  const secret = found.rows[0];
  if (!secret) throw new Error(`${email} has no TOTP secret`);
  const lastUsedStep = Number(secret.last_used_step);
  const now = platform.clock.now().getTime();
  const current = Math.floor(now / totp_period_ms);
  for (const step of [current, current + 1, current - 1]) {
    if (step > lastUsedStep) return totpCodeAt(secret.secret_base32, step);
  }
  const kept = recoveryCodesByDatabase.get(platform.database)?.get(email.toLowerCase());
  const recoveryCode = kept?.shift();
  if (recoveryCode) return recoveryCode;
  if (typeof platform.clock.advance === "function") platform.clock.advance(totp_period_ms);
  else await new Promise((resolve) => setTimeout(resolve, totp_period_ms - (now % totp_period_ms)));
  return nextSecondFactorCode(platform, email);
}

/** Keeps recovery codes shown at an enrolment, for later sign-ins in the same test. */
export function keepRecoveryCodes(platform: PlatformLike, email: string, codes: string[]) {
  let byEmail = recoveryCodesByDatabase.get(platform.database);
  if (!byEmail) {
    byEmail = new Map();
    recoveryCodesByDatabase.set(platform.database, byEmail);
  }
  byEmail.set(email.toLowerCase(), [...codes]);
}

export interface SignedIn {
  token: string;
  user: { id: number; email: string; role: string } & Record<string, unknown>;
}

/**
 * POST /login and whatever step it asks for: the enrolment (a staff member's first
 * sign-in) or a code. Throws on any refusal, with the server's reply.
 */
export async function signInWithSecondFactor(
  platform: PlatformLike,
  email: string,
  password: string,
): Promise<SignedIn> {
  const login = await post(platform.baseUrl, "/login", { email, password });
  if (login.status !== 200) throw new Error(`login of ${email} failed: ${login.text}`);
  const data = login.body.data;
  if (data.token) return data as SignedIn;
  if (data.next_step === "enrol_totp") {
    // The step of now, not the one behind it: on the real clock that one can expire in flight.
    const step = Math.floor(platform.clock.now().getTime() / totp_period_ms);
    const enrolled = await post(platform.baseUrl, "/login/enrol", {
      sign_in_token: data.sign_in_token,
      code: totpCodeAt(data.secret, step),
    });
    if (enrolled.status !== 200) throw new Error(`enrolment of ${email} failed: ${enrolled.text}`);
    keepRecoveryCodes(platform, email, enrolled.body.data.recovery_codes);
    return enrolled.body.data as SignedIn;
  }
  if (data.next_step === "second_factor") {
    const reply = await post(platform.baseUrl, "/login/second-factor", {
      sign_in_token: data.sign_in_token,
      code: await nextSecondFactorCode(platform, email),
    });
    if (reply.status !== 200) throw new Error(`second factor of ${email} failed: ${reply.text}`);
    return reply.body.data as SignedIn;
  }
  throw new Error(`login of ${email} answered an unknown step: ${login.text}`);
}

import type { EnrolledData, LoginData, SignedInData } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import {
  type RecoveryCodes,
  type SecondFactorMethod,
  type SignInSecondFactorRequest,
  type StepUpRequest,
  type TotpEnrolment,
  type TwoFactorStatus,
  twoFactorMessages,
} from "@tp/domain/two-factor";
import type { AppContext } from "../app-context.ts";
import type { Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import { findUserById, type UserRow, userView } from "../users/users.ts";
import {
  type AuthChallenge,
  consumeAuthChallenge,
  countFailedChallengeAttempt,
  issueAuthChallenge,
  lockAuthChallenge,
} from "./auth-challenges.ts";
import { startSignedInSession } from "./finish-sign-in.ts";
import { userHasPasskey } from "./passkeys.ts";
import { verifyPassword } from "./passwords.ts";
import type { Session } from "./sessions.ts";
import { recordSignIn } from "./sign-in-history.ts";
import { markSteppedUp, requireFreshStepUp } from "./step-up.ts";
import {
  acceptSecondFactorCode,
  acceptTotpCode,
  confirmTotpSecret,
  countUnusedRecoveryCodes,
  deleteTotp,
  findTotpSecret,
  hasConfirmedTotp,
  otpauthUri,
  replaceRecoveryCodes,
  storeUnconfirmedTotpSecret,
} from "./totp.ts";

/**
 * Two-factor authentication (issue 12): the sign-in steps after the password, a trader's
 * enrolment on the Security page, and step-up. The login contract:
 *
 *   POST /login ─ no second factor, trader ─────────────▶ { user, token }
 *        ├────── confirmed TOTP or a passkey ────────────▶ { next_step: "second_factor", … }
 *        │         POST /login/second-factor { code } ──▶ { user, token }
 *        └────── staff without 2FA ──────────────────────▶ { next_step: "enrol_totp", … }
 *                  POST /login/enrol { code } ──────────▶ { user, token, recovery_codes }
 *
 * A session is made only at the end, by startSignedInSession (with its sign-in history line),
 * and starts stepped up.
 */

type Client = { ip: string; userAgent: string | undefined };

const invalidCode = () =>
  new AppError("SECOND_FACTOR_INVALID", twoFactorMessages.codeInvalid, {
    fieldErrors: { code: [twoFactorMessages.codeInvalid] },
  });
const invalidChallenge = () =>
  new AppError("AUTH_CHALLENGE_INVALID", twoFactorMessages.signInExpired, {
    fieldErrors: { sign_in_token: [twoFactorMessages.signInExpired] },
  });

function issuerOf(context: AppContext): string {
  return context.siteContent.company.name;
}

/** The end of a sign-in: the session, its history line and any new-device e-mail. */
async function signedIn(
  context: AppContext,
  transaction: Queryable,
  userId: number,
  at: Date,
  client: Client,
): Promise<SignedInData> {
  const view = await userView(transaction, userId);
  if (!view) throw new Error(`sign-in of a user that does not exist: ${userId}`);
  const { token } = await startSignedInSession(context, transaction, view, client, at);
  return { user: view, token };
}

/**
 * After the password matched: a session for a trader without a second factor, otherwise
 * the step the contract names. Staff (any role but trader) without one must enrol first.
 */
export async function continueSignIn(
  context: AppContext,
  user: UserRow,
  client: Client,
): Promise<LoginData> {
  const { database, clock } = context;
  const data: LoginData = await database.transaction(async (transaction) => {
    const at = clock.now();
    const methods: SecondFactorMethod[] = [];
    if (await hasConfirmedTotp(transaction, user.id)) methods.push("totp", "recovery_code");
    if (await userHasPasskey(transaction, user.id)) methods.push("passkey");
    if (methods.length > 0) {
      const sign_in_token = await issueAuthChallenge(transaction, {
        userId: user.id,
        purpose: "second_factor",
        at,
        client,
      });
      return { next_step: "second_factor" as const, sign_in_token, methods };
    }
    if (user.role !== "trader") {
      const secret = await storeUnconfirmedTotpSecret(transaction, user.id, at);
      const sign_in_token = await issueAuthChallenge(transaction, {
        userId: user.id,
        purpose: "enrolment",
        at,
        client,
      });
      return {
        next_step: "enrol_totp" as const,
        sign_in_token,
        secret,
        otpauth_uri: otpauthUri(secret, issuerOf(context), user.email),
      };
    }
    return signedIn(context, transaction, user.id, at, client);
  });
  // The sign-in may have queued a new-device e-mail.
  if (!("next_step" in data)) context.outbox.kick();
  return data;
}

/**
 * Runs `check` against the live challenge of `token`: on success the challenge is consumed;
 * a wrong answer counts against it and is committed before the refusal is thrown, so five
 * wrong codes end the challenge even though each request fails.
 */
async function answerChallenge<Result>(
  context: AppContext,
  token: string,
  purpose: "second_factor" | "enrolment",
  client: Client,
  check: (
    transaction: Queryable,
    challenge: AuthChallenge & { userId: number },
    at: Date,
  ) => Promise<Result | null>,
): Promise<Result> {
  const { database, clock } = context;
  const outcome = await database.transaction(async (transaction) => {
    const at = clock.now();
    const challenge = await lockAuthChallenge(transaction, token, [purpose], at);
    if (!challenge || challenge.userId === null) return { kind: "challenge_invalid" as const };
    const result = await check(transaction, { ...challenge, userId: challenge.userId }, at);
    if (result === null) {
      await countFailedChallengeAttempt(transaction, challenge.id);
      await recordSignIn(transaction, {
        userId: challenge.userId,
        at,
        client,
        result: "second_factor_failed",
      });
      return { kind: "code_invalid" as const };
    }
    await consumeAuthChallenge(transaction, challenge.id, at);
    return { kind: "done" as const, result };
  });
  if (outcome.kind === "challenge_invalid") throw invalidChallenge();
  if (outcome.kind === "code_invalid") throw invalidCode();
  // A finished sign-in may have queued a new-device e-mail.
  context.outbox.kick();
  return outcome.result;
}

/** POST /login/second-factor: a TOTP code or a recovery code finishes the sign-in. */
export function completeSecondFactorSignIn(
  context: AppContext,
  input: SignInSecondFactorRequest,
  client: Client,
): Promise<SignedInData> {
  return answerChallenge(
    context,
    input.sign_in_token,
    "second_factor",
    client,
    async (transaction, challenge, at) => {
      if (!(await acceptSecondFactorCode(transaction, challenge.userId, input.code, at)))
        return null;
      return signedIn(context, transaction, challenge.userId, at, client);
    },
  );
}

/** POST /login/enrol: a staff member's first code confirms 2FA and signs them in. */
export function completeEnrolmentSignIn(
  context: AppContext,
  input: SignInSecondFactorRequest,
  client: Client,
): Promise<EnrolledData> {
  return answerChallenge(
    context,
    input.sign_in_token,
    "enrolment",
    client,
    async (transaction, challenge, at) => {
      const secret = await findTotpSecret(transaction, challenge.userId, { forUpdate: true });
      if (!secret || secret.confirmed_at) return null;
      if (!(await acceptTotpCode(transaction, challenge.userId, secret, input.code, at)))
        return null;
      await confirmTotpSecret(transaction, challenge.userId, at);
      const recovery_codes = await replaceRecoveryCodes(transaction, challenge.userId, at);
      return {
        ...(await signedIn(context, transaction, challenge.userId, at, client)),
        recovery_codes,
      };
    },
  );
}

// Signed in: the Security page -------------------------------------------------------------

export async function twoFactorStatus(
  context: AppContext,
  session: Session,
): Promise<TwoFactorStatus> {
  const { database } = context;
  return {
    enabled: await hasConfirmedTotp(database, session.userId),
    recovery_codes_left: await countUnusedRecoveryCodes(database, session.userId),
  };
}

/** Starts (or restarts) enrolment: a new secret, shown once, unconfirmed until a code. */
export async function startTotpEnrolment(
  context: AppContext,
  session: Session,
): Promise<TotpEnrolment> {
  const { database, clock } = context;
  return database.transaction(async (transaction) => {
    const at = clock.now();
    await requireFreshStepUp(transaction, session, at);
    if (await hasConfirmedTotp(transaction, session.userId)) {
      throw new AppError("VALIDATION_FAILED", twoFactorMessages.alreadyEnabled);
    }
    const user = (await findUserById(transaction, session.userId))!;
    const secret = await storeUnconfirmedTotpSecret(transaction, session.userId, at);
    return { secret, otpauth_uri: otpauthUri(secret, issuerOf(context), user.email) };
  });
}

/**
 * Runs `action` after checking a code on a signed-in session, rate-limited per account. A
 * wrong code throws; a good one also counts as a fresh step-up for this session.
 */
async function withCheckedCode<Result>(
  context: AppContext,
  session: Session,
  action: (
    transaction: Queryable,
    check: (code: string) => Promise<boolean>,
    at: Date,
  ) => Promise<Result | null>,
): Promise<Result> {
  const { database, clock, rateLimiter } = context;
  rateLimiter.consume(rateRules.secondFactorPerAccount, String(session.userId));
  const result = await database.transaction(async (transaction) => {
    const at = clock.now();
    return action(
      transaction,
      (code) => acceptSecondFactorCode(transaction, session.userId, code, at),
      at,
    );
  });
  if (result === null) throw invalidCode();
  return result;
}

/** Confirms enrolment with the first code: 2FA on, ten recovery codes (shown once). */
export async function confirmTotpEnrolment(
  context: AppContext,
  session: Session,
  code: string,
): Promise<RecoveryCodes> {
  const { database, clock, rateLimiter } = context;
  rateLimiter.consume(rateRules.secondFactorPerAccount, String(session.userId));
  const outcome = await database.transaction(async (transaction) => {
    const at = clock.now();
    await requireFreshStepUp(transaction, session, at);
    const secret = await findTotpSecret(transaction, session.userId, { forUpdate: true });
    if (!secret) throw new AppError("VALIDATION_FAILED", twoFactorMessages.noEnrolment);
    if (secret.confirmed_at)
      throw new AppError("VALIDATION_FAILED", twoFactorMessages.alreadyEnabled);
    if (!(await acceptTotpCode(transaction, session.userId, secret, code, at))) return null;
    await confirmTotpSecret(transaction, session.userId, at);
    await markSteppedUp(transaction, session.sessionId, at);
    return { recovery_codes: await replaceRecoveryCodes(transaction, session.userId, at) };
  });
  if (outcome === null) throw invalidCode();
  return outcome;
}

/**
 * Turns 2FA off. The code in the request is the fresh second factor (a TOTP code or a
 * recovery code, for a lost phone); staff may not turn it off at all, since their sign-in
 * would only make them enrol again.
 */
export async function disableTotp(
  context: AppContext,
  session: Session,
  code: string,
): Promise<void> {
  if (session.role !== "trader") {
    throw new AppError("FORBIDDEN", serverMessages.forbidden);
  }
  await withCheckedCode(context, session, async (transaction, check, at) => {
    if (!(await hasConfirmedTotp(transaction, session.userId))) {
      throw new AppError("VALIDATION_FAILED", twoFactorMessages.notEnabled);
    }
    if (!(await check(code))) return null;
    await deleteTotp(transaction, session.userId);
    await markSteppedUp(transaction, session.sessionId, at);
    return true;
  });
}

/** Ten new recovery codes for a current code; the old ones stop working. */
export async function regenerateRecoveryCodes(
  context: AppContext,
  session: Session,
  code: string,
): Promise<RecoveryCodes> {
  return withCheckedCode(context, session, async (transaction, check, at) => {
    if (!(await hasConfirmedTotp(transaction, session.userId))) {
      throw new AppError("VALIDATION_FAILED", twoFactorMessages.notEnabled);
    }
    if (!(await check(code))) return null;
    await markSteppedUp(transaction, session.sessionId, at);
    return { recovery_codes: await replaceRecoveryCodes(transaction, session.userId, at) };
  });
}

/**
 * POST /step-up: a code when 2FA is on (the password is then not enough: a stolen token
 * plus a phished password must not move money), the password only when it is off.
 */
export async function stepUp(
  context: AppContext,
  session: Session,
  input: StepUpRequest,
): Promise<void> {
  const { database, clock, rateLimiter } = context;
  const twoFactorOn = await hasConfirmedTotp(database, session.userId);
  if (twoFactorOn) {
    if (input.code === undefined) {
      throw new AppError("SECOND_FACTOR_INVALID", twoFactorMessages.stepUpNeedsCode, {
        fieldErrors: { code: [twoFactorMessages.stepUpNeedsCode] },
      });
    }
    const code = input.code;
    await withCheckedCode(context, session, async (transaction, check, at) => {
      if (!(await check(code))) return null;
      await markSteppedUp(transaction, session.sessionId, at);
      return true;
    });
    return;
  }
  if (input.password === undefined) {
    throw new AppError("SECOND_FACTOR_INVALID", twoFactorMessages.stepUpNeedsPassword, {
      fieldErrors: { password: [twoFactorMessages.stepUpNeedsPassword] },
    });
  }
  rateLimiter.consume(rateRules.secondFactorPerAccount, String(session.userId));
  const user = await findUserById(database, session.userId);
  if (!user || !(await verifyPassword(user.password_hash, input.password))) {
    throw new AppError("SECOND_FACTOR_INVALID", twoFactorMessages.passwordWrong, {
      fieldErrors: { password: [twoFactorMessages.passwordWrong] },
    });
  }
  await markSteppedUp(database, session.sessionId, clock.now());
}

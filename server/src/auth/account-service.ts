import { accountClosureMessages } from "@tp/domain/account-closure";
import type { LoginData } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import type {
  LoginRequest,
  RegisterRequest,
  ResetPasswordRequest,
  UpdatePasswordRequest,
  VerifyEmailRequest,
} from "@tp/domain/validation";
import type { AppContext } from "../app-context.ts";
import { AppError, validationError } from "../http/errors.ts";
import { refuseSignUpFrom } from "../jurisdictions/restricted-countries.ts";
import { queueEmail } from "../mail/outbox.ts";
import { alreadyRegisteredEmail } from "../mail/templates.ts";
import {
  createTrader,
  findUserByEmail,
  findUserById,
  markEmailVerified,
  setPasswordHash,
} from "../users/users.ts";
import { queueAccountEmailRequest, sendVerificationLink } from "./account-email-requests.ts";
import { refuseCommonPassword } from "./common-passwords.ts";
import { consumeEmailToken } from "./email-tokens.ts";
import { hashOpaqueToken } from "./opaque-token.ts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./passwords.ts";
import { continueSignIn } from "./second-factor.ts";
import {
  announceRevokedSessions,
  revokeSession,
  revokeUserSessions,
  type Session,
} from "./sessions.ts";
import { recordSignIn } from "./sign-in-history.ts";
import { requireFreshStepUp } from "./step-up.ts";

/**
 * Account flows behind the auth routes. Replies that could tell an outsider whether an
 * address has an account (sign-up, sign-in, resend, forgot) are the same either way.
 */

function mailOptions(context: AppContext) {
  return { publicUrl: context.config.PUBLIC_URL, siteName: context.siteContent.company.name };
}

/**
 * A taken address gets no second account and no error: the owner is e-mailed instead, and
 * the reply is the same as for a new account.
 */
export async function register(context: AppContext, input: RegisterRequest): Promise<void> {
  const { database, clock, config } = context;
  refuseSignUpFrom(config, input.country);
  refuseCommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  await database.transaction(async (transaction) => {
    const at = clock.now();
    const user = await createTrader(
      transaction,
      {
        email: input.email,
        passwordHash,
        first_name: input.first_name,
        last_name: input.last_name,
        phone_number: input.phone_number,
        country: input.country,
        referral_code: input.referral_code,
      },
      config.practice_balance_cents,
      at,
    );
    if (!user) {
      await queueEmail(
        transaction,
        alreadyRegisteredEmail({ ...mailOptions(context), to: input.email }),
        at,
      );
      return;
    }
    await sendVerificationLink(transaction, mailOptions(context), user, at);
  });
  context.outbox.kick();
}

export async function login(
  context: AppContext,
  input: LoginRequest,
  client: { ip: string; userAgent: string | undefined },
): Promise<LoginData> {
  const { database, clock } = context;
  const user = await findUserByEmail(database, input.email);
  if (user?.closed_at) {
    // Its password hash is erased: there is nothing to check, only the time to spend alike.
    await burnPasswordCheck(input.password);
    throw new AppError("ACCOUNT_CLOSED", accountClosureMessages.accountClosed);
  }
  const passwordMatches = user
    ? await verifyPassword(user.password_hash, input.password)
    : await burnPasswordCheck(input.password);
  if (!user || !passwordMatches) {
    if (user) {
      await recordSignIn(database, {
        userId: user.id,
        at: clock.now(),
        client,
        result: "wrong_password",
      });
    }
    throw new AppError("INVALID_CREDENTIALS", serverMessages.loginInvalid);
  }
  return continueSignIn(context, user, client);
}

export async function logout(context: AppContext, session: Session): Promise<void> {
  const revoked = await revokeSession(context.database, session.sessionId, context.clock.now());
  announceRevokedSessions(context.bus, session.userId, revoked);
}

export async function logoutOtherSessions(context: AppContext, session: Session): Promise<void> {
  const revoked = await revokeUserSessions(
    context.database,
    session.userId,
    session.sessionId,
    context.clock.now(),
  );
  announceRevokedSessions(context.bus, session.userId, revoked);
}

/**
 * Only queues the request (one insert, whatever the address): the worker looks the address
 * up and sends the link, so the reply takes the same time for an unknown address.
 */
export async function resendVerification(context: AppContext, email: string): Promise<void> {
  await queueAccountEmailRequest(context.database, "verify_email", email, context.clock.now());
  context.accountEmails.kick();
}

export async function verifyEmail(
  context: AppContext,
  input: VerifyEmailRequest,
): Promise<"verified" | "already_verified"> {
  const { database, clock } = context;
  return database.transaction(async (transaction) => {
    const at = clock.now();
    const userId = await consumeEmailToken(
      transaction,
      input.email,
      input.token,
      "verify_email",
      at,
    );
    if (userId !== null) {
      await markEmailVerified(transaction, userId, at);
      return "verified";
    }
    // A second click on a link that already worked: say so, rather than "invalid". Knowing
    // the token is proof enough, so this reveals nothing to someone guessing addresses.
    const used = await transaction.query(
      `SELECT 1 FROM email_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = $1 AND t.purpose = 'verify_email' AND u.email = $2
         AND u.email_verified_at IS NOT NULL`,
      [hashOpaqueToken(input.token), input.email],
    );
    if (used.rowCount > 0) return "already_verified";
    throw validationError(
      { token: [serverMessages.verificationLinkInvalid] },
      serverMessages.verificationLinkInvalid,
    );
  });
}

/** Like resendVerification: one insert in the request, the rest in the worker. */
export async function forgotPassword(context: AppContext, email: string): Promise<void> {
  await queueAccountEmailRequest(context.database, "reset_password", email, context.clock.now());
  context.accountEmails.kick();
}

/** Single use, within 60 minutes; revokes every session; proves the address, so verifies it. */
export async function resetPassword(
  context: AppContext,
  input: ResetPasswordRequest,
): Promise<void> {
  const { database, clock } = context;
  refuseCommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const revoked = await database.transaction(async (transaction) => {
    const at = clock.now();
    const userId = await consumeEmailToken(
      transaction,
      input.email,
      input.token,
      "reset_password",
      at,
    );
    if (userId === null) {
      throw validationError(
        { token: [serverMessages.resetLinkInvalid] },
        serverMessages.resetLinkInvalid,
      );
    }
    await setPasswordHash(transaction, userId, passwordHash, at);
    await markEmailVerified(transaction, userId, at);
    return { userId, sessionIds: await revokeUserSessions(transaction, userId, null, at) };
  });
  announceRevokedSessions(context.bus, revoked.userId, revoked.sessionIds);
}

/** Returns false when the current password is wrong; other sessions are revoked on success. */
export async function changePassword(
  context: AppContext,
  session: Session,
  input: UpdatePasswordRequest,
): Promise<boolean> {
  const { database, clock } = context;
  refuseCommonPassword(input.password);
  // A stolen token alone must not take the account over (issue 12: step-up).
  await requireFreshStepUp(database, session, clock.now());
  const user = await findUserById(database, session.userId);
  if (!user || !(await verifyPassword(user.password_hash, input.current_password))) return false;
  const passwordHash = await hashPassword(input.password);
  const revoked = await database.transaction(async (transaction) => {
    const at = clock.now();
    await setPasswordHash(transaction, session.userId, passwordHash, at);
    return revokeUserSessions(transaction, session.userId, session.sessionId, at);
  });
  announceRevokedSessions(context.bus, session.userId, revoked);
  return true;
}

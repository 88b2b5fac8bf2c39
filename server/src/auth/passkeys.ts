import {
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { SignedInData } from "@tp/domain/api";
import { serverMessages } from "@tp/domain/messages";
import type {
  AuthenticationResponse,
  PasskeyAuthenticationOptionsData,
  PasskeyRegistrationOptionsData,
  PasskeyRegistrationRequest,
  PasskeySignInRequest,
  PasskeyStepUpRequest,
  PasskeyView,
} from "@tp/domain/passkey-api";
import type { AppContext } from "../app-context.ts";
import type { Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";
import { findUserById, userView } from "../users/users.ts";
import {
  type AuthChallenge,
  consumeAuthChallenge,
  countFailedChallengeAttempt,
  issueAuthChallenge,
  lockAuthChallenge,
} from "./auth-challenges.ts";
import { startSignedInSession } from "./finish-sign-in.ts";
import type { Session } from "./sessions.ts";
import { markSteppedUp, requireFreshStepUp } from "./step-up.ts";
import type { RelyingParty } from "./webauthn-relying-party.ts";

/**
 * Passkeys (WebAuthn, issue 12), table `passkeys` (migration 012). A passkey is registered
 * from a signed-in, freshly stepped-up session; it then signs in on its own (user
 * verification is required, so it is two factors in one: the device and its PIN or
 * biometric), stands in for the code after the password, or steps a session up.
 *
 * Every ceremony is two calls: options (a WebAuthn challenge kept in `auth_challenges`,
 * named by an opaque token the client returns) and verification, which locks the challenge
 * and consumes it in the same transaction as what it grants, so a challenge answers once.
 * A refusal writes nothing but the challenge's failed-attempt count.
 */

/** How long the browser may wait for the authenticator (the challenge lives 5 minutes). */
const ceremony_timeout_ms = 2 * 60 * 1000;
/** Passkeys one account may hold; each is a row the sign-in options list. */
export const passkeys_per_user_max = 20;

const known_transports: readonly AuthenticatorTransportFuture[] = [
  "ble",
  "cable",
  "hybrid",
  "internal",
  "nfc",
  "smart-card",
  "usb",
];

interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: Uint8Array;
  sign_count: number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

type Client = { ip: string; userAgent: string | undefined };

function viewOf(row: Pick<PasskeyRow, "id" | "name" | "created_at" | "last_used_at">) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

/**
 * The WebAuthn user handle of an account: its id in decimal. It names no person (no e-mail,
 * no name), and a discoverable sign-in checks it against the passkey's owner.
 */
function userHandleOf(userId: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(String(userId));
}

function userHandleMatches(userHandle: string | undefined, userId: number): boolean {
  if (userHandle === undefined) return true;
  return Buffer.from(userHandle, "base64url").toString("utf8") === String(userId);
}

function transportsOf(values: readonly string[] | undefined): AuthenticatorTransportFuture[] {
  return (values ?? []).filter((value): value is AuthenticatorTransportFuture =>
    known_transports.includes(value as AuthenticatorTransportFuture),
  );
}

function passkeyInvalid(message: string = serverMessages.passkeyInvalid): AppError {
  return new AppError("PASSKEY_INVALID", message);
}

function challengeInvalid(): AppError {
  return new AppError("AUTH_CHALLENGE_INVALID", serverMessages.authChallengeInvalid);
}

/** Whether the account has a passkey: POST /login lists "passkey" among its methods then. */
export async function userHasPasskey(queryable: Queryable, userId: number): Promise<boolean> {
  const found = await queryable.query("SELECT 1 FROM passkeys WHERE user_id = $1 LIMIT 1", [
    userId,
  ]);
  return found.rowCount > 0;
}

export async function listPasskeys(queryable: Queryable, userId: number): Promise<PasskeyView[]> {
  const found = await queryable.query<PasskeyRow>(
    `SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = $1
     ORDER BY created_at, id`,
    [userId],
  );
  return found.rows.map(viewOf);
}

async function credentialsOf(queryable: Queryable, userId: number) {
  const found = await queryable.query<Pick<PasskeyRow, "credential_id" | "transports">>(
    "SELECT credential_id, transports FROM passkeys WHERE user_id = $1 ORDER BY id",
    [userId],
  );
  return found.rows.map((row) => ({
    id: row.credential_id,
    transports: transportsOf(row.transports),
  }));
}

export async function renamePasskey(
  context: AppContext,
  session: Session,
  passkeyId: number,
  name: string,
): Promise<PasskeyView> {
  const updated = await context.database.query<PasskeyRow>(
    `UPDATE passkeys SET name = $1 WHERE id = $2 AND user_id = $3
     RETURNING id, name, created_at, last_used_at`,
    [name, passkeyId, session.userId],
  );
  const row = updated.rows[0];
  if (!row) throw new AppError("NOT_FOUND", serverMessages.notFound);
  return viewOf(row);
}

/** Removing a key of the account needs a fresh second factor (step-up). */
export async function removePasskey(
  context: AppContext,
  session: Session,
  passkeyId: number,
): Promise<void> {
  const { database, clock } = context;
  await database.transaction(async (transaction) => {
    await requireFreshStepUp(transaction, session, clock.now());
    const deleted = await transaction.query("DELETE FROM passkeys WHERE id = $1 AND user_id = $2", [
      passkeyId,
      session.userId,
    ]);
    if (deleted.rowCount === 0) throw new AppError("NOT_FOUND", serverMessages.notFound);
  });
}

/** Options for `navigator.credentials.create`; adding a key needs a fresh step-up. */
export async function startRegistration(
  context: AppContext,
  session: Session,
  relyingParty: RelyingParty,
  client: Client,
): Promise<PasskeyRegistrationOptionsData> {
  const { database, clock } = context;
  return database.transaction(async (transaction) => {
    const at = clock.now();
    await requireFreshStepUp(transaction, session, at);
    const user = await findUserById(transaction, session.userId);
    if (!user) throw new AppError("UNAUTHENTICATED", serverMessages.notSignedIn);
    const existing = await credentialsOf(transaction, user.id);
    if (existing.length >= passkeys_per_user_max) {
      throw new AppError(
        "VALIDATION_FAILED",
        `An account holds at most ${passkeys_per_user_max} passkeys; remove one first`,
      );
    }
    const options = await generateRegistrationOptions({
      rpName: relyingParty.name,
      rpID: relyingParty.id,
      userID: userHandleOf(user.id),
      userName: user.email,
      userDisplayName: `${user.first_name} ${user.last_name}`.trim() || user.email,
      timeout: ceremony_timeout_ms,
      attestationType: "none",
      // Discoverable, so it can sign in without an e-mail; verified (PIN or biometric), so
      // it is a second factor by itself.
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      excludeCredentials: existing,
    });
    const challengeToken = await issueAuthChallenge(transaction, {
      userId: user.id,
      purpose: "passkey_registration",
      at,
      webauthnChallenge: options.challenge,
      client,
    });
    return { challenge_token: challengeToken, options };
  });
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/**
 * Runs a verification in one transaction. A refusal (`ok: false`) commits only what the
 * step wrote before deciding (the failed-attempt count) and is thrown after the commit.
 */
async function settle<T>(
  context: AppContext,
  work: (transaction: Queryable, at: Date) => Promise<Outcome<T>>,
): Promise<T> {
  const outcome = await context.database.transaction((transaction) =>
    work(transaction, context.clock.now()),
  );
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** Checks the authenticator's answer and stores the passkey. */
export async function finishRegistration(
  context: AppContext,
  session: Session,
  relyingParty: RelyingParty,
  input: PasskeyRegistrationRequest,
): Promise<PasskeyView> {
  return settle(context, async (transaction, at) => {
    await requireFreshStepUp(transaction, session, at);
    const challenge = await lockAuthChallenge(
      transaction,
      input.challenge_token,
      ["passkey_registration"],
      at,
    );
    if (!challenge || challenge.userId !== session.userId || !challenge.webauthnChallenge) {
      return { ok: false, error: challengeInvalid() };
    }
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: {
          ...input.response,
          response: {
            ...input.response.response,
            transports: transportsOf(input.response.response.transports),
          },
        },
        expectedChallenge: challenge.webauthnChallenge,
        expectedOrigin: relyingParty.origins,
        expectedRPID: relyingParty.id,
        requireUserVerification: true,
      });
    } catch {
      // The library throws on anything malformed or mismatched (origin, challenge, RP ID,
      // CBOR): all of it is the client's answer not verifying, never our failure.
      verified = { verified: false };
    }
    if (!verified.verified || !verified.registrationInfo) {
      await countFailedChallengeAttempt(transaction, challenge.id);
      return { ok: false, error: passkeyInvalid() };
    }
    const { credential } = verified.registrationInfo;
    const inserted = await transaction.query<PasskeyRow>(
      `INSERT INTO passkeys
         (user_id, credential_id, public_key, sign_count, transports, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING id, name, created_at, last_used_at`,
      [
        session.userId,
        credential.id,
        Buffer.from(credential.publicKey),
        credential.counter,
        transportsOf(input.response.response.transports),
        input.name,
        at,
      ],
    );
    const row = inserted.rows[0];
    if (!row) {
      return { ok: false, error: passkeyInvalid(serverMessages.passkeyAlreadyRegistered) };
    }
    await consumeAuthChallenge(transaction, challenge.id, at);
    return { ok: true, value: viewOf(row) };
  });
}

/**
 * Options for `navigator.credentials.get`. Without a sign-in token: any passkey of this
 * platform (discoverable, the browser lets the person choose). With the token of a sign-in
 * that passed its password: only that account's passkeys.
 */
export async function startSignIn(
  context: AppContext,
  relyingParty: RelyingParty,
  signInToken: string | undefined,
  client: Client,
): Promise<PasskeyAuthenticationOptionsData> {
  return settle(context, async (transaction, at) => {
    let userId: number | null = null;
    if (signInToken !== undefined) {
      const pending = await lockAuthChallenge(transaction, signInToken, ["second_factor"], at);
      if (!pending?.userId) return { ok: false, error: challengeInvalid() };
      userId = pending.userId;
    }
    const value = await issueAssertionOptions(
      transaction,
      relyingParty,
      userId,
      "passkey_sign_in",
      at,
      client,
    );
    if (!value) return { ok: false, error: passkeyInvalid(serverMessages.passkeyNoneRegistered) };
    return { ok: true, value };
  });
}

async function issueAssertionOptions(
  transaction: Queryable,
  relyingParty: RelyingParty,
  userId: number | null,
  purpose: "passkey_sign_in" | "step_up_passkey",
  at: Date,
  client: Client,
): Promise<PasskeyAuthenticationOptionsData | null> {
  const allowCredentials = userId === null ? undefined : await credentialsOf(transaction, userId);
  if (allowCredentials?.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    timeout: ceremony_timeout_ms,
    userVerification: "required",
    ...(allowCredentials ? { allowCredentials } : {}),
  });
  const challengeToken = await issueAuthChallenge(transaction, {
    userId,
    purpose,
    at,
    webauthnChallenge: options.challenge,
    client,
  });
  return { challenge_token: challengeToken, options };
}

/**
 * Verifies an assertion against a locked challenge: the passkey must exist, belong to the
 * challenge's user (when it names one) and to the user handle the authenticator returned,
 * and its signature, origin, RP ID, user verification and counter must check out. On
 * success the counter and last use are written and the challenge consumed; on refusal only
 * the failed attempt is counted.
 */
async function verifyAssertion(
  transaction: Queryable,
  relyingParty: RelyingParty,
  challenge: AuthChallenge,
  response: AuthenticationResponse,
  at: Date,
): Promise<Outcome<{ userId: number }>> {
  const refuse = async (): Promise<Outcome<{ userId: number }>> => {
    await countFailedChallengeAttempt(transaction, challenge.id);
    return { ok: false, error: passkeyInvalid() };
  };
  if (!challenge.webauthnChallenge) return { ok: false, error: challengeInvalid() };
  const found = await transaction.query<PasskeyRow>(
    `SELECT id, user_id, credential_id, public_key, sign_count, transports FROM passkeys
     WHERE credential_id = $1 FOR UPDATE`,
    [response.id],
  );
  const passkey = found.rows[0];
  if (!passkey) return refuse();
  if (challenge.userId !== null && passkey.user_id !== challenge.userId) return refuse();
  if (!userHandleMatches(response.response.userHandle, passkey.user_id)) return refuse();
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: relyingParty.origins,
      expectedRPID: relyingParty.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.sign_count),
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    // Malformed data, a foreign origin, a counter that went backwards (a cloned key): the
    // answer does not verify. The library throws for all of them.
    return refuse();
  }
  if (!verified.verified) return refuse();
  await transaction.query("UPDATE passkeys SET sign_count = $1, last_used_at = $2 WHERE id = $3", [
    verified.authenticationInfo.newCounter,
    at,
    passkey.id,
  ]);
  await consumeAuthChallenge(transaction, challenge.id, at);
  return { ok: true, value: { userId: passkey.user_id } };
}

/**
 * Signs in with a passkey: the same reply as POST /login's signed-in one. With a
 * `sign_in_token` the passkey is the second factor of that pending sign-in, which it must
 * belong to and which it completes (consumes).
 */
export async function finishPasskeySignIn(
  context: AppContext,
  relyingParty: RelyingParty,
  input: PasskeySignInRequest,
  client: Client,
): Promise<SignedInData> {
  let newDevice = false;
  const signedIn = await settle(context, async (transaction, at) => {
    const challenge = await lockAuthChallenge(
      transaction,
      input.challenge_token,
      ["passkey_sign_in"],
      at,
    );
    if (!challenge) return { ok: false, error: challengeInvalid() };
    let pending: AuthChallenge | null = null;
    if (input.sign_in_token !== undefined) {
      pending = await lockAuthChallenge(transaction, input.sign_in_token, ["second_factor"], at);
      if (!pending?.userId) return { ok: false, error: challengeInvalid() };
      if (challenge.userId !== null && challenge.userId !== pending.userId) {
        return { ok: false, error: challengeInvalid() };
      }
    }
    const outcome = await verifyAssertion(
      transaction,
      relyingParty,
      { ...challenge, userId: challenge.userId ?? pending?.userId ?? null },
      input.response,
      at,
    );
    if (!outcome.ok) return outcome;
    if (pending) await consumeAuthChallenge(transaction, pending.id, at);
    const { userId } = outcome.value;
    const user = await userView(transaction, userId);
    if (!user) throw new Error(`passkey ${input.response.id} belongs to no user`);
    const session = await startSignedInSession(context, transaction, user, client, at);
    newDevice = session.newDevice;
    return { ok: true, value: { user, token: session.token } };
  });
  if (newDevice) context.outbox.kick();
  return signedIn;
}

/** Options for stepping this session up with one of the account's passkeys. */
export async function startStepUp(
  context: AppContext,
  session: Session,
  relyingParty: RelyingParty,
  client: Client,
): Promise<PasskeyAuthenticationOptionsData> {
  return settle(context, async (transaction, at) => {
    const value = await issueAssertionOptions(
      transaction,
      relyingParty,
      session.userId,
      "step_up_passkey",
      at,
      client,
    );
    if (!value) return { ok: false, error: passkeyInvalid(serverMessages.passkeyNoneRegistered) };
    return { ok: true, value };
  });
}

/** A fresh second factor on this session: money may leave, keys may change (step-up). */
export async function finishStepUp(
  context: AppContext,
  session: Session,
  relyingParty: RelyingParty,
  input: PasskeyStepUpRequest,
): Promise<void> {
  await settle(context, async (transaction, at) => {
    const challenge = await lockAuthChallenge(
      transaction,
      input.challenge_token,
      ["step_up_passkey"],
      at,
    );
    if (!challenge || challenge.userId !== session.userId) {
      return { ok: false, error: challengeInvalid() };
    }
    const outcome = await verifyAssertion(transaction, relyingParty, challenge, input.response, at);
    if (!outcome.ok) return outcome;
    await markSteppedUp(transaction, session.sessionId, at);
    return { ok: true, value: undefined };
  });
}

import type { Queryable } from "../db/database.ts";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-token.ts";

/**
 * One step of an authentication ceremony (table `auth_challenges`, migration 012): a
 * sign-in that passed the password and waits for its second factor, a staff member's
 * enrolment, a WebAuthn challenge. The client holds an opaque token; only its hash is
 * stored. A challenge is single use, short-lived, and dies after a few wrong answers.
 */
export type AuthChallengePurpose =
  | "second_factor"
  | "enrolment"
  | "passkey_sign_in"
  | "passkey_registration"
  | "step_up_passkey";

/** Long enough to open an authenticator app or touch a security key, short enough to expire. */
export const auth_challenge_ttl_ms = 5 * 60 * 1000;
/** Wrong codes against one challenge before it is dead (the password must be given again). */
export const auth_challenge_attempts_max = 5;
/** Longest token we look up; anything longer is not ours. */
const challenge_token_length_max = 128;

export interface AuthChallenge {
  id: number;
  userId: number | null;
  purpose: AuthChallengePurpose;
  webauthnChallenge: string | null;
  ip: string | null;
  userAgent: string | null;
}

export async function issueAuthChallenge(
  queryable: Queryable,
  input: {
    userId: number | null;
    purpose: AuthChallengePurpose;
    at: Date;
    webauthnChallenge?: string;
    client?: { ip: string; userAgent: string | undefined };
    ttlMs?: number;
  },
): Promise<string> {
  const { token, hash } = newOpaqueToken();
  await queryable.query(
    `INSERT INTO auth_challenges
       (token_hash, user_id, purpose, webauthn_challenge, ip, user_agent, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      hash,
      input.userId,
      input.purpose,
      input.webauthnChallenge ?? null,
      input.client?.ip ?? null,
      input.client?.userAgent?.slice(0, 300) ?? null,
      input.at,
      new Date(input.at.getTime() + (input.ttlMs ?? auth_challenge_ttl_ms)),
    ],
  );
  return token;
}

/**
 * Locks the live challenge a token stands for (unused, unexpired, under the attempt limit,
 * of one of `purposes`), in the caller's transaction, or returns null. The caller then
 * either consumes it or counts a failed attempt, in the same transaction.
 */
export async function lockAuthChallenge(
  transaction: Queryable,
  token: string,
  purposes: readonly AuthChallengePurpose[],
  now: Date,
): Promise<AuthChallenge | null> {
  if (token.length === 0 || token.length > challenge_token_length_max) return null;
  const found = await transaction.query<{
    id: number;
    user_id: number | null;
    purpose: AuthChallengePurpose;
    webauthn_challenge: string | null;
    ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT id, user_id, purpose, webauthn_challenge, ip, user_agent FROM auth_challenges
     WHERE token_hash = $1 AND purpose = ANY($2::text[]) AND consumed_at IS NULL
       AND expires_at > $3 AND failed_attempts < $4
     FOR UPDATE`,
    [hashOpaqueToken(token), [...purposes], now, auth_challenge_attempts_max],
  );
  const row = found.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    purpose: row.purpose,
    webauthnChallenge: row.webauthn_challenge,
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

export async function consumeAuthChallenge(
  transaction: Queryable,
  challengeId: number,
  at: Date,
): Promise<void> {
  await transaction.query("UPDATE auth_challenges SET consumed_at = $1 WHERE id = $2", [
    at,
    challengeId,
  ]);
}

/** A wrong answer: after `auth_challenge_attempts_max` of them the challenge is dead. */
export async function countFailedChallengeAttempt(
  queryable: Queryable,
  challengeId: number,
): Promise<void> {
  await queryable.query(
    "UPDATE auth_challenges SET failed_attempts = failed_attempts + 1 WHERE id = $1",
    [challengeId],
  );
}

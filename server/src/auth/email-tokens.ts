import type { Queryable } from "../db/database.ts";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-token.ts";

export type EmailTokenPurpose = "verify_email" | "reset_password";

/** How long an e-mailed link works. */
export const email_token_ttl_ms: Record<EmailTokenPurpose, number> = {
  verify_email: 48 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

/**
 * Issues a single-use token for an e-mailed link. A new reset link voids the earlier ones
 * (only the newest mail works); earlier verification links stay valid until they expire.
 */
export async function issueEmailToken(
  transaction: Queryable,
  userId: number,
  purpose: EmailTokenPurpose,
  at: Date,
): Promise<string> {
  if (purpose === "reset_password") {
    await transaction.query(
      `UPDATE email_tokens SET used_at = $1
       WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL`,
      [at, userId, purpose],
    );
  }
  const { token, hash } = newOpaqueToken();
  await transaction.query(
    `INSERT INTO email_tokens (user_id, purpose, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [userId, purpose, hash, at, new Date(at.getTime() + email_token_ttl_ms[purpose])],
  );
  return token;
}

/**
 * Uses up a token if it is live and belongs to the account with this e-mail; returns the
 * user id, or null. The UPDATE ... WHERE used_at IS NULL makes the use single even when two
 * requests race with the same link.
 */
export async function consumeEmailToken(
  transaction: Queryable,
  email: string,
  token: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<number | null> {
  const result = await transaction.query<{ user_id: number }>(
    `UPDATE email_tokens t SET used_at = $1
     FROM users u
     WHERE t.user_id = u.id AND u.email = $2 AND t.token_hash = $3 AND t.purpose = $4
       AND t.used_at IS NULL AND t.expires_at > $1
     RETURNING t.user_id`,
    [now, email, hashOpaqueToken(token), purpose],
  );
  return result.rows[0]?.user_id ?? null;
}

import type { Queryable } from "../db/database.ts";
import { revokeUserSessions } from "./sessions.ts";

/**
 * What the auth module erases when an account is closed (issue 14 item 7; the
 * account-closure module calls it in its closing transaction): every way in (sessions
 * revoked, 2FA secret, recovery codes, passkeys, e-mail tokens, ceremonies) and the network
 * traces (IP addresses, user agents, device keys) of its sessions and sign-ins. The times of
 * the sessions and sign-ins stay: they name no one once the account is pseudonymised.
 * Returns the revoked sessions, to announce after the commit.
 */
export async function eraseSignInData(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<number[]> {
  const revoked = await revokeUserSessions(transaction, userId, null, at);
  await transaction.query("DELETE FROM totp_secrets WHERE user_id = $1", [userId]);
  await transaction.query("DELETE FROM recovery_codes WHERE user_id = $1", [userId]);
  await transaction.query("DELETE FROM passkeys WHERE user_id = $1", [userId]);
  await transaction.query("DELETE FROM email_tokens WHERE user_id = $1", [userId]);
  await transaction.query("DELETE FROM auth_challenges WHERE user_id = $1", [userId]);
  await transaction.query(
    "UPDATE sessions SET ip = NULL, user_agent = NULL, token_hash = 'closed:' || id::text WHERE user_id = $1",
    [userId],
  );
  // ip and device_key are NOT NULL: empty says "erased", as the browser label alone names no one.
  await transaction.query(
    "UPDATE sign_in_attempts SET ip = '', user_agent = NULL, device_key = '' WHERE user_id = $1",
    [userId],
  );
  return revoked;
}

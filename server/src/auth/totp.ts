import { randomInt } from "node:crypto";
import { recovery_codes_count } from "@tp/domain/two-factor";
import { Secret, TOTP } from "otpauth";
import type { Queryable } from "../db/database.ts";
import { hashOpaqueToken } from "./opaque-token.ts";

/**
 * TOTP (RFC 6238) secrets and recovery codes (tables `totp_secrets`, `recovery_codes`,
 * migration 012): the auth module's store for the second factor. A code is accepted once:
 * the step it belongs to must be later than the last accepted one (RFC 6238 §5.2), and one
 * step either side of now is allowed for clock drift.
 */

/** RFC 6238's defaults, which every authenticator app reads from the otpauth:// URI. */
const totp_period_seconds = 30;
const totp_digits = 6;
/** Steps either side of now a code may come from (a phone's clock a little off). */
const totp_drift_steps = 1;
/** 160 bits, as RFC 4226 recommends for HMAC-SHA1. */
const totp_secret_bytes = 20;

/** Unambiguous letters and digits (no 0/o, 1/l/i): codes are read off paper. */
const recovery_alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
/** 10 characters of a 31-letter alphabet: about 50 bits, beyond guessing within the limits. */
const recovery_code_length = 10;

function totpOf(secretBase32: string, label = "", issuer = ""): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: totp_digits,
    period: totp_period_seconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: totp_secret_bytes }).base32;
}

/** The URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, issuer: string, accountName: string): string {
  return totpOf(secretBase32, accountName, issuer).toString();
}

export interface TotpSecretRow {
  secret_base32: string;
  confirmed_at: Date | null;
  last_used_step: number;
}

export async function findTotpSecret(
  queryable: Queryable,
  userId: number,
  options: { forUpdate?: boolean } = {},
): Promise<TotpSecretRow | null> {
  const found = await queryable.query<TotpSecretRow>(
    `SELECT secret_base32, confirmed_at, last_used_step FROM totp_secrets WHERE user_id = $1
     ${options.forUpdate ? "FOR UPDATE" : ""}`,
    [userId],
  );
  const row = found.rows[0];
  return row ? { ...row, last_used_step: Number(row.last_used_step) } : null;
}

export async function hasConfirmedTotp(queryable: Queryable, userId: number): Promise<boolean> {
  const found = await queryable.query(
    "SELECT 1 FROM totp_secrets WHERE user_id = $1 AND confirmed_at IS NOT NULL",
    [userId],
  );
  return found.rowCount > 0;
}

/**
 * A fresh, unconfirmed secret for the user (enrolment starts again from scratch). Never
 * called while a confirmed one exists: disabling comes first.
 */
export async function storeUnconfirmedTotpSecret(
  queryable: Queryable,
  userId: number,
  at: Date,
): Promise<string> {
  const secret = newTotpSecret();
  await queryable.query(
    `INSERT INTO totp_secrets (user_id, secret_base32, confirmed_at, last_used_step, created_at)
     VALUES ($1, $2, NULL, 0, $3)
     ON CONFLICT (user_id) DO UPDATE
       SET secret_base32 = EXCLUDED.secret_base32, confirmed_at = NULL, last_used_step = 0,
           created_at = EXCLUDED.created_at
       WHERE totp_secrets.confirmed_at IS NULL`,
    [userId, secret, at],
  );
  return secret;
}

/** Whether `input` looks like a TOTP code (digits) rather than a recovery code. */
function looksLikeTotp(input: string): boolean {
  return /^\d{6}$/.test(input.replace(/\s/g, ""));
}

/**
 * Checks a TOTP code against the user's secret (locked by the caller's transaction) and, if
 * it is good and of a step not used before, records its step so it cannot be used again.
 */
export async function acceptTotpCode(
  transaction: Queryable,
  userId: number,
  secret: TotpSecretRow,
  input: string,
  now: Date,
): Promise<boolean> {
  const token = input.replace(/\s/g, "");
  if (!looksLikeTotp(token)) return false;
  const totp = totpOf(secret.secret_base32);
  const delta = totp.validate({ token, timestamp: now.getTime(), window: totp_drift_steps });
  if (delta === null) return false;
  const step = totp.counter({ timestamp: now.getTime() }) + delta;
  if (step <= secret.last_used_step) return false;
  const updated = await transaction.query(
    "UPDATE totp_secrets SET last_used_step = $2 WHERE user_id = $1 AND last_used_step < $2",
    [userId, step],
  );
  return updated.rowCount === 1;
}

export async function confirmTotpSecret(transaction: Queryable, userId: number, at: Date) {
  await transaction.query("UPDATE totp_secrets SET confirmed_at = $2 WHERE user_id = $1", [
    userId,
    at,
  ]);
}

/** Turns 2FA off: the secret and every recovery code go. */
export async function deleteTotp(transaction: Queryable, userId: number) {
  await transaction.query("DELETE FROM recovery_codes WHERE user_id = $1", [userId]);
  await transaction.query("DELETE FROM totp_secrets WHERE user_id = $1", [userId]);
}

/** Recovery codes are compared without case, spaces or dashes (they are typed off paper). */
function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, "");
}

/**
 * Codes are random with ~50 bits each, so a fast hash (SHA-256, as for our opaque tokens) is
 * enough: unlike a password, there is nothing to guess from a leaked hash in reasonable time.
 */
function hashRecoveryCode(input: string): string {
  return hashOpaqueToken(`recovery:${normaliseRecoveryCode(input)}`);
}

function newRecoveryCode(): string {
  let code = "";
  for (let index = 0; index < recovery_code_length; index++) {
    code += recovery_alphabet[randomInt(recovery_alphabet.length)];
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Replaces the user's recovery codes with ten new ones; returns them (shown once). */
export async function replaceRecoveryCodes(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<string[]> {
  await transaction.query("DELETE FROM recovery_codes WHERE user_id = $1", [userId]);
  const codes = Array.from({ length: recovery_codes_count }, newRecoveryCode);
  for (const code of codes) {
    await transaction.query(
      "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES ($1, $2, $3)",
      [userId, hashRecoveryCode(code), at],
    );
  }
  return codes;
}

/** Uses an unused recovery code of the user; false if it is unknown or already used. */
export async function useRecoveryCode(
  transaction: Queryable,
  userId: number,
  input: string,
  at: Date,
): Promise<boolean> {
  const normalised = normaliseRecoveryCode(input);
  if (normalised.length !== recovery_code_length) return false;
  const used = await transaction.query(
    `UPDATE recovery_codes SET used_at = $3
     WHERE id = (SELECT id FROM recovery_codes
                 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1)`,
    [userId, hashRecoveryCode(input), at],
  );
  return used.rowCount === 1;
}

export async function countUnusedRecoveryCodes(
  queryable: Queryable,
  userId: number,
): Promise<number> {
  const found = await queryable.query<{ total: number }>(
    "SELECT COUNT(*)::int AS total FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL",
    [userId],
  );
  return Number(found.rows[0]?.total ?? 0);
}

/**
 * A second factor for a user with confirmed 2FA: a TOTP code or a recovery code. The
 * secret row is locked first, so two requests with one code cannot both pass.
 */
export async function acceptSecondFactorCode(
  transaction: Queryable,
  userId: number,
  input: string,
  now: Date,
): Promise<boolean> {
  const secret = await findTotpSecret(transaction, userId, { forUpdate: true });
  if (!secret?.confirmed_at) return false;
  if (looksLikeTotp(input)) return acceptTotpCode(transaction, userId, secret, input, now);
  return useRecoveryCode(transaction, userId, input, now);
}

/**
 * How many members of staff there are and how many have a second factor (a confirmed
 * authenticator app or a passkey): the setup checklist's "staff 2FA" item.
 */
export async function staffSecondFactorCounts(
  queryable: Queryable,
): Promise<{ staff: number; enrolled: number }> {
  const found = await queryable.query<{ staff: string; enrolled: string }>(
    `SELECT count(*) AS staff,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM totp_secrets t WHERE t.user_id = u.id AND t.confirmed_at IS NOT NULL
            ) OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id)) AS enrolled
       FROM users u
      WHERE u.role <> 'trader'`,
  );
  const row = found.rows[0];
  return { staff: Number(row?.staff ?? 0), enrolled: Number(row?.enrolled ?? 0) };
}

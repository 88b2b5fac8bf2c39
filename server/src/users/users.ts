import { randomInt } from "node:crypto";
import type { Role, StaffRole, UserView } from "@tp/domain/api";
import { dollarsFromCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";
import {
  openTraderAccounts,
  postEntry,
  systemAccountId,
  traderBalances,
} from "../ledger/ledger.ts";

/**
 * The users module owns the `users` table: creating traders (with their ledger accounts),
 * reading them for the API, and changing their personal data.
 */

export interface UserRow {
  id: number;
  email: string;
  username: string;
  password_hash: string;
  role: Role;
  first_name: string;
  last_name: string;
  phone_number: string;
  country: string;
  plan: string;
  referral_code: string;
  email_verified_at: Date | null;
  kyc_verified_at: Date | null;
  /** When the account was closed (issue 14 item 7): no sign-in, no e-mail from then on. */
  closed_at: Date | null;
}

export async function findUserByEmail(
  queryable: Queryable,
  email: string,
): Promise<UserRow | null> {
  const result = await queryable.query<UserRow>("SELECT * FROM users WHERE email = $1", [email]);
  return result.rows[0] ?? null;
}

export async function findUserById(queryable: Queryable, id: number): Promise<UserRow | null> {
  const result = await queryable.query<UserRow>("SELECT * FROM users WHERE id = $1", [id]);
  return result.rows[0] ?? null;
}

export interface NewTrader {
  email: string;
  passwordHash: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  country: string;
  referral_code: string | null;
}

const username_attempts_max = 8;
/** No 0/O or 1/I/L, so a code read aloud or copied by hand survives. */
const referral_alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

function newReferralCode(): string {
  let code = "";
  for (let index = 0; index < 8; index++)
    code += referral_alphabet[randomInt(referral_alphabet.length)];
  return code;
}

function newUsername(firstName: string): string {
  const base =
    firstName
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z]/g, "")
      .slice(0, 16) || "trader";
  return `${base}${randomInt(10_000, 1_000_000)}`;
}

/**
 * Creates a trader with a real account at 0.00 and a practice account funded with
 * `practiceBalanceCents` by a ledger entry. Returns null when the e-mail is already taken
 * (also when a concurrent sign-up took it first: ON CONFLICT waits for that commit).
 */
export async function createTrader(
  transaction: Queryable,
  trader: NewTrader,
  practiceBalanceCents: number,
  at: Date,
): Promise<UserRow | null> {
  const user = await insertUser(transaction, { ...trader, role: "trader" }, at);
  if (!user) return null;
  const accounts = await openTraderAccounts(transaction, user.id);
  if (practiceBalanceCents > 0) {
    await postEntry(transaction, {
      kind: "practice_topup",
      reference: `user:${user.id}:registration`,
      at,
      postings: [
        {
          accountId: await systemAccountId(transaction, "house:practice"),
          amountCents: -practiceBalanceCents,
        },
        { accountId: accounts.practice, amountCents: practiceBalanceCents },
      ],
    });
  }
  return user;
}

/**
 * Creates a staff account (issue 12 item 8: staff are not traders): no ledger accounts, so
 * it holds no real or practice balance and nothing can be credited to it. Returns null when
 * the e-mail is taken.
 */
export async function createStaffUser(
  transaction: Queryable,
  staff: Omit<NewTrader, "role" | "referral_code"> & { role: StaffRole },
  at: Date,
): Promise<UserRow | null> {
  return insertUser(transaction, { ...staff, referral_code: null }, at);
}

/** One users row; null when the e-mail is taken (a generated username or code is retried). */
async function insertUser(
  transaction: Queryable,
  user: NewTrader & { role: Role },
  at: Date,
): Promise<UserRow | null> {
  const referrer = user.referral_code
    ? await transaction.query<{ id: number }>("SELECT id FROM users WHERE referral_code = $1", [
        user.referral_code.toUpperCase(),
      ])
    : null;
  const referredBy = referrer?.rows[0]?.id ?? null;

  for (let attempt = 0; attempt < username_attempts_max; attempt++) {
    const inserted = await transaction.query<UserRow>(
      `INSERT INTO users (email, username, password_hash, role, first_name, last_name, phone_number,
                          country, referral_code, referred_by_user_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        user.email,
        newUsername(user.first_name),
        user.passwordHash,
        user.role,
        user.first_name,
        user.last_name,
        user.phone_number,
        user.country,
        newReferralCode(),
        referredBy,
        at,
      ],
    );
    const row = inserted.rows[0];
    if (row) return row;
    // The conflict was the e-mail (taken) or, rarely, a generated username or code: retry those.
    if (await findUserByEmail(transaction, user.email)) return null;
  }
  throw new Error("could not generate a unique username and referral code");
}

/** GET /user's `user`: the row plus both balances from the ledger, dollars on the wire. */
export async function userView(queryable: Queryable, userId: number): Promise<UserView | null> {
  const user = await findUserById(queryable, userId);
  if (!user) return null;
  const balances = await traderBalances(queryable, userId);
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    email_verified_at: user.email_verified_at?.toISOString() ?? null,
    role: user.role,
    account: {
      first_name: user.first_name,
      last_name: user.last_name,
      phone_number: user.phone_number,
      country: user.country,
      account_balance: dollarsFromCents(balances.real_cents),
      practice_balance: dollarsFromCents(balances.practice_cents),
      kyc_verified_at: user.kyc_verified_at?.toISOString() ?? null,
      plan: user.plan,
    },
  };
}

export async function updatePersonalData(
  queryable: Queryable,
  userId: number,
  data: { first_name: string; last_name: string; phone_number: string },
  at: Date,
): Promise<void> {
  await queryable.query(
    `UPDATE users SET first_name = $1, last_name = $2, phone_number = $3, updated_at = $4 WHERE id = $5`,
    [data.first_name, data.last_name, data.phone_number, at, userId],
  );
}

export async function setPasswordHash(
  queryable: Queryable,
  userId: number,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await queryable.query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3", [
    passwordHash,
    at,
    userId,
  ]);
}

/** Marks the e-mail verified (first time only); returns whether it changed anything. */
export async function markEmailVerified(
  queryable: Queryable,
  userId: number,
  at: Date,
): Promise<boolean> {
  const result = await queryable.query(
    "UPDATE users SET email_verified_at = $1, updated_at = $1 WHERE id = $2 AND email_verified_at IS NULL",
    [at, userId],
  );
  return result.rowCount === 1;
}

/**
 * Locks the trader's row (NO KEY: the trader's trades may still reference it) and returns
 * when their identity was verified, or null when there is no such user: identity uploads
 * and approvals of one trader take their turns on it.
 */
export async function lockUserIdentity(
  transaction: Queryable,
  userId: number,
): Promise<{ kyc_verified_at: Date | null } | null> {
  const result = await transaction.query<{ kyc_verified_at: Date | null }>(
    "SELECT kyc_verified_at FROM users WHERE id = $1 FOR NO KEY UPDATE",
    [userId],
  );
  return result.rows[0] ?? null;
}

/** Stamps the identity verified (Account Status "Active"); the first stamp is kept. */
export async function markIdentityVerified(
  queryable: Queryable,
  userId: number,
  at: Date,
): Promise<void> {
  await queryable.query(
    `UPDATE users SET kyc_verified_at = COALESCE(kyc_verified_at, $2), updated_at = $2
     WHERE id = $1`,
    [userId, at],
  );
}

/** Whether any admin exists (the first admin is made on a start that finds none). */
export async function anyAdminExists(queryable: Queryable): Promise<boolean> {
  const result = await queryable.query("SELECT 1 FROM users WHERE role = 'admin' LIMIT 1");
  return result.rowCount > 0;
}

export interface ReferredTraderRow {
  id: number;
  first_name: string;
  last_name: string;
  created_at: Date;
}

/**
 * The traders who signed up with `userId`'s referral code, newest first (at most `limit`),
 * and how many there are in all.
 */
export async function referredTraders(
  queryable: Queryable,
  userId: number,
  limit: number,
): Promise<{ rows: ReferredTraderRow[]; total: number }> {
  const total = await queryable.query<{ total: number }>(
    "SELECT COUNT(*)::bigint AS total FROM users WHERE referred_by_user_id = $1",
    [userId],
  );
  const rows = await queryable.query<ReferredTraderRow>(
    // A closed account's name is kept for record keeping only, never shown to other traders.
    `SELECT id, CASE WHEN closed_at IS NULL THEN first_name ELSE 'Closed account' END AS first_name,
            CASE WHEN closed_at IS NULL THEN last_name ELSE '' END AS last_name, created_at
     FROM users WHERE referred_by_user_id = $1
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
  return { rows: rows.rows, total: total.rows[0]!.total };
}

/** Every trader's id (staff excluded), for a broadcast to all. */
export async function allTraderIds(queryable: Queryable): Promise<number[]> {
  const result = await queryable.query<{ id: number }>(
    "SELECT id FROM users WHERE role = 'trader' ORDER BY id",
  );
  return result.rows.map((row) => row.id);
}

/**
 * Closes the account (issue 14 item 7; the account-closure module decides when): stamps it
 * closed, erases the password hash (an empty hash verifies no password) and pseudonymises
 * what record keeping does not need (username, phone). Name, country and e-mail stay: they
 * are the identity AML record keeping requires until `eraseClosedIdentity`.
 */
export async function closeUserAccount(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<void> {
  await transaction.query(
    `UPDATE users SET closed_at = $2, password_hash = '', phone_number = '',
       username = 'closed-' || id::text, updated_at = $2
     WHERE id = $1 AND closed_at IS NULL`,
    [userId, at],
  );
}

/**
 * After the retention time: the identity kept for record keeping goes too. The row stays
 * (trades, ledger accounts and funding rows point at it) but names no one; the address
 * becomes one that can never receive mail (.invalid, RFC 2606) and is free for a new sign-up.
 */
export async function eraseClosedIdentity(
  transaction: Queryable,
  userId: number,
  at: Date,
): Promise<void> {
  await transaction.query(
    `UPDATE users SET email = 'erased-' || id::text || '@erased.invalid', first_name = '',
       last_name = '', country = '', updated_at = $2
     WHERE id = $1 AND closed_at IS NOT NULL`,
    [userId, at],
  );
}

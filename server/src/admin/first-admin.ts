import { randomInt } from "node:crypto";
import type { StaffRole } from "@tp/domain/api";
import type { FastifyBaseLogger } from "fastify";
import { type AuditActor, recordAudit } from "../audit/audit-log.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Database, Queryable } from "../db/database.ts";
import {
  anyAdminExists,
  createStaffUser,
  findUserByEmail,
  markEmailVerified,
  type UserRow,
} from "../users/users.ts";

/**
 * Staff accounts (PRODUCT.md D7). The first admin is made on a start that finds none: from
 * ADMIN_EMAIL and ADMIN_PASSWORD, or, without a password, with a one-time password that is
 * printed once and never stored anywhere but as its hash. `npm run admin -- create <email>
 * [--role support|reviewer|admin]` adds more (server/src/cli/admin.ts). Staff accounts hold
 * no ledger accounts: staff are not traders (issue 12 item 8).
 */

/** The address of the first admin when ADMIN_EMAIL is not set. */
export const default_admin_email = "admin@example.com";

/** Two starting processes on one PostgreSQL must not both create the first admin. */
const FIRST_ADMIN_LOCK_KEY = 727_005;

const password_alphabet = {
  lower: "abcdefghijkmnpqrstuvwxyz",
  upper: "ABCDEFGHJKLMNPQRSTUVWXYZ",
  digits: "23456789",
};

/** 20 letters and digits with at least one of each class (so it meets the password rule). */
export function generateOneTimePassword(): string {
  const all = password_alphabet.lower + password_alphabet.upper + password_alphabet.digits;
  const pick = (from: string) => from[randomInt(from.length)]!;
  const characters = [
    pick(password_alphabet.lower),
    pick(password_alphabet.upper),
    pick(password_alphabet.digits),
  ];
  while (characters.length < 20) characters.push(pick(all));
  // Fisher–Yates, so the guaranteed classes are not always in front.
  for (let index = characters.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other]!, characters[index]!];
  }
  return characters.join("");
}

export type CreateAdminResult =
  | { kind: "created"; user: UserRow }
  | { kind: "exists"; role: UserRow["role"] };

/** Creates a staff account with its role (no ledger accounts, e-mail counted as verified). */
export async function createStaff(
  transaction: Queryable,
  email: string,
  passwordHash: string,
  role: StaffRole,
  actor: AuditActor,
  at: Date,
): Promise<CreateAdminResult> {
  const existing = await findUserByEmail(transaction, email);
  if (existing) return { kind: "exists", role: existing.role };
  const user = await createStaffUser(
    transaction,
    {
      email,
      passwordHash,
      first_name: role === "admin" ? "Admin" : "Staff",
      last_name: "",
      phone_number: "",
      country: "",
      role,
    },
    at,
  );
  if (!user) {
    const raced = await findUserByEmail(transaction, email);
    return { kind: "exists", role: raced?.role ?? "trader" };
  }
  await markEmailVerified(transaction, user.id, at);
  await recordAudit(transaction, {
    actor,
    action: role === "admin" ? "admin.created" : "staff.created",
    targetType: "user",
    targetId: user.id,
    before: null,
    after: { id: user.id, email: user.email, role },
    at,
  });
  return { kind: "created", user };
}

/** Creates an admin account: `createStaff` with the admin role. */
export function createAdmin(
  transaction: Queryable,
  email: string,
  passwordHash: string,
  actor: AuditActor,
  at: Date,
): Promise<CreateAdminResult> {
  return createStaff(transaction, email, passwordHash, "admin", actor, at);
}

/**
 * On start: when no admin exists, creates the first one. Returns what it did, for the log;
 * the one-time password is logged once, at warn level, and nowhere else.
 */
export async function ensureFirstAdmin(
  options: {
    database: Database;
    config: Pick<Config, "ADMIN_EMAIL" | "ADMIN_PASSWORD">;
    clock: Clock;
  },
  log: FastifyBaseLogger,
): Promise<"exists" | "created" | "skipped"> {
  const { database, config, clock } = options;
  if (await anyAdminExists(database)) return "exists";

  const email = config.ADMIN_EMAIL ?? default_admin_email;
  const oneTimePassword = config.ADMIN_PASSWORD ? null : generateOneTimePassword();
  const passwordHash = await hashPassword(config.ADMIN_PASSWORD ?? oneTimePassword!);
  const outcome = await database.transaction(async (transaction) => {
    if (database.kind === "postgres") {
      await transaction.query("SELECT pg_advisory_xact_lock($1)", [FIRST_ADMIN_LOCK_KEY]);
    }
    if (await anyAdminExists(transaction)) return "exists" as const;
    const result = await createAdmin(
      transaction,
      email,
      passwordHash,
      { userId: null, label: "bootstrap", ip: null },
      clock.now(),
    );
    return result.kind === "created" ? ("created" as const) : ("taken" as const);
  });

  if (outcome === "taken") {
    // A trader already holds that address: never turn a trader into staff silently.
    log.error(
      { email },
      `No admin exists and ${email} belongs to a trader account, so no first admin was created. Set ADMIN_EMAIL to another address, or run: npm run admin -- create <email>`,
    );
    return "skipped";
  }
  if (outcome === "exists") return "exists";
  if (oneTimePassword) {
    log.warn(
      { email },
      `FIRST ADMIN CREATED: sign in at /account/sign-in as ${email} with the one-time password ${oneTimePassword} and change it on the Security page. It is shown only this once.`,
    );
  } else {
    log.info({ email }, `First admin created: ${email} (password from ADMIN_PASSWORD)`);
  }
  return "created";
}

// `npm run admin -- create <email> [--role support|reviewer|admin]`: adds a member of staff
// (PRODUCT.md D7, issue 12 item 8; the role defaults to admin) on the configured database
// (DATABASE_URL, or the embedded one under DATA_DIR). The password comes from
// ADMIN_PASSWORD when set; otherwise a one-time password is generated and printed once.
// Exits 1 when the address already has an account (a trader is never turned into staff).
import { type StaffRole, staffRoles } from "@tp/domain/api";
import { emailSchema } from "@tp/domain/validation";
import { createStaff, generateOneTimePassword } from "../admin/first-admin.ts";
import { hashPassword } from "../auth/passwords.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/open-database.ts";

const usage = `usage: npm run admin -- create <email> [--role ${staffRoles.join("|")}]`;

/** `--role X` (or `--role=X`) after the address; admin when absent; null when malformed. */
function roleOf(rest: string[]): StaffRole | null {
  if (rest.length === 0) return "admin";
  const value =
    rest.length === 1 && rest[0]!.startsWith("--role=")
      ? rest[0]!.slice("--role=".length)
      : rest.length === 2 && rest[0] === "--role"
        ? rest[1]!
        : null;
  return staffRoles.find((role) => role === value) ?? null;
}

async function main(args: string[]): Promise<number> {
  const [command, address, ...rest] = args;
  const role = roleOf(rest);
  if (command !== "create" || !address || !role) {
    process.stderr.write(`${usage}\n`);
    return 64; // EX_USAGE
  }
  const email = emailSchema.safeParse(address);
  if (!email.success) {
    process.stderr.write(`${address}: ${email.error.issues[0]?.message}\n${usage}\n`);
    return 64;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 78; // EX_CONFIG
    }
    throw error;
  }
  const password = config.ADMIN_PASSWORD ?? generateOneTimePassword();
  const passwordHash = await hashPassword(password);
  const database = await openDatabase(config);
  try {
    const result = await database.transaction((transaction) =>
      createStaff(
        transaction,
        email.data,
        passwordHash,
        role,
        { userId: null, label: "cli", ip: null },
        new Date(),
      ),
    );
    if (result.kind === "exists") {
      process.stderr.write(
        result.role === "trader"
          ? `${email.data} belongs to a trader account; staff use an address of their own\n`
          : `${email.data} is already ${result.role === "admin" ? "an admin" : `staff (${result.role})`}\n`,
      );
      return 1;
    }
    process.stdout.write(
      config.ADMIN_PASSWORD
        ? `${role} ${email.data} created (password from ADMIN_PASSWORD)\n`
        : `${role} ${email.data} created\none-time password: ${password}\nSign in with it and change it on the Security page; it is shown only this once.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));

// `npm run admin -- create <email>`: adds an admin (PRODUCT.md D7) on the configured database
// (DATABASE_URL, or the embedded one under DATA_DIR). The password comes from
// ADMIN_PASSWORD when set; otherwise a one-time password is generated and printed once.
// Exits 1 when the address already has an account (a trader is never turned into staff).
import { emailSchema } from "@tp/domain/validation";
import { hashPassword } from "../auth/passwords.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/open-database.ts";
import { createAdmin, generateOneTimePassword } from "../users/first-admin.ts";

const usage = "usage: npm run admin -- create <email>";

async function main(args: string[]): Promise<number> {
  const [command, address, ...rest] = args;
  if (command !== "create" || !address || rest.length > 0) {
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
      createAdmin(
        transaction,
        email.data,
        passwordHash,
        { userId: null, label: "cli", ip: null },
        new Date(),
      ),
    );
    if (result.kind === "exists") {
      process.stderr.write(
        result.role === "admin"
          ? `${email.data} is already an admin\n`
          : `${email.data} belongs to a trader account; staff use an address of their own\n`,
      );
      return 1;
    }
    process.stdout.write(
      config.ADMIN_PASSWORD
        ? `admin ${email.data} created (password from ADMIN_PASSWORD)\n`
        : `admin ${email.data} created\none-time password: ${password}\nSign in with it and change it on the Security page; it is shown only this once.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));

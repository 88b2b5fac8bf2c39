import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrate } from "../db/migrate.ts";
import { openPgliteDatabase } from "../db/pglite-database.ts";

let pgliteTemplate: Promise<Blob> | null = null;

/**
 * Test support: a dump of a freshly migrated PGlite database, made once per test process.
 * A test's new embedded database opens from it instead of running initdb (seconds each);
 * the application still runs `migrate` on it at start, which then finds nothing to apply.
 */
export function migratedPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const database = await openPgliteDatabase(null);
    try {
      await migrate(database);
      return await database.dumpDataDir();
    } finally {
      await database.close();
    }
  })();
  return pgliteTemplate;
}

/**
 * Test support: a brand-new, empty PostgreSQL database per test run, made on the server
 * that DATABASE_URL points at and dropped afterwards. Tests never share data or order.
 */
export interface FreshPostgres {
  url: string;
  drop(): Promise<void>;
}

export async function createFreshPostgresDatabase(
  adminUrl: string,
  label = "test",
): Promise<FreshPostgres> {
  const name = `tp_${label}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The databases a suite runs on: PGlite always, PostgreSQL when DATABASE_URL is set.
 * In CI (CI=true) PostgreSQL is required: a missing DATABASE_URL fails instead of skipping.
 */
export function databaseKindsUnderTest(): Array<"pglite" | "postgres"> {
  if (process.env.DATABASE_URL) return ["pglite", "postgres"];
  if (process.env.CI === "true") {
    throw new Error("CI=true but DATABASE_URL is not set: the PostgreSQL suite must run in CI");
  }
  process.stderr.write(
    "\n*** DATABASE_URL is not set: the PostgreSQL suite is SKIPPED; only PGlite runs. ***\n\n",
  );
  return ["pglite"];
}

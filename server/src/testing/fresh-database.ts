import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { migrate, migrationsDir, sqlFunctionsDir } from "../db/migrate.ts";
import { openPgliteDatabase } from "../db/pglite-database.ts";
import { openPostgresDatabase } from "../db/postgres-database.ts";

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
 * Test support: a brand-new PostgreSQL database per test run, made on the server that
 * DATABASE_URL points at and dropped afterwards. Tests never share data or order.
 * `createFreshPostgresDatabase` makes it empty (for the tests of migrating itself);
 * `createMigratedPostgresDatabase` makes it a copy of the current schema's template.
 */
export interface FreshPostgres {
  url: string;
  drop(): Promise<void>;
}

export function createFreshPostgresDatabase(
  adminUrl: string,
  label = "test",
): Promise<FreshPostgres> {
  return createDatabase(adminUrl, label, null);
}

/**
 * A brand-new database like `createFreshPostgresDatabase`'s, but copied (`CREATE DATABASE …
 * TEMPLATE`, tens of milliseconds) from a template migrated to the current schema, instead of
 * empty: the application still runs `migrate` on it at start, which then applies nothing but
 * the SQL functions. The PostgreSQL counterpart of `migratedPgliteTemplate`.
 */
export async function createMigratedPostgresDatabase(
  adminUrl: string,
  label = "test",
): Promise<FreshPostgres> {
  return createDatabase(adminUrl, label, await migratedPostgresTemplate(adminUrl));
}

async function createDatabase(
  adminUrl: string,
  label: string,
  template: string | null,
): Promise<FreshPostgres> {
  const name = `tp_${label}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
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

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Held on the admin connection while a template is made, so test processes make it once. */
const TEMPLATE_LOCK_KEY = 727_002;
const postgresTemplates = new Map<string, Promise<string>>();

/**
 * The name of a template database on `adminUrl`'s server holding the current schema: made
 * once (per server and schema, across test processes and runs) and then only read. Its name
 * carries a hash of everything `migrate` applies (the migrations, the SQL functions and
 * migrate.ts itself), so a changed schema gets a new template and a stale one is never used.
 * It is built under a temporary name and renamed when complete, refuses connections once
 * made (`CREATE DATABASE … TEMPLATE` fails while anyone is connected to the template), and
 * is left in place for the next run (`DROP DATABASE` of an old one needs `ALTER DATABASE …
 * IS_TEMPLATE false` first).
 */
export function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `tp_template_${schemaHash()}`;
  const key = `${new URL(adminUrl).host} ${name}`;
  let template = postgresTemplates.get(key);
  if (!template) {
    template = makePostgresTemplate(adminUrl, name);
    postgresTemplates.set(key, template);
    // A failure is not cached: the next test tries again (and fails with its own error).
    template.catch(() => postgresTemplates.delete(key));
  }
  return template;
}

async function makePostgresTemplate(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = async () =>
      ((await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount ?? 0) >
      0;
    if (await exists()) return name;
    // A session lock: other processes wait here while one of them builds the template.
    await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      if (await exists()) return name;
      const building = `tp_tbuild_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE ${building}`);
      try {
        const database = await openPostgresDatabase(databaseUrl(adminUrl, building));
        try {
          await migrate(database);
        } finally {
          await database.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch (error) {
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`).catch(() => {});
        throw error;
      }
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      return name;
    } finally {
      await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
    }
  } finally {
    await admin.end();
  }
}

let cachedSchemaHash: string | null = null;

/** A hash of what `migrate` applies: both SQL folders' files, names and contents, and migrate.ts. */
function schemaHash(): string {
  if (cachedSchemaHash) return cachedSchemaHash;
  const hash = createHash("sha256");
  for (const directory of [migrationsDir, sqlFunctionsDir]) {
    for (const file of readdirSync(directory).sort()) {
      if (!file.endsWith(".sql")) continue;
      hash.update(`${path.basename(directory)}/${file}\0`);
      hash.update(readFileSync(path.join(directory, file)));
      hash.update("\0");
    }
  }
  hash.update(readFileSync(fileURLToPath(new URL("../db/migrate.ts", import.meta.url))));
  cachedSchemaHash = hash.digest("hex").slice(0, 16);
  return cachedSchemaHash;
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

/**
 * The one database a browser journey file runs on: `assigned` when DATABASE_URL is set
 * (always in CI), PGlite otherwise. A journey tests the web app over the API; the server
 * suites already run every route on both databases (hostile-input.test.ts calls every
 * operation of the OpenAPI document on each), so each journey runs once and the files are
 * shared between the two databases, balanced by time (the browser suite ran 28 of CI's 44
 * minutes on a slow machine when every journey ran on both).
 */
export function journeyOn(assigned: "pglite" | "postgres"): Array<"pglite" | "postgres"> {
  const kinds = databaseKindsUnderTest();
  return kinds.includes(assigned) ? [assigned] : ["pglite"];
}

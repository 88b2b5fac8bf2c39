import path from "node:path";
import type { Config } from "../config.ts";
import type { Database } from "./database.ts";
import { migrate } from "./migrate.ts";
import { openPgliteDatabase } from "./pglite-database.ts";
import { openPostgresDatabase } from "./postgres-database.ts";

/**
 * PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR; migrated either way.
 * `pgliteTemplate` (tests) starts a new PGlite folder from a dump of a migrated database.
 */
export async function openDatabase(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
  options: { pgliteTemplate?: Blob } = {},
): Promise<Database> {
  const database = config.DATABASE_URL
    ? await openPostgresDatabase(config.DATABASE_URL)
    : await openPgliteDatabase(
        path.join(config.DATA_DIR, "pglite"),
        options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {},
      );
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

import path from "node:path";
import type { Config } from "../config.ts";
import type { Database } from "./database.ts";
import { migrate } from "./migrate.ts";
import { openPgliteDatabase } from "./pglite-database.ts";
import { openPostgresDatabase } from "./postgres-database.ts";

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR; migrated either way. */
export async function openDatabase(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
): Promise<Database> {
  const database = config.DATABASE_URL
    ? await openPostgresDatabase(config.DATABASE_URL)
    : await openPgliteDatabase(path.join(config.DATA_DIR, "pglite"));
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./database.ts";

export const migrationsDir = fileURLToPath(new URL("../../migrations/", import.meta.url));
/** SQL functions: code, not schema, so applied anew at every start (see applySqlFunctions). */
export const sqlFunctionsDir = fileURLToPath(new URL("../../sql/functions/", import.meta.url));

/** Same constant on every process: only one of them applies migrations at a time. */
const MIGRATION_LOCK_KEY = 727_001;

interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(directory = migrationsDir): Migration[] {
  return readNumberedSqlFiles(directory);
}

/** The files `NNN_name.sql` of a folder, in number order. */
function readNumberedSqlFiles(directory: string): Migration[] {
  return readdirSync(directory)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file,
      sql: readFileSync(path.join(directory, file), "utf8"),
    }));
}

/**
 * Applies the numbered SQL files not yet applied, each in its own transaction with its
 * bookkeeping row, so a crash leaves either all of a migration or none of it. On PostgreSQL
 * a transaction-level advisory lock keeps two starting processes from racing.
 */
export async function migrate(database: Database): Promise<number[]> {
  // Under the lock too: two processes creating the table at once collide on its type's name
  // (IF NOT EXISTS does not make concurrent creation safe in PostgreSQL).
  await database.transaction(async (transaction) => {
    if (database.kind === "postgres") {
      await transaction.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    }
    await transaction.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
  });
  const applied: number[] = [];
  for (const migration of readMigrations()) {
    const didApply = await database.transaction(async (transaction) => {
      if (database.kind === "postgres") {
        await transaction.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      }
      const existing = await transaction.query(
        "SELECT 1 FROM schema_migrations WHERE version = $1",
        [migration.version],
      );
      if (existing.rowCount > 0) return false;
      for (const statement of splitStatements(migration.sql)) {
        await transaction.query(statement);
      }
      await transaction.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (didApply) applied.push(migration.version);
  }
  await applySqlFunctions(database);
  return applied;
}

/**
 * The SQL functions (`server/sql/functions/`) are code: each file holds `CREATE OR REPLACE`
 * statements and is applied at every start, after the migrations (the functions stand on
 * their schema), all in one transaction under the migration lock, so processes starting
 * together apply them one at a time and a failure leaves the previous versions in place.
 * A function whose signature changes needs its old version dropped by a migration.
 */
export async function applySqlFunctions(database: Database): Promise<void> {
  await database.transaction(async (transaction) => {
    if (database.kind === "postgres") {
      await transaction.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    }
    for (const file of readNumberedSqlFiles(sqlFunctionsDir)) {
      for (const statement of splitStatements(file.sql)) {
        if (!/^CREATE OR REPLACE FUNCTION /.test(statement)) {
          throw new Error(`${file.name}: only CREATE OR REPLACE FUNCTION belongs here`);
        }
        await transaction.query(statement);
      }
    }
  });
}

/**
 * Migrations are statements separated by semicolons at line ends. A function body is
 * dollar-quoted (`$$ … $$`) and may hold such semicolons itself, so a line end inside one
 * does not end the statement (checked by the migration test).
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split("\n")) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    // An odd number of $$ on a line opens or closes a body.
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join("\n").trim().replace(/;$/, ""));
      current = [];
    }
  }
  statements.push(current.join("\n").trim());
  return statements.filter((statement) => statement.length > 0);
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { migrationsDir, readMigrations, sqlFunctionsDir } from "../src/db/migrate.ts";
import { crossModuleReads, tableOwners } from "../src/db/table-owners.ts";

const sourceDirectory = fileURLToPath(new URL("../src", import.meta.url));
const owned = new Set(Object.keys(tableOwners));

interface Touch {
  module: string;
  file: string;
  table: string;
  kind: "read" | "write";
}

/**
 * The tables an SQL text touches: written (INSERT INTO, UPDATE, DELETE FROM, or any table
 * of a statement that locks rows: FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE) or read.
 */
export function tablesTouched(sql: string): Array<{ table: string; kind: "read" | "write" }> {
  const locks = /\bFOR\s+(NO\s+KEY\s+UPDATE|UPDATE|SHARE|KEY\s+SHARE)\b/i.test(sql);
  const touched: Array<{ table: string; kind: "read" | "write" }> = [];
  for (const match of sql.matchAll(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|FROM|JOIN)\s+(\w+)/gi)) {
    const table = match[2]!;
    if (!owned.has(table)) continue;
    const verb = match[1]!.toUpperCase();
    const writes = verb !== "FROM" && verb !== "JOIN";
    touched.push({ table, kind: writes || locks ? "write" : "read" });
  }
  return touched;
}

/** Every SQL text of the server: string literals of its TypeScript, and its function files. */
function allTouches(): Touch[] {
  const touches: Touch[] = [];
  const files = (readdirSync(sourceDirectory, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => file.endsWith(".ts") && file.includes("/"));
  for (const file of files) {
    const module = file.split("/")[0]!;
    const text = readFileSync(path.join(sourceDirectory, file), "utf8");
    for (const literal of text.matchAll(/`[^`]*`|"(?:[^"\\\n]|\\.)*"/g)) {
      for (const touch of tablesTouched(literal[0])) touches.push({ module, file, ...touch });
    }
  }
  for (const file of readdirSync(sqlFunctionsDir).filter((name) => name.endsWith(".sql"))) {
    const module = /^\d{3}_([a-z_]+)\.sql$/.exec(file)![1]!;
    const text = readFileSync(path.join(sqlFunctionsDir, file), "utf8").replace(/--.*$/gm, "");
    for (const touch of tablesTouched(text)) touches.push({ module, file, ...touch });
  }
  return touches;
}

describe("each module owns its tables", () => {
  it("gives every table of the migrations one owner, and names no other table", () => {
    const created = new Set(["schema_migrations"]);
    for (const migration of readMigrations(migrationsDir)) {
      for (const match of migration.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/g)) {
        created.add(match[1]!);
      }
    }
    expect([...owned].sort()).toEqual([...created].sort());
  });

  it("finds writes, locks and reads in SQL text (the check can fail)", () => {
    expect(tablesTouched("UPDATE users SET kyc_verified_at = $2 WHERE id = $1")).toEqual([
      { table: "users", kind: "write" },
    ]);
    expect(tablesTouched("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE")).toEqual([
      { table: "users", kind: "write" },
    ]);
    expect(tablesTouched("SELECT d.id FROM deposits d JOIN users u ON u.id = d.user_id")).toEqual([
      { table: "deposits", kind: "read" },
      { table: "users", kind: "read" },
    ]);
    expect(tablesTouched("INSERT INTO postings (entry_id) VALUES ($1)")).toEqual([
      { table: "postings", kind: "write" },
    ]);
  });

  it("lets only a table's owner write or lock it", () => {
    const trespasses = allTouches()
      .filter((touch) => touch.kind === "write")
      .filter((touch) => tableOwners[touch.table as keyof typeof tableOwners] !== touch.module)
      .map((touch) => `${touch.file} writes ${touch.table}`);
    expect([...new Set(trespasses)]).toEqual([]);
  });

  it("lets other modules read a table only where the read is declared", () => {
    const declared = new Set(
      crossModuleReads.flatMap(({ module, tables }) => tables.map((table) => `${module}:${table}`)),
    );
    const undeclared = allTouches()
      .filter((touch) => tableOwners[touch.table as keyof typeof tableOwners] !== touch.module)
      .filter((touch) => !declared.has(`${touch.module}:${touch.table}`))
      .map((touch) => `${touch.file} reads ${touch.table}`);
    expect([...new Set(undeclared)]).toEqual([]);
  });

  it("declares no cross-module read that no longer happens", () => {
    const happening = new Set(allTouches().map((touch) => `${touch.module}:${touch.table}`));
    const stale = crossModuleReads
      .flatMap(({ module, tables }) => tables.map((table) => `${module}:${table}`))
      .filter((pair) => !happening.has(pair));
    expect(stale).toEqual([]);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readMigrations, splitStatements, sqlFunctionsDir } from "../src/db/migrate.ts";

describe("splitStatements", () => {
  it("splits at semicolons that end a line, dropping comment lines", () => {
    expect(
      splitStatements("-- a note\nCREATE TABLE a (x int);\nINSERT INTO a VALUES (1);\n"),
    ).toEqual(["CREATE TABLE a (x int)", "INSERT INTO a VALUES (1)"]);
  });

  it("keeps a dollar-quoted function body whole, semicolons and comments included", () => {
    const body = [
      "CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$",
      "BEGIN",
      "  -- inside the body",
      "  PERFORM 1;",
      "  RETURN 2;",
      "END",
      "$$;",
    ].join("\n");
    expect(splitStatements(`${body}\nSELECT f();`)).toEqual([body.replace(/;$/, ""), "SELECT f()"]);
  });

  it("gives every landed migration whole statements (no body cut in two)", () => {
    for (const migration of readMigrations()) {
      for (const statement of splitStatements(migration.sql)) {
        expect((statement.match(/\$\$/g)?.length ?? 0) % 2, migration.name).toBe(0);
      }
    }
  });

  it("keeps function bodies out of the migrations after 008, and only functions in sql/functions", () => {
    // The exceptions: 028 defines the journal's canonical forms and chain link, which must never
    // change once a hash was stored with them (a functions file is replaced at every start);
    // 029 defines the same link in PL/pgSQL for the fold; 032 builds the same canonical forms
    // with json_build_array (journal.test.ts pins them to 028's); 035 folds the same link
    // into a pair, the previous hash with the new (journal.test.ts pins it to 029's fold).
    const fixedForever = new Set([28, 29, 32, 35]);
    for (const migration of readMigrations().filter(
      (migration) => migration.version >= 8 && !fixedForever.has(migration.version),
    )) {
      expect(migration.sql, migration.name).not.toMatch(/CREATE (OR REPLACE )?FUNCTION/i);
    }
    const files = readdirSync(sqlFunctionsDir).filter((file) => file.endsWith(".sql"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const statements = splitStatements(readFileSync(path.join(sqlFunctionsDir, file), "utf8"));
      expect(statements.length, file).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement, file).toMatch(/^CREATE OR REPLACE FUNCTION /);
        expect((statement.match(/\$\$/g)?.length ?? 0) % 2, file).toBe(0);
      }
    }
  });
});

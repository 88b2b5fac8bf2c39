import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompositeField, compositeArrayLiteral } from "../src/db/composite-literal.ts";
import type { Database } from "../src/db/database.ts";
import { openPgliteDatabase } from "../src/db/pglite-database.ts";
import { openPostgresDatabase } from "../src/db/postgres-database.ts";

/** Its own name per run: on PostgreSQL the type lives in a database other runs may share. */
const probe_type = `composite_literal_probe_${process.pid}`;

type Row = [number | null, boolean | null, string | null, number | null, string | null];

/** The literal read back by the database itself, field by field as text. */
async function readBack(database: Database, rows: Row[]) {
  const result = await database.query<{
    id: string | null;
    flag: boolean | null;
    label: string | null;
    price: number | null;
    at: string | null;
  }>(
    `SELECT r.id::text AS id, r.flag, r.label, r.price,
            to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
     FROM unnest($1::${probe_type}[]) WITH ORDINALITY AS r ORDER BY ordinality`,
    [compositeArrayLiteral(rows as CompositeField[][])],
  );
  return result.rows.map((row) => [
    row.id === null ? null : Number(row.id),
    row.flag,
    row.label,
    row.price,
    row.at,
  ]);
}

const row_arbitrary: fc.Arbitrary<Row> = fc.tuple(
  fc.option(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 })),
  fc.option(fc.boolean()),
  // Text with every character a literal gives a meaning to, and none PostgreSQL refuses.
  fc.option(
    fc.string({
      unit: fc.oneof(
        fc.constantFrom("(", ")", ",", '"', "\\", "{", "}", " ", "\t", "\n", "'", "NULL", "é"),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      ),
    }),
  ),
  fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
  fc.option(
    fc
      .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) })
      .map((ms) => new Date(ms).toISOString()),
  ),
);

const databases: Array<[string, () => Promise<Database>]> = [
  ["PGlite", () => openPgliteDatabase(null)],
];
if (process.env.DATABASE_URL) {
  databases.push(["PostgreSQL", () => openPostgresDatabase(process.env.DATABASE_URL!)]);
}

describe.each(databases)("compositeArrayLiteral on %s", (_name, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.query(`DROP TYPE IF EXISTS ${probe_type}`);
    await database.query(
      `CREATE TYPE ${probe_type} AS (id bigint, flag boolean, label text, price double precision, at timestamptz)`,
    );
  });
  afterAll(async () => {
    await database.query(`DROP TYPE IF EXISTS ${probe_type}`);
    await database.close();
  });

  it("reads back every field as written: nulls, empty text, quotes, backslashes, delimiters", async () => {
    const rows: Row[] = [
      [1, true, "won", 100.25, "2026-11-29T00:39:14.656Z"],
      [null, null, null, null, null],
      [-(2 ** 53) + 1, false, "", -0.000001234, "2000-01-01T00:00:00.000Z"],
      [
        2 ** 53 - 1,
        true,
        'No price was recorded for the expiry instant; the stake was "refunded", (a\\b) {c}.',
        1e-7,
        null,
      ],
      [7, false, " padded ", 123456789.123456, null],
      [8, false, "NULL", 0, null],
    ];
    expect(await readBack(database, rows)).toEqual(rows);
  });

  it("reads back any row", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row_arbitrary, { maxLength: 20 }), async (rows) => {
        // PostgreSQL's text has no NUL character.
        const storable = rows.map(
          (row) =>
            [row[0], row[1], row[2]?.replaceAll("\u0000", "") ?? null, row[3], row[4]] as Row,
        );
        const read = await readBack(database, storable);
        expect(read).toEqual(storable.map((row) => [...row]));
      }),
      { numRuns: 200 },
    );
  });

  it("is an empty array for no rows", async () => {
    expect(await readBack(database, [])).toEqual([]);
  });
});

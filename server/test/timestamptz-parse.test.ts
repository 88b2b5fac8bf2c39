import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { parseUtcTimestamptz, TIMESTAMPTZ_OID } from "../src/db/database.ts";
import { openPostgresDatabase } from "../src/db/postgres-database.ts";

/** pg's own parser, which the fast path must agree with to the millisecond. */
const pgParse = pg.types.getTypeParser(TIMESTAMPTZ_OID, "text") as (text: string) => Date;

/** What a UTC session sends: "YYYY-MM-DD HH:MM:SS[.f…]+00", trailing zeros of the fraction dropped. */
function postgresText(utcMs: number, microseconds: number): string {
  const iso = new Date(utcMs).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const fraction = `${iso.slice(20, 23)}${String(microseconds).padStart(3, "0")}`.replace(
    /0+$/,
    "",
  );
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ""}+00`;
}

describe("parseUtcTimestamptz", () => {
  it("reads every fraction length as pg does (milliseconds kept, the rest dropped)", () => {
    for (const text of [
      "2026-11-28 05:46:29+00",
      "2026-11-28 05:46:29.5+00",
      "2026-11-28 05:46:29.05+00",
      "2026-11-28 05:46:29.123+00",
      "2026-11-28 05:46:29.1239+00",
      "2026-11-28 05:46:29.99999+00",
      "2026-11-28 05:46:29.999999+00",
      "1999-12-31 23:59:59.000001+00",
      "2000-02-29 00:00:00.001+00",
    ]) {
      expect(parseUtcTimestamptz(text)?.getTime(), text).toBe(pgParse(text).getTime());
    }
    expect(parseUtcTimestamptz("2026-11-28 05:46:29.999999+00")?.toISOString()).toBe(
      "2026-11-28T05:46:29.999Z",
    );
  });

  it("agrees with pg's parser on any instant from 1000 to 9999", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
        fc.integer({ min: 0, max: 999 }),
        (utcMs, microseconds) => {
          const text = postgresText(utcMs, microseconds);
          expect(parseUtcTimestamptz(text)?.getTime()).toBe(pgParse(text).getTime());
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("leaves other forms to pg's parser", () => {
    for (const text of [
      "2026-11-28 05:46:29+05:30",
      "2026-11-28 05:46:29.5-08",
      "2026-11-28 05:46:29.1234567+00",
      "0099-01-01 00:00:00+00",
      "0044-03-15 12:00:00+00 BC",
      "12026-11-28 05:46:29+00",
      "infinity",
      "-infinity",
      "2026-11-28T05:46:29+00",
      "2026-11-2x 05:46:29+00",
      "2026-11-28 05:46:29.+00",
    ]) {
      expect(parseUtcTimestamptz(text), text).toBeNull();
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    "reads PostgreSQL's own output of a UTC session as pg's parser does",
    async () => {
      const database = await openPostgresDatabase(process.env.DATABASE_URL!);
      try {
        const result = await database.query<{ at: Date; text: string }>(
          `SELECT at, at::text AS text FROM (
             SELECT timestamptz '1970-01-01 00:00:00+00' + make_interval(secs => s * 7919.123457) AS at
             FROM generate_series(0, 20000) AS s
           ) t`,
        );
        const zone = await database.query<{ zone: string }>("SHOW TimeZone");
        expect(result.rows).toHaveLength(20_001);
        for (const row of result.rows) {
          expect(row.at.getTime(), row.text).toBe(pgParse(row.text).getTime());
        }
        if (["UTC", "Etc/UTC"].includes(zone.rows[0]?.zone ?? "")) {
          expect(result.rows.every((row) => parseUtcTimestamptz(row.text) !== null)).toBe(true);
        }
      } finally {
        await database.close();
      }
    },
  );
});

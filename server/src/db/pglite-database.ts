import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import {
  type Database,
  INT8_OID,
  parseInt8,
  type Queryable,
  type QueryResult,
  queryTiming,
} from "./database.ts";

/** The embedded database, which can also write its whole data folder out as one file. */
export interface PgliteDatabase extends Database {
  /** The data folder as a tarball, to open new databases from (`loadDataDir`). */
  dumpDataDir(): Promise<Blob>;
}

/**
 * Embedded PostgreSQL (WASM) persisted in a folder, or in memory when `dataDir` is null.
 * `loadDataDir` starts a new folder from a dump instead of creating a cluster (initdb takes
 * seconds; the tests open many databases from one migrated dump).
 */
export async function openPgliteDatabase(
  dataDir: string | null,
  options: { loadDataDir?: Blob } = {},
): Promise<PgliteDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir ?? undefined, {
    parsers: { [INT8_OID]: (text: string) => parseInt8(text) },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });

  const timing = queryTiming();
  const wrap = (target: Pick<PGlite, "query">): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      const result = await timing.timed(() => target.query<Row>(sql, params));
      // PGlite reports affectedRows 0 for a SELECT; pg's rowCount counts the rows returned.
      return {
        rows: result.rows,
        rowCount: Math.max(result.affectedRows ?? 0, result.rows.length),
      };
    },
  });

  return {
    kind: "pglite",
    ...wrap(pglite),
    transaction: (work) => pglite.transaction((transaction) => work(wrap(transaction))),
    async tryAdvisoryLock() {
      // One embedded database serves one process: it is always the only contender.
      return { lost: new Promise<void>(() => {}), release: async () => {} };
    },
    async execScript(sql) {
      await pglite.exec(sql);
    },
    onQuery: timing.onQuery,
    // One embedded connection, no pool.
    poolStats: () => null,
    async close() {
      await pglite.close();
    },
    dumpDataDir: () => pglite.dumpDataDir("none"),
  };
}

import pg from "pg";
import {
  type Database,
  INT8_OID,
  parseInt8,
  parseUtcTimestamptz,
  type Queryable,
  type QueryResult,
  queryTiming,
  TIMESTAMPTZ_OID,
} from "./database.ts";

/** Limits on the pool: a slow database must not swallow every request slot forever. */
const pool_connections_max = 10;
const connection_timeout_ms = 10_000;
const idle_timeout_ms = 30_000;

const parseAnyTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID, "text") as (
  text: string,
) => unknown;
/** UTC sessions' timestamps on the fast path, the rest as pg parses them. */
const parseTimestamptz = (text: string) => parseUtcTimestamptz(text) ?? parseAnyTimestamptz(text);

export async function openPostgresDatabase(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: pool_connections_max,
    connectionTimeoutMillis: connection_timeout_ms,
    idleTimeoutMillis: idle_timeout_ms,
    // Per-pool parsers, so this module does not change pg's global state.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? parseInt8
          : oid === TIMESTAMPTZ_OID && format !== "binary"
            ? parseTimestamptz
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its connection emits here; without a listener it would crash.
  pool.on("error", () => {});
  await pool.query("SELECT 1");

  const timing = queryTiming();
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      const result = await timing.timed(() => target.query(sql, params));
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
  });

  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async tryAdvisoryLock(key) {
      // A client of its own, outside the pool: the lock lives exactly as long as it does.
      const client = new pg.Client({
        connectionString,
        connectionTimeoutMillis: connection_timeout_ms,
      });
      let markLost: () => void = () => {};
      const lost = new Promise<void>((resolve) => {
        markLost = resolve;
      });
      client.on("error", () => markLost());
      client.on("end", () => markLost());
      try {
        await client.connect();
        const result = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock($1) AS locked",
          [key],
        );
        if (!result.rows[0]?.locked) {
          await client.end();
          return null;
        }
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      return {
        lost,
        async release() {
          await client.end().catch(() => {});
        },
      };
    },
    async execScript(sql) {
      await pool.query(sql);
    },
    onQuery: timing.onQuery,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async close() {
      await pool.end();
    },
  };
}

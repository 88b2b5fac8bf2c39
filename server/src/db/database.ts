/**
 * The one database interface the modules use. Two implementations speak the same SQL:
 * embedded PGlite (the default) and PostgreSQL through `pg` (when DATABASE_URL is set).
 */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /**
   * Runs `work` in one transaction (READ COMMITTED), committing when it resolves and rolling
   * back when it throws. Inside `work`, use only the `transaction` handle: on PGlite the
   * database has one connection and a query on `Database` itself would wait for this very
   * transaction to end.
   */
  transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T>;
  /**
   * Tries to take a session-level advisory lock on a connection of its own, held until
   * `release()` or until that connection dies (`lost` then resolves), so another process can
   * take over. Null when another session holds it. On PGlite (one process) it always succeeds.
   */
  tryAdvisoryLock(key: number): Promise<AdvisoryLock | null>;
  /** Runs a script of several statements (migrations only). */
  execScript(sql: string): Promise<void>;
  /**
   * Calls `listener` with the duration of every query from now on (transactions' included),
   * until the returned function is called. The metrics of each app on this database listen.
   */
  onQuery(listener: QueryListener): () => void;
  /** The connection pool's use now; null when the database has no pool (PGlite). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export type QueryListener = (duration_seconds: number) => void;

export interface PoolStats {
  /** Connections open, idle among them, and callers waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The query timing both implementations share: with nobody listening a query pays one
 * size check; with listeners, two clock reads.
 */
export function queryTiming() {
  const listeners = new Set<QueryListener>();
  return {
    onQuery(listener: QueryListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async timed<T>(query: () => Promise<T>): Promise<T> {
      if (listeners.size === 0) return query();
      const started = performance.now();
      try {
        return await query();
      } finally {
        const duration_seconds = (performance.now() - started) / 1000;
        for (const listener of listeners) listener(duration_seconds);
      }
    },
  };
}

export interface AdvisoryLock {
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/** int8 → number: ids and cents are bigint columns; past 2^53 a number would lie. */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`bigint value ${text} is outside the safe integer range`);
  }
  return value;
}

export const INT8_OID = 20;

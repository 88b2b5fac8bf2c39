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
export const TIMESTAMPTZ_OID = 1184;

/**
 * timestamptz text → Date for what a UTC session sends ("2026-11-28 05:46:29.123456+00", the
 * fraction optional): null for anything else (another zone's offset, BC, infinity, years
 * before 1000), which the caller hands to pg's own parser. The same instant as pg's parser,
 * whose three regular expressions were a tenth of the server's CPU in a settlement burst
 * (four timestamps a claimed trade; bench/RESULTS.md). Like pg's, it keeps milliseconds and
 * drops the rest of the fraction.
 */
export function parseUtcTimestamptz(text: string): Date | null {
  const length = text.length;
  // "YYYY-MM-DD HH:MM:SS" is 19 characters, ".f" to ".ffffff" 2 to 7, "+00" 3.
  if (length < 22 || length === 23 || length > 29) return null;
  if (
    text.charCodeAt(length - 3) !== 43 || // +
    text.charCodeAt(length - 2) !== 48 ||
    text.charCodeAt(length - 1) !== 48 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    (length > 22 && text.charCodeAt(19) !== 46) // .
  ) {
    return null;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  const fraction = length > 22 ? digitsAt(text, 20, length - 3) : 0;
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || fraction < 0) {
    return null;
  }
  const fractionDigits = length > 22 ? length - 23 : 0;
  // Integers both ways (".5" is 5 × 100, ".123456" is ⌊123456 ÷ 1000⌋), so no float error.
  const milliseconds =
    fractionDigits <= 3
      ? fraction * 10 ** (3 - fractionDigits)
      : Math.floor(fraction / 10 ** (fractionDigits - 3));
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds));
}

/** The decimal number in text[from, to), or -1 if a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let index = from; index < to; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";

/** A row of `feed_halts` (migration 010), which the prices module owns. */
export interface FeedHaltRow {
  id: number;
  symbol: string;
  source: string;
  started_at: Date;
  ended_at: Date | null;
}

/** One page of feed halts, newest first (the public market status page). */
export async function feedHaltsPage(
  queryable: Queryable,
  page: number,
  limit: number,
): Promise<{ rows: FeedHaltRow[]; total: number }> {
  return countAndPage<FeedHaltRow>(queryable, {
    countSql: "SELECT COUNT(*)::bigint AS total FROM feed_halts",
    rowsSql: `SELECT id, symbol, source, started_at, ended_at FROM feed_halts
     ORDER BY started_at DESC, id DESC`,
    params: [],
    page,
    limit,
  });
}

import type { Database } from "../db/database.ts";
import { createRequestBatcher, type RequestBatcher } from "../db/request-batcher.ts";
import { DEFAULT_CURRENCY, house_shards, houseShardCode } from "../ledger/ledger.ts";
import type { TradeGuard } from "./trade-guard.ts";

/**
 * One place-trade request as `place_trades` (server/sql/functions/030_trading.sql) takes it
 * (its type `place_trade_in`, migration 008), less its house shard.
 */
export interface TradeRequest {
  user_id: number;
  is_practice: boolean;
  asset: string;
  direction: "call" | "put";
  stake_cents: number;
  duration_seconds: number;
  payout_percent: number;
  entry_price: number;
  entry_at: string;
  feed: string;
  start_time: string;
  expires_at: string;
  /** The caller's reason to refuse once the money is known to be there, or null. */
  refusal: string | null;
  /**
   * Idempotency-Key and the request's hash (or nulls). The key stores the trade's id, from
   * which place-trade.ts rebuilds the reply.
   */
  key: string | null;
  hash: string | null;
  /** The rulebook version in force (domain/src/rulebook.ts), recorded on the trade. */
  rule_version: number;
  /** When the request reached the platform (issue 15 item 5); null when not from a request. */
  received_at: string | null;
  /** The session's sign-in, for the trader's session time limit; null when not known. */
  session_started_at: string | null;
  /**
   * The session the request came from, checked live in the call's transaction (the
   * session lookup's `writeCheck`); nulls when not from a signed-in request.
   */
  session_id: number | null;
  session_seen_after: string | null;
  session_created_after: string | null;
  session_touch_before: string | null;
}

export interface TradeOutcome {
  outcome: "placed" | "replay" | "insufficient" | "refused" | "guarded" | "unauthenticated";
  trade_id: number | null;
  real_cents: number | null;
  practice_cents: number | null;
  stored_status: number | null;
  stored_body: unknown;
  stored_hash: string | null;
  /** Why the trader's own limit or exclusion refused it ('guarded'): trade-guard.ts words it. */
  guard: TradeGuard | null;
}

export type TradeBatcher = RequestBatcher<TradeRequest, TradeOutcome>;

/**
 * Most requests per place_trades call. With one call at a time, this caps the rate at
 * trade_batch_max per call's duration: when a call waits (on traders' accounts a settlement
 * batch holds), the next one must be able to carry everything that arrived meanwhile, or
 * requests queue for good. 100 capped the soak's steady mix below half the maximum.
 */
export const trade_batch_max = 500;
/**
 * One call at a time while load is light: the requests that arrive meanwhile make the next
 * call's batch, and most of a call's cost in PostgreSQL is per call, not per trade (two
 * calls always in flight split the batches, 124 → 43 trades, and PostgreSQL's CPU per trade
 * rose from ~115 to 159 µs). But a lone call leaves PostgreSQL idle while it commits and
 * while its answers travel, a fifth of each cycle at the maximum rate: so a second call
 * starts once trade_batch_overlap_min requests wait, which under heavy load happens late in
 * the running call, and the batches stay large (bench/RESULTS.md, issue 16's eighth session).
 */
const trade_batches_in_flight_max = 2;
const trade_batch_overlap_min = 96;

/**
 * The one `place_trades` call of a batch whose stakes all go to house shard `shard`: its SQL
 * and parameters (the batcher's, and the call-cost benchmark's, bench/call-cost.ts).
 */
export function placeTradesStatement(
  requests: TradeRequest[],
  shard: number,
): { sql: string; params: [string, string] } {
  return {
    sql: "SELECT * FROM place_trades($1::jsonb, $2)",
    params: [
      JSON.stringify(
        requests.map((request) => ({
          ...request,
          house_code: houseShardCode(request.is_practice, shard),
        })),
      ),
      DEFAULT_CURRENCY,
    ],
  };
}

/** Place-trade requests go to `place_trades` in batches (see RequestBatcher). */
export function createTradeBatcher(database: Database): TradeBatcher {
  let shard = 0;
  return createRequestBatcher({
    batchMax: trade_batch_max,
    inFlightMax: trade_batches_in_flight_max,
    overlapBatchMin: trade_batch_overlap_min,
    // One use of an Idempotency-Key per call: a second use waits for the next call, where
    // it finds the first's reply stored.
    exclusiveKey: (request) => (request.key === null ? null : `${request.user_id}\n${request.key}`),
    async run(requests) {
      // Each call credits all its stakes to one house shard, the next call the next shard:
      // calls running at once never queue on each other's house row. Which shard holds a
      // stake does not matter to anyone: the house is the sum of its shards.
      shard = (shard + 1) % house_shards;
      const statement = placeTradesStatement(requests, shard);
      const result = await database.query<TradeOutcome & { item: number }>(
        statement.sql,
        statement.params,
      );
      return result.rows.sort((a, b) => a.item - b.item);
    },
  });
}

import type { Database } from "../db/database.ts";

/**
 * Application-level group commit for place-trade. Requests that arrive while earlier calls
 * of `place_trades` (migration 005) are running wait and go together in the next call: one
 * round trip, one plan, one commit (one WAL flush) for the lot, each request still with its
 * own outcome. With no queue a request goes at once, alone, so a quiet platform pays no
 * extra latency; under load the batches grow by themselves.
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
  house_code: string;
  /** The caller's reason to refuse once the money is known to be there, or null. */
  refusal: string | null;
  /** Idempotency-Key, the request's hash and the reply to store with it (or nulls). */
  key: string | null;
  hash: string | null;
  reply: unknown;
}

export interface TradeOutcome {
  outcome: "placed" | "replay" | "insufficient" | "refused";
  trade_id: number | null;
  real_cents: number | null;
  practice_cents: number | null;
  stored_status: number | null;
  stored_body: unknown;
  stored_hash: string | null;
}

export interface TradeBatcher {
  submit(request: TradeRequest): Promise<TradeOutcome>;
}

/** Most requests per call: bounds a call's duration and its locks. */
export const trade_batch_max = 100;
/**
 * Calls running at once. More than one, so a batch's commit overlaps the next batch's work;
 * few, so requests queue into batches instead of into the connection pool.
 */
export const trade_batches_in_flight_max = 3;

interface Waiting {
  request: TradeRequest;
  resolve(outcome: TradeOutcome): void;
  reject(error: unknown): void;
}

export function createTradeBatcher(database: Database): TradeBatcher {
  let waiting: Waiting[] = [];
  let inFlight = 0;

  function flush() {
    while (inFlight < trade_batches_in_flight_max && waiting.length > 0) {
      // One use of an Idempotency-Key per call: a second use waits for the next call, where
      // it finds the first's reply stored.
      const batch: Waiting[] = [];
      const later: Waiting[] = [];
      const keys = new Set<string>();
      for (const entry of waiting) {
        const key =
          entry.request.key === null ? null : `${entry.request.user_id}\n${entry.request.key}`;
        if (batch.length >= trade_batch_max || (key !== null && keys.has(key))) {
          later.push(entry);
          continue;
        }
        if (key !== null) keys.add(key);
        batch.push(entry);
      }
      waiting = later;
      inFlight += 1;
      void run(batch).finally(() => {
        inFlight -= 1;
        flush();
      });
    }
  }

  async function run(batch: Waiting[]) {
    try {
      const result = await database.query<TradeOutcome & { item: number }>(
        "SELECT * FROM place_trades($1::jsonb)",
        [JSON.stringify(batch.map((entry) => entry.request))],
      );
      for (const row of result.rows) batch[row.item - 1]!.resolve(row);
      if (result.rows.length !== batch.length) {
        throw new Error(`place_trades answered ${result.rows.length} of ${batch.length} requests`);
      }
    } catch (error) {
      // Settles only the requests not answered yet (a promise settles once).
      for (const entry of batch) entry.reject(error);
    }
  }

  return {
    submit(request) {
      return new Promise<TradeOutcome>((resolve, reject) => {
        waiting.push({ request, resolve, reject });
        flush();
      });
    },
  };
}

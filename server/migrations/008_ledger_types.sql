-- The SQL functions move out of the migrations into server/sql/functions/ (applied with
-- CREATE OR REPLACE at every start, server/src/db/sql-functions.ts). This migration holds
-- only the schema they stand on: the typed inputs that replace parallel arrays and
-- per-field JSON extraction, a guard that one trade can never be staked or settled twice,
-- and the removal of the migration-defined versions, whose signatures changed.

-- One posting of a journal entry: a signed amount on one ledger account.
CREATE TYPE ledger_posting_in AS (account_id bigint, amount_cents bigint);

-- One journal entry to post. A probe entry is only checked (would its guarded debits pass
-- now?) and never written: place_trades uses it for a request it refuses anyway, so the
-- trader hears "Insufficient balance" first when the money is not there.
CREATE TYPE ledger_entry_in AS (
  kind text,
  reference text,
  created_at timestamptz,
  probe boolean,
  postings ledger_posting_in[]
);

-- A trader account named by its owner rather than its id.
CREATE TYPE ledger_trader_account_in AS (user_id bigint, is_practice boolean);

-- One place-trade request (server/src/trading/trade-batcher.ts builds it).
CREATE TYPE place_trade_in AS (
  user_id bigint,
  is_practice boolean,
  asset text,
  direction text,
  stake_cents bigint,
  duration_seconds integer,
  payout_percent integer,
  entry_price double precision,
  entry_at timestamptz,
  feed text,
  start_time timestamptz,
  expires_at timestamptz,
  refusal text,
  key text,
  hash text,
  reply jsonb,
  house_code text
);

-- One settled trade (server/src/trading/settlement.ts decides it).
CREATE TYPE trade_settlement_in AS (
  trade_id bigint,
  user_id bigint,
  is_practice boolean,
  status text,
  exit_price double precision,
  exit_at timestamptz,
  exit_feed text,
  credit_cents bigint,
  lag_ms integer,
  note text,
  house_code text
);

-- One audit window (migration 006) to store.
CREATE TYPE trade_audit_window_in AS (symbol text, second timestamptz, ticks jsonb);

-- A trade is staked once and settled once: a second stake entry, or a second payout or
-- refund entry, for the same trade is refused by the database whatever the code does.
CREATE UNIQUE INDEX journal_entries_trade_once_idx
  ON journal_entries ((kind = 'trade_stake'), reference)
  WHERE kind IN ('trade_stake', 'trade_payout', 'trade_refund');

DROP FUNCTION place_trades(jsonb);

DROP FUNCTION settle_trades(bigint[], text[], double precision[], timestamptz[], text[],
  bigint[], integer[], text[], timestamptz, bigint[], text[], bigint[], bigint[], bigint[],
  bigint[], text[], timestamptz[], text[]);

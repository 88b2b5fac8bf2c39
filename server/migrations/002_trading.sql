-- Trading: trades, the price history that settles and audits them, and idempotency keys.
-- Never edit this file once it has landed; add a new numbered one.

-- A trade is a pending transfer: opened once (stake posted), resolved once (won, lost, tie).
CREATE TABLE trades (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  is_practice boolean NOT NULL,
  asset text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('call', 'put')),
  stake_cents bigint NOT NULL CHECK (stake_cents > 0),
  duration_seconds integer NOT NULL CHECK (duration_seconds > 0),
  payout_percent integer NOT NULL CHECK (payout_percent BETWEEN 0 AND 100),
  entry_price double precision NOT NULL CHECK (entry_price > 0),
  entry_at timestamptz NOT NULL,
  feed text NOT NULL,
  start_time timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'tie')),
  exit_price double precision,
  exit_at timestamptz,
  exit_feed text,
  credit_cents bigint,
  settled_at timestamptz,
  settlement_lag_ms integer,
  settlement_note text,
  audit_ticks jsonb,
  CHECK ((status = 'open') = (settled_at IS NULL))
);

CREATE INDEX trades_open_due_idx ON trades (expires_at) WHERE status = 'open';
CREATE INDEX trades_history_idx ON trades (user_id, is_practice, start_time DESC, id DESC);

-- Raw ticks, kept for a short while: exact settlement after a restart and the audit's
-- "ticks around entry and exit". Pruned by age (see server/src/prices).
CREATE TABLE price_ticks (
  symbol text NOT NULL,
  at timestamptz NOT NULL,
  price double precision NOT NULL,
  source text NOT NULL
);

CREATE INDEX price_ticks_symbol_at_idx ON price_ticks (symbol, at);

-- Candles: 1-second (kept 48 h) and 1-minute (kept). close_at is the time of the last tick
-- inside the bucket, so "the price in force at T" can be read from them after a restart.
CREATE TABLE candles_1s (
  symbol text NOT NULL,
  bucket timestamptz NOT NULL,
  open double precision NOT NULL,
  high double precision NOT NULL,
  low double precision NOT NULL,
  close double precision NOT NULL,
  close_at timestamptz NOT NULL,
  ticks integer NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (symbol, bucket)
);

CREATE TABLE candles_1m (
  symbol text NOT NULL,
  bucket timestamptz NOT NULL,
  open double precision NOT NULL,
  high double precision NOT NULL,
  low double precision NOT NULL,
  close double precision NOT NULL,
  close_at timestamptz NOT NULL,
  ticks integer NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (symbol, bucket)
);

-- Idempotency-Key: the first reply to a key is kept and replayed; the hash of the request
-- tells a replay from a different request under the same key.
CREATE TABLE idempotency_keys (
  user_id bigint NOT NULL REFERENCES users (id),
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer NOT NULL,
  response_body jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);

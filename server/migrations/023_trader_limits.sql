-- Trader limits, time-outs and self-exclusion (issue 14 items 1 and 2), owned by the
-- responsible-trading module; place_trades (server/sql/functions/030_trading.sql) reads them
-- inside the trade's own statement, and deposit creation inside the deposit's transaction.

-- One row per trader and limit kind (domain/src/trader-limits.ts): `value` in force until
-- `pending_effective_at`, then `pending_value` (a raise or removal waiting out the 24-hour
-- cooling-off). Money limits in cents, open_trades a count, session_minutes minutes. A row
-- with no value and nothing pending is deleted.
CREATE TABLE trader_limits (
  user_id bigint NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('loss_day', 'loss_week', 'loss_month', 'stake_day',
    'stake_week', 'stake_month', 'deposit_day', 'deposit_week', 'deposit_month',
    'open_trades', 'session_minutes')),
  value bigint CHECK (value > 0),
  pending_value bigint CHECK (pending_value > 0),
  pending_effective_at timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind),
  -- A pending change is known by its time; its value is null for a removal.
  CHECK (pending_value IS NULL OR pending_effective_at IS NOT NULL)
);

-- Time-outs and self-exclusions, kept after they end (staff see the history). A closure
-- (issue 14 item 7) is an exclusion with no end. An exclusion is never shortened: a new one
-- must end after the one in force.
CREATE TABLE trader_exclusions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('time_out', 'self_exclusion', 'closure')),
  started_at timestamptz NOT NULL,
  ends_at timestamptz,
  CHECK (ends_at IS NULL OR ends_at > started_at),
  CHECK ((kind = 'closure') = (ends_at IS NULL))
);
CREATE INDEX trader_exclusions_user_idx ON trader_exclusions (user_id, started_at DESC);

-- A trader's open trades, counted for the open-trades limit without reading their history.
CREATE INDEX trades_open_by_user_idx ON trades (user_id) WHERE status = 'open';

-- The session's sign-in, for the session time limit, travels with each request.
ALTER TYPE place_trade_in ADD ATTRIBUTE session_started_at timestamptz;

-- place_trades returns each refused request's guard (its reason as data); a function's
-- result type cannot be replaced, so it is dropped here and created again at start.
DROP FUNCTION IF EXISTS place_trades(jsonb, text);

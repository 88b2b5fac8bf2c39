-- The real share of losing accounts (issue 14 item 5): once a day the disclosure module
-- computes, from the ledger, how many real-money trader accounts traded in the last 12
-- months and how many of them lost money trading over those months, and keeps the result
-- here so the figure shown is stable through the day and auditable afterwards. One row per
-- UTC day of the platform clock. Owned by the disclosure module.

CREATE TABLE losing_accounts_snapshots (
  id bigserial PRIMARY KEY,
  computed_on date NOT NULL UNIQUE,
  computed_at timestamptz NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  accounts_traded integer NOT NULL CHECK (accounts_traded >= 0),
  accounts_lost integer NOT NULL CHECK (accounts_lost >= 0 AND accounts_lost <= accounts_traded),
  -- The minimum in force when it was computed (LOSING_ACCOUNTS_MIN_ACCOUNTS).
  min_accounts integer NOT NULL CHECK (min_accounts >= 1),
  -- Whole percent, rounded half up; null below the minimum (never a made-up figure).
  lost_percent integer CHECK (lost_percent BETWEEN 0 AND 100),
  CHECK (period_start < period_end),
  CHECK ((lost_percent IS NULL) = (accounts_traded < min_accounts))
);

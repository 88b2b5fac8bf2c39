-- The reality check (issue 14 item 3): each trader's choice of whether a dialog shows the
-- session's length, stakes, result and trades, and how often (10 to 60 minutes). No row
-- means the default: on, every 60 minutes. Owned by the responsible-trading module, which
-- later items (limits, self-exclusion) extend.

CREATE TABLE reality_check_settings (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  enabled boolean NOT NULL,
  interval_minutes integer NOT NULL CHECK (interval_minutes BETWEEN 10 AND 60),
  updated_at timestamptz NOT NULL
);

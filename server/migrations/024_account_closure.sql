-- Account closure (issue 14 item 7). A trader asks; trading and deposits stop at once (a
-- 'closure' row in trader_exclusions); the worker closes the account once nothing is in
-- flight and no real money is left, erasing credentials and pseudonymising what record
-- keeping does not need; RECORD_RETENTION_YEARS later it erases the identity kept for AML.
-- Owned by the account-closure module.
CREATE TABLE account_closures (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  requested_at timestamptz NOT NULL,
  closed_at timestamptz,
  -- Set at closing: closed_at + RECORD_RETENTION_YEARS, when the kept identity is erased.
  erase_after timestamptz,
  erased_at timestamptz,
  CHECK ((closed_at IS NULL) = (erase_after IS NULL)),
  CHECK (erased_at IS NULL OR closed_at IS NOT NULL)
);

-- The worker's two questions: which requests wait to close, which closed accounts are due.
CREATE INDEX account_closures_waiting_idx ON account_closures (requested_at) WHERE closed_at IS NULL;
CREATE INDEX account_closures_due_idx ON account_closures (erase_after)
  WHERE closed_at IS NOT NULL AND erased_at IS NULL;

-- The account's own state, on the row every sign-in and mail path already reads (written by
-- the users module when the closure module closes the account).
ALTER TABLE users ADD COLUMN closed_at timestamptz;

-- Timing receipts (issue 15 item 5): when each trade's request reached the platform, beside
-- its acceptance (start_time: the moment its entry price and expiry were fixed) and its
-- entry tick (entry_at, feed). Null for trades placed before this column.
ALTER TABLE trades ADD COLUMN received_at timestamptz;
ALTER TYPE place_trade_in ADD ATTRIBUTE received_at timestamptz;

-- The rulebook's version each trade was placed under (issue 15 item 4,
-- domain/src/rulebook.ts); null for trades placed before the rulebook was published.
ALTER TABLE trades ADD COLUMN rule_version integer;
ALTER TYPE place_trade_in ADD ATTRIBUTE rule_version integer;

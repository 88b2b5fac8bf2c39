-- The open trades, apart from the trades' record (issue 16 item 1: "no index churn on hot
-- columns"). Settling a trade set its status, a column in the predicate of the trades' three
-- partial indexes of open trades; PostgreSQL then could not update the row heap-only (HOT),
-- and wrote a new entry into every index of trades for each trade settled: ~40 % of the
-- settled records' statement (bench/RESULTS.md, issue 16's eleventh session).
--   - open_trades holds one row per open trade, written by place_trades and deleted by
--     settle_trades in the same statements that open and settle it; the indexes that find
--     open trades (due by partition, due by expiry, a trader's open trades) move onto it.
--     A deleted row's index entries are not touched.
--   - trades keeps every column and index that history, statements and the audit read. No
--     index of trades names status any more, so a settled trade's row is updated heap-only
--     when its page has room and none of its indexed values change (a losing trade's credit
--     entry stays null; a feed-down refund's reason is set, rarely). fillfactor leaves that
--     room: a page of trades placed together is settled together, in one batch, whose new
--     versions must fit beside the old ones until the next prune.
-- No foreign key to trades: place_trades writes both rows in one statement, and a check per
-- placed trade would read trades' primary key again for nothing.
-- Never edit this file once it has landed; add a new numbered one.
CREATE TABLE open_trades (
  trade_id bigint PRIMARY KEY,
  user_id bigint NOT NULL,
  is_practice boolean NOT NULL,
  expires_at timestamptz NOT NULL
);

INSERT INTO open_trades (trade_id, user_id, is_practice, expires_at)
SELECT id, user_id, is_practice, expires_at FROM trades WHERE status = 'open';

-- As migration 033's: the partition (user id modulo settlement_partitions) first, so a claim
-- reads its own due trades in order and stops; (expires_at, trade_id) for the single
-- partition, the next expiry and the due count; a trader's open trades for their limit and
-- an account's closure.
CREATE INDEX open_trades_due_partition_idx ON open_trades ((user_id % 2), expires_at, trade_id);
CREATE INDEX open_trades_due_order_idx ON open_trades (expires_at, trade_id);
CREATE INDEX open_trades_by_user_idx ON open_trades (user_id);

DROP INDEX trades_open_due_partition_idx;
DROP INDEX trades_open_due_order_idx;
DROP INDEX trades_open_by_user_idx;

ALTER TABLE trades SET (fillfactor = 35);

-- The credit entry of each credited trade, found by entry, in a table of its own (issue 16
-- item 1). trades_settled_entry_idx (migration 031) let a statement find the trades a payout
-- or refund entry credited; but a trade won or refunded changes settled_entry_id from null
-- as it settles, so with that index its row could not be updated heap-only (migration 036),
-- and it wrote a new entry into each of trades' indexes: half of all settled trades.
-- trade_credit_entries is that index as a narrow table, written by settle_trades in the
-- statement that credits the trades; trades.settled_entry_id stays, unindexed, for the
-- trade's own record, the exports and reconciliation.
-- Never edit this file once it has landed; add a new numbered one.
CREATE TABLE trade_credit_entries (
  entry_id bigint NOT NULL,
  trade_id bigint NOT NULL,
  PRIMARY KEY (entry_id, trade_id)
);

INSERT INTO trade_credit_entries (entry_id, trade_id)
SELECT settled_entry_id, id FROM trades WHERE settled_entry_id IS NOT NULL;

DROP INDEX trades_settled_entry_idx;

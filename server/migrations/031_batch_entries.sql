-- One journal entry per batch of trades (issue 16 items 1 and 2), where there was an entry
-- with two postings per trade: half of a placed or settled trade's database time.
--   - A place_trades call's stakes are one `trade_stake` entry (`placement:<first trade id
--     drawn>:trade_stake`), with one posting per trader account (the sum of its stakes in
--     the call) and one per house shard.
--   - A settlement batch's payouts are one `trade_payout` entry (`settlement:<lowest trade
--     id>:trade_payout`) and its refunds one `trade_refund` entry (`…:trade_refund`), with one
--     posting per house shard and one per trader account credited.
-- Each trade names the entries that staked and credited it, so a statement still says which
-- trades a line moved money for, and reconciliation checks every entry against its trades.
-- Never edit this file once it has landed; add a new numbered one.
ALTER TABLE trades
  ADD COLUMN placed_entry_id bigint,
  ADD COLUMN settled_entry_id bigint;

-- Trades placed and settled before this migration had entries of their own (`trade:<id>`):
-- they name them too, so every trade's entries are found the same way.
UPDATE trades t SET
  placed_entry_id = (SELECT e.id FROM journal_entries e
                     WHERE e.reference = 'trade:' || t.id AND e.kind = 'trade_stake'),
  settled_entry_id = (SELECT e.id FROM journal_entries e
                      WHERE e.reference = 'trade:' || t.id
                        AND e.kind IN ('trade_payout', 'trade_refund'));

-- Statements find an entry's trades by these. The second is partial: lost trades (half of
-- all) have no credit entry.
CREATE INDEX trades_placed_entry_idx ON trades (placed_entry_id);
CREATE INDEX trades_settled_entry_idx ON trades (settled_entry_id)
  WHERE settled_entry_id IS NOT NULL;

-- One journal entry per settlement batch (issue 16 item 1): a batch's payouts are one
-- `trade_payout` entry and its refunds one `trade_refund` entry, each with one posting per
-- house shard and one per trader account credited (the sum of that account's credits in
-- the batch), where there was an entry with two postings per credited trade. The entry's
-- reference names the batch (`settlement:<lowest trade id>:payout` or `:refund`), and each
-- credited trade names its entry here, so a statement still says which trades a payout
-- paid and reconciliation checks every entry against the credits of its trades.
-- Never edit this file once it has landed; add a new numbered one.
ALTER TABLE trades ADD COLUMN settled_entry_id bigint;

-- Trades settled before this migration were paid by an entry of their own
-- (`trade:<id>`): they name it too, so every credited trade is found the same way.
UPDATE trades t SET settled_entry_id = e.id
FROM journal_entries e
WHERE e.kind IN ('trade_payout', 'trade_refund') AND e.reference = 'trade:' || t.id;

-- Statements and reconciliation find a payout's trades by it. Partial: lost trades (half
-- of all) have no entry and no index entry.
CREATE INDEX trades_settled_entry_idx ON trades (settled_entry_id)
  WHERE settled_entry_id IS NOT NULL;

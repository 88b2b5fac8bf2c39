-- The public market status page (GET /market-halts) lists, for each feed halt, the trades
-- refunded because the feed was down across their expiry. Anyone may call it, so it must
-- not scan every trade: this index holds only those refunds, by asset and expiry.
CREATE INDEX trades_feed_down_refunds_idx ON trades (asset, expires_at)
  WHERE refund_reason = 'feed_down';

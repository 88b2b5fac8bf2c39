-- Prices a trader can trust (issue 11).
--
-- Backfilled candles: history the platform did not receive live (a provider's history API,
-- or the simulator's own deterministic past) is for the chart only. It is marked so that
-- settlement, which reads the recorded history after a restart, never uses it
-- (PRODUCT.md D1: a trade settles only on ticks the platform itself received live).
ALTER TABLE candles_1s ADD COLUMN backfilled boolean NOT NULL DEFAULT false;
ALTER TABLE candles_1m ADD COLUMN backfilled boolean NOT NULL DEFAULT false;

-- Feed halts: an asset's feed went quiet for longer than the entry limit. Opened by the
-- process ingesting the feed when it notices, closed by the first live tick after it.
-- Public (the market status page lists them with the trades refunded because of them).
CREATE TABLE feed_halts (
  id bigserial PRIMARY KEY,
  symbol text NOT NULL,
  source text NOT NULL,
  -- The time of the last live tick before the halt.
  started_at timestamptz NOT NULL,
  -- The time of the first live tick after it; null while the halt lasts.
  ended_at timestamptz,
  CHECK (ended_at IS NULL OR ended_at >= started_at)
);
CREATE INDEX feed_halts_started_at_idx ON feed_halts (started_at DESC);
-- At most one open halt per asset.
CREATE UNIQUE INDEX feed_halts_open_idx ON feed_halts (symbol) WHERE ended_at IS NULL;

-- Why a trade was refunded, as a code the API and the public halts page can select on
-- ('no_price': nothing recorded for the expiry; 'feed_down': the feed was not shown live
-- across the expiry). The human sentence stays in settlement_note.
ALTER TABLE trades ADD COLUMN refund_reason text
  CHECK (refund_reason IN ('no_price', 'feed_down'));
ALTER TYPE trade_settlement_in ADD ATTRIBUTE refund_reason text;

-- Idempotency-Keys are remembered for a day (server/src/idempotency/idempotency.ts), then
-- pruned oldest first by a worker: without this index each pass would read the whole table,
-- which was the largest one (about 900 bytes a trade) and grew with every trade forever.
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- The settlement claim (issue 16) reads one partition's due open trades (user id modulo
-- settlement_partitions, server/src/trading/settlement.ts) in (expires_at, id) order, 2,000
-- at a time. On the index of expires_at alone, the planner either sorted the whole due
-- backlog (a bitmap scan, on statistics a burst had outrun) or walked it in order and threw
-- away the other partition's rows after reading them (on four partitions, 8,000 rows read
-- for each batch of 2,000 in a burst of 50,000 due).
--   - trades_open_due_partition_idx leads with the partition, so a claim reads its own
--     2,000 rows and stops. Its modulus is settlement_partitions (a test holds them equal).
--   - trades_open_due_order_idx replaces trades_open_due_idx, keyed (expires_at, id) as the
--     claim orders: the embedded database's single partition walks it, and the next expiry
--     and the metrics' due count need only its first column.
-- Never edit this file once it has landed; add a new numbered one.
CREATE INDEX trades_open_due_partition_idx ON trades ((user_id % 2), expires_at, id)
  WHERE status = 'open';
CREATE INDEX trades_open_due_order_idx ON trades (expires_at, id) WHERE status = 'open';
DROP INDEX trades_open_due_idx;

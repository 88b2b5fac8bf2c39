-- Settlement in one call per batch, and audit ticks stored once per (symbol, second).
--
-- Measured before (bench/RESULTS.md): 50,000 trades expiring in one second took 16 s to
-- settle. Each trade carried its own copy of the 80 ticks around its entry and its exit
-- (about 2.8 KB of JSON), and each batch took about ten round trips.

-- The ticks around any instant of one second of one symbol: those within audit_window_ms
-- (5 s) of the second's start or end. Every trade whose entry or expiry falls in that
-- second is audited from this one row; a later settlement in the same second may extend it
-- with ticks that arrived since (ticks never change, so a longer window holds the shorter).
CREATE TABLE trade_audit_windows (
  symbol text NOT NULL,
  second timestamptz NOT NULL,
  ticks jsonb NOT NULL,
  PRIMARY KEY (symbol, second)
);

-- Settles one claimed batch (server/src/trading/settlement.ts decides the outcomes):
-- locks the credited accounts in the ledger's global order (trader accounts, then system
-- accounts, each by id), sets every trade's outcome (all must still be open, or nothing is
-- written), posts one journal entry per credited trade (house shard → trader), moves the
-- balances, stores the audit windows, and returns the batch's traders' balances.
CREATE FUNCTION settle_trades(
  p_ids bigint[],
  p_statuses text[],
  p_exit_prices double precision[],
  p_exit_ats timestamptz[],
  p_exit_feeds text[],
  p_credits bigint[],
  p_lags integer[],
  p_notes text[],
  p_settled_at timestamptz,
  p_credit_trade_ids bigint[],
  p_credit_kinds text[],
  p_credit_trader_accounts bigint[],
  p_credit_house_accounts bigint[],
  p_credit_cents bigint[],
  p_user_ids bigint[],
  p_window_symbols text[],
  p_window_seconds timestamptz[],
  p_window_ticks text[]
) RETURNS TABLE (balance_user_id bigint, real_cents bigint, practice_cents bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_updated integer;
  v_sequence text := pg_get_serial_sequence('journal_entries', 'id');
BEGIN
  PERFORM 1 FROM ledger_accounts a
  WHERE a.id = ANY (p_credit_trader_accounts || p_credit_house_accounts)
  ORDER BY (a.user_id IS NULL), a.id
  FOR NO KEY UPDATE;

  UPDATE trades t
  SET status = u.status, exit_price = u.exit_price, exit_at = u.exit_at, exit_feed = u.exit_feed,
      credit_cents = u.credit, settled_at = p_settled_at, settlement_lag_ms = u.lag,
      settlement_note = u.note
  FROM unnest(p_ids, p_statuses, p_exit_prices, p_exit_ats, p_exit_feeds, p_credits, p_lags,
              p_notes) AS u(id, status, exit_price, exit_at, exit_feed, credit, lag, note)
  WHERE t.id = u.id AND t.status = 'open';
  GET DIAGNOSTICS v_updated = ROW_COUNT;
  IF v_updated <> cardinality(p_ids) THEN
    RAISE EXCEPTION 'settled % of % claimed trades', v_updated, cardinality(p_ids);
  END IF;

  WITH credit AS (
    SELECT nextval(v_sequence) AS entry_id, c.*
    FROM unnest(p_credit_trade_ids, p_credit_kinds, p_credit_trader_accounts,
                p_credit_house_accounts, p_credit_cents)
      AS c(trade_id, kind, trader_account, house_account, cents)
  ), entries AS (
    INSERT INTO journal_entries (id, kind, reference, created_at)
    SELECT entry_id, kind, 'trade:' || trade_id, p_settled_at FROM credit
  )
  INSERT INTO postings (entry_id, account_id, amount_cents)
  SELECT entry_id, house_account, -cents FROM credit
  UNION ALL
  SELECT entry_id, trader_account, cents FROM credit;

  UPDATE ledger_accounts a SET balance_cents = a.balance_cents + d.delta
  FROM (
    SELECT m.account_id, SUM(m.delta) AS delta
    FROM (
      SELECT * FROM unnest(p_credit_trader_accounts, p_credit_cents) AS t(account_id, delta)
      UNION ALL
      SELECT h.account_id, -h.delta
      FROM unnest(p_credit_house_accounts, p_credit_cents) AS h(account_id, delta)
    ) m
    GROUP BY m.account_id
  ) d
  WHERE a.id = d.account_id;

  -- Sorted, so two batches writing the same windows take their row locks in one order.
  INSERT INTO trade_audit_windows (symbol, second, ticks)
  SELECT w.symbol, w.second, w.ticks::jsonb
  FROM unnest(p_window_symbols, p_window_seconds, p_window_ticks) AS w(symbol, second, ticks)
  ORDER BY w.symbol, w.second
  ON CONFLICT (symbol, second) DO UPDATE SET ticks = EXCLUDED.ticks
  WHERE jsonb_array_length(EXCLUDED.ticks) > jsonb_array_length(trade_audit_windows.ticks);

  RETURN QUERY
    SELECT a.user_id,
           COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'real'), 0)::bigint,
           COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'practice'), 0)::bigint
    FROM ledger_accounts a
    WHERE a.user_id = ANY (p_user_ids) AND a.currency = 'USD'
    GROUP BY a.user_id;
END
$$;

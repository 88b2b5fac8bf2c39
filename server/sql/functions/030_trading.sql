-- Placing and settling trades in one round trip per batch (server/src/trading/). Money moves
-- only through the ledger's functions (010_ledger.sql), keys only through idempotency's
-- (020_idempotency.sql); these functions own the trades and their audit windows.

-- Places a batch of trade requests (p_items: a JSON array of place_trade_in, in arrival
-- order) in one statement, atomic by itself; each request keeps its own outcome:
-- 'placed' (trade id and both balances after the debit); 'replay' (its Idempotency-Key was
-- used before: the stored reply and request hash, which the caller compares); 'insufficient'
-- (the stake is more than the balance); 'refused' (the caller's refusal, applied only once
-- the money is known to be there, so "Insufficient balance" comes first). Only 'placed'
-- requests write anything; a short or refused request's key is released.
--
-- Locks: Idempotency-Keys first, in (user, key) order, holding no account lock while a key
-- in use by a running call makes this one wait; then the ledger's global order (ledger_post).
CREATE OR REPLACE FUNCTION place_trades(p_items jsonb, p_currency text)
RETURNS TABLE (
  item integer,
  outcome text,
  trade_id bigint,
  real_cents bigint,
  practice_cents bigint,
  stored_status integer,
  stored_body jsonb,
  stored_hash text
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  -- jsonb_populate_recordset yields the array's elements in order (one function scan).
  v_items place_trade_in[] := ARRAY(
    SELECT i FROM jsonb_populate_recordset(NULL::place_trade_in, p_items) AS i
  );
  v_count integer := COALESCE(cardinality(v_items), 0);
  v_outcome text[] := array_fill(NULL::text, ARRAY[v_count]);
  v_stored jsonb[] := array_fill(NULL::jsonb, ARRAY[v_count]);
  v_trade bigint[];
  v_accounts bigint[];
  v_houses bigint[];
  v_entry_items integer[];
  v_keyed integer[];
  r record;
BEGIN
  -- 1. Idempotency keys, claimed in one order (user, key) by the idempotency module.
  v_keyed := ARRAY(
    SELECT i.ordinality::integer FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE i.key IS NOT NULL ORDER BY i.ordinality
  );
  FOR r IN
    SELECT v_keyed[c.ord] AS item_ord, c.fresh, c.request_hash, c.status_code, c.response_body
    FROM idempotency_claim_all(ARRAY(
      SELECT ROW(i.user_id, i.key, i.hash, i.start_time)::idempotency_key_in
      FROM unnest(v_items) WITH ORDINALITY AS i
      WHERE i.key IS NOT NULL ORDER BY i.ordinality
    )) AS c
    WHERE NOT c.fresh
  LOOP
    v_outcome[r.item_ord] := 'replay';
    v_stored[r.item_ord] := jsonb_build_object('status', r.status_code, 'body', r.response_body,
                                               'hash', r.request_hash);
  END LOOP;

  -- 2. The accounts: each trader's, and the house shard its stake goes to; trade ids for
  --    the requests that will be placed if the money is there.
  v_accounts := ledger_trader_account_ids(ARRAY(
    SELECT ROW(i.user_id, i.is_practice)::ledger_trader_account_in
    FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality
  ), p_currency);
  v_houses := ledger_system_account_ids(ARRAY(
    SELECT i.house_code FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality
  ), p_currency);
  v_trade := ARRAY(
    SELECT CASE WHEN v_outcome[i.ordinality] IS NULL AND i.refusal IS NULL
                THEN nextval(pg_get_serial_sequence('trades', 'id')) END
    FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality
  );

  -- 3. One stake entry per request not replayed (trader → house shard), a probe for a
  --    request refused anyway; the ledger decides which have the money, in arrival order.
  v_entry_items := ARRAY(
    SELECT i.ordinality::integer FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE v_outcome[i.ordinality] IS NULL ORDER BY i.ordinality
  );
  FOR r IN
    SELECT p.ord, p.outcome FROM ledger_post(ARRAY(
      SELECT ROW('trade_stake', 'trade:' || COALESCE(v_trade[n]::text, 'refused'), i.start_time,
                 i.refusal IS NOT NULL,
                 ARRAY[ROW(v_accounts[n], -i.stake_cents)::ledger_posting_in,
                       ROW(v_houses[n], i.stake_cents)::ledger_posting_in])::ledger_entry_in
      FROM unnest(v_entry_items) WITH ORDINALITY AS x(n, position)
      JOIN LATERAL (SELECT (v_items[x.n]).*) AS i ON true
      ORDER BY x.position
    )) AS p
  LOOP
    v_outcome[v_entry_items[r.ord]] := CASE r.outcome
      WHEN 'posted' THEN 'placed' WHEN 'short' THEN 'insufficient' ELSE 'refused' END;
  END LOOP;

  -- 4. The placed trades, and their keys' replies; a key whose request wrote nothing is
  --    released.
  INSERT INTO trades (id, user_id, is_practice, asset, direction, stake_cents, duration_seconds,
                      payout_percent, entry_price, entry_at, feed, start_time, expires_at)
  SELECT v_trade[i.ordinality], i.user_id, i.is_practice, i.asset, i.direction, i.stake_cents,
         i.duration_seconds, i.payout_percent, i.entry_price, i.entry_at, i.feed, i.start_time,
         i.expires_at
  FROM unnest(v_items) WITH ORDINALITY AS i
  WHERE v_outcome[i.ordinality] = 'placed';
  PERFORM idempotency_complete_all(ARRAY(
    SELECT ROW(i.user_id, i.key, 201,
               jsonb_set(i.reply, '{data,trade,id}', to_jsonb(v_trade[i.ordinality])))
             ::idempotency_reply_in
    FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE i.key IS NOT NULL AND v_outcome[i.ordinality] = 'placed'
  ));
  PERFORM idempotency_release_all(ARRAY(
    SELECT ROW(i.user_id, i.key, i.hash, i.start_time)::idempotency_key_in
    FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE i.key IS NOT NULL AND v_outcome[i.ordinality] IN ('insufficient', 'refused')
  ));

  RETURN QUERY
    SELECT i.ordinality::integer, v_outcome[i.ordinality], v_trade[i.ordinality],
           b.real_cents, b.practice_cents,
           (v_stored[i.ordinality]->>'status')::integer, v_stored[i.ordinality]->'body',
           v_stored[i.ordinality]->>'hash'
    FROM unnest(v_items) WITH ORDINALITY AS i
    LEFT JOIN ledger_trader_balances(ARRAY(
      SELECT DISTINCT x.user_id FROM unnest(v_items) WITH ORDINALITY AS x
      WHERE v_outcome[x.ordinality] = 'placed'
    ), p_currency) AS b ON b.user_id = i.user_id AND v_outcome[i.ordinality] = 'placed'
    ORDER BY i.ordinality;
END
$$;

-- Settles one claimed batch (server/src/trading/settlement.ts decides the outcomes; p_trades
-- is a JSON array of trade_settlement_in, p_windows of trade_audit_window_in): sets every
-- trade's outcome (all must still be open, or nothing is written), posts one journal entry
-- per credited trade (its house shard → the trader) through the ledger, stores the audit
-- windows, and returns the batch's traders' balances.
CREATE OR REPLACE FUNCTION settle_trades(
  p_trades jsonb,
  p_windows jsonb,
  p_settled_at timestamptz,
  p_currency text
) RETURNS TABLE (balance_user_id bigint, real_cents bigint, practice_cents bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_trades trade_settlement_in[] := ARRAY(
    SELECT t FROM jsonb_populate_recordset(NULL::trade_settlement_in, p_trades) AS t
  );
  v_credited trade_settlement_in[];
  v_accounts bigint[];
  v_houses bigint[];
  v_updated integer;
  v_unposted integer;
BEGIN
  UPDATE trades t
  SET status = u.status, exit_price = u.exit_price, exit_at = u.exit_at, exit_feed = u.exit_feed,
      credit_cents = u.credit_cents, settled_at = p_settled_at, settlement_lag_ms = u.lag_ms,
      settlement_note = u.note, refund_reason = u.refund_reason
  FROM unnest(v_trades) AS u
  WHERE t.id = u.trade_id AND t.status = 'open';
  GET DIAGNOSTICS v_updated = ROW_COUNT;
  IF v_updated <> COALESCE(cardinality(v_trades), 0) THEN
    RAISE EXCEPTION 'settled % of % claimed trades', v_updated, cardinality(v_trades);
  END IF;

  v_credited := ARRAY(SELECT u FROM unnest(v_trades) AS u WHERE u.credit_cents > 0);
  v_accounts := ledger_trader_account_ids(ARRAY(
    SELECT ROW(c.user_id, c.is_practice)::ledger_trader_account_in
    FROM unnest(v_credited) WITH ORDINALITY AS c ORDER BY c.ordinality
  ), p_currency);
  v_houses := ledger_system_account_ids(ARRAY(
    SELECT c.house_code FROM unnest(v_credited) WITH ORDINALITY AS c ORDER BY c.ordinality
  ), p_currency);
  SELECT COUNT(*) INTO v_unposted
  FROM ledger_post(ARRAY(
    SELECT ROW(CASE WHEN c.status = 'won' THEN 'trade_payout' ELSE 'trade_refund' END,
               'trade:' || c.trade_id, p_settled_at, false,
               ARRAY[ROW(v_houses[c.ordinality], -c.credit_cents)::ledger_posting_in,
                     ROW(v_accounts[c.ordinality], c.credit_cents)::ledger_posting_in]
           )::ledger_entry_in
    FROM unnest(v_credited) WITH ORDINALITY AS c ORDER BY c.ordinality
  )) AS p
  WHERE p.outcome <> 'posted';
  IF v_unposted > 0 THEN
    RAISE EXCEPTION '% credits of the batch were not posted', v_unposted;
  END IF;

  -- Sorted, so two batches writing the same windows take their row locks in one order.
  INSERT INTO trade_audit_windows (symbol, second, ticks)
  SELECT w.symbol, w.second, w.ticks
  FROM jsonb_populate_recordset(NULL::trade_audit_window_in, p_windows) AS w
  ORDER BY w.symbol, w.second
  ON CONFLICT (symbol, second) DO UPDATE SET ticks = EXCLUDED.ticks
  WHERE jsonb_array_length(EXCLUDED.ticks) > jsonb_array_length(trade_audit_windows.ticks);

  RETURN QUERY
    SELECT b.user_id, b.real_cents, b.practice_cents
    FROM ledger_trader_balances(ARRAY(SELECT DISTINCT u.user_id FROM unnest(v_trades) AS u),
                                p_currency) AS b;
END
$$;

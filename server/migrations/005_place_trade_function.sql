-- Placing trades in one round trip per batch. The application used to send twelve
-- statements per trade (bench/RESULTS.md): each a network round trip, a parse and a plan,
-- and each trade its own commit (a WAL flush). place_trades takes every trade request that
-- arrived while the previous call ran and does their writes in one statement, atomic by
-- itself; each request still gets its own outcome.
--
-- Each item names its house shard (house_code). Locks follow the ledger's global order (server/src/ledger/ledger.ts): all the batch's
-- trader accounts first, by id, then the house shards, by id, so a batch cannot deadlock
-- with a settlement batch, a top-up or another place_trades call.
--
-- Outcome per item: 'placed' (trade id and both balances after the debit); 'replay' (an
-- Idempotency-Key already used: its stored reply and request hash, which the caller
-- compares); 'insufficient' (the stake is more than the balance); 'refused' (the caller's
-- refusal, applied only once the money is known to be there, so "Insufficient balance"
-- comes first). Only 'placed' items write anything; a refused or short item's key is
-- released, as if the request had never come.
CREATE FUNCTION place_trades(p_items jsonb)
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
DECLARE
  r record;
  v_count integer := jsonb_array_length(p_items);
  v_outcome text[] := array_fill(NULL::text, ARRAY[jsonb_array_length(p_items)]);
  v_account bigint[] := array_fill(NULL::bigint, ARRAY[jsonb_array_length(p_items)]);
  v_stored jsonb[] := array_fill(NULL::jsonb, ARRAY[jsonb_array_length(p_items)]);
  v_trade bigint[] := array_fill(NULL::bigint, ARRAY[jsonb_array_length(p_items)]);
  v_debited bigint;
  v_stored_one jsonb;
BEGIN
  -- 1. Idempotency keys, in one order (user, key): a key in use by a call still running
  --    makes this one wait, holding no account lock, until it commits (replay) or not.
  FOR r IN
    SELECT x.ord::integer AS ord, x.value AS v
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
    WHERE x.value->>'key' IS NOT NULL
    ORDER BY (x.value->>'user_id')::bigint, x.value->>'key'
  LOOP
    INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
    VALUES ((r.v->>'user_id')::bigint, r.v->>'key', r.v->>'hash', 0, 'null'::jsonb,
            (r.v->>'start_time')::timestamptz)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      v_outcome[r.ord] := 'replay';
      SELECT jsonb_build_object('status', k.status_code, 'body', k.response_body,
                                'hash', k.request_hash)
      INTO v_stored_one
      FROM idempotency_keys k
      WHERE k.user_id = (r.v->>'user_id')::bigint AND k.key = r.v->>'key';
      v_stored[r.ord] := v_stored_one;
    END IF;
  END LOOP;

  -- 2. Every trader account of the batch, locked by id.
  PERFORM 1 FROM ledger_accounts a
  WHERE a.currency = 'USD' AND (a.user_id, a.code) IN (
    SELECT (x->>'user_id')::bigint,
           CASE WHEN (x->>'is_practice')::boolean THEN 'practice' ELSE 'real' END
    FROM jsonb_array_elements(p_items) AS x
  )
  ORDER BY a.id
  FOR NO KEY UPDATE;

  -- 3. The guarded debits, in arrival order (the locks are all held already).
  FOR r IN
    SELECT x.ord::integer AS ord, x.value AS v
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
    ORDER BY x.ord
  LOOP
    CONTINUE WHEN v_outcome[r.ord] IS NOT NULL;
    IF r.v->>'refusal' IS NOT NULL THEN
      -- Refused whatever the balance; only the message depends on it.
      SELECT a.id INTO v_debited FROM ledger_accounts a
      WHERE a.user_id = (r.v->>'user_id')::bigint AND a.currency = 'USD'
        AND a.code = CASE WHEN (r.v->>'is_practice')::boolean THEN 'practice' ELSE 'real' END
        AND a.balance_cents >= (r.v->>'stake_cents')::bigint;
      v_outcome[r.ord] := CASE WHEN v_debited IS NULL THEN 'insufficient' ELSE 'refused' END;
      CONTINUE;
    END IF;
    UPDATE ledger_accounts a SET balance_cents = a.balance_cents - (r.v->>'stake_cents')::bigint
    WHERE a.user_id = (r.v->>'user_id')::bigint AND a.currency = 'USD'
      AND a.code = CASE WHEN (r.v->>'is_practice')::boolean THEN 'practice' ELSE 'real' END
      AND a.balance_cents >= (r.v->>'stake_cents')::bigint
    RETURNING a.id INTO v_debited;
    IF v_debited IS NULL THEN
      v_outcome[r.ord] := 'insufficient';
    ELSE
      v_outcome[r.ord] := 'placed';
      v_account[r.ord] := v_debited;
      v_trade[r.ord] := nextval(pg_get_serial_sequence('trades', 'id'));
    END IF;
  END LOOP;

  -- 4. The house shards, locked by id, credited once each with their sum.
  PERFORM 1 FROM ledger_accounts a
  WHERE a.user_id IS NULL AND a.currency = 'USD' AND a.code IN (
    SELECT x.value->>'house_code'
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
    WHERE v_outcome[x.ord] = 'placed'
  )
  ORDER BY a.id
  FOR NO KEY UPDATE;
  UPDATE ledger_accounts a SET balance_cents = a.balance_cents + h.cents
  FROM (
    SELECT x.value->>'house_code' AS code, SUM((x.value->>'stake_cents')::bigint) AS cents
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
    WHERE v_outcome[x.ord] = 'placed'
    GROUP BY 1
  ) h
  WHERE a.user_id IS NULL AND a.currency = 'USD' AND a.code = h.code;

  -- 5. The trades, their stake entries (trader → house shard) and the keys' replies.
  WITH placed AS (
    SELECT x.ord::integer AS ord, x.value AS v, v_trade[x.ord] AS id, v_account[x.ord] AS account,
           nextval(pg_get_serial_sequence('journal_entries', 'id')) AS entry_id
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
    WHERE v_outcome[x.ord] = 'placed'
  ), trades_in AS (
    INSERT INTO trades (id, user_id, is_practice, asset, direction, stake_cents,
                        duration_seconds, payout_percent, entry_price, entry_at, feed,
                        start_time, expires_at)
    SELECT p.id, (p.v->>'user_id')::bigint, (p.v->>'is_practice')::boolean, p.v->>'asset',
           p.v->>'direction', (p.v->>'stake_cents')::bigint,
           (p.v->>'duration_seconds')::integer, (p.v->>'payout_percent')::integer,
           (p.v->>'entry_price')::double precision, (p.v->>'entry_at')::timestamptz,
           p.v->>'feed', (p.v->>'start_time')::timestamptz, (p.v->>'expires_at')::timestamptz
    FROM placed p
  ), entries_in AS (
    INSERT INTO journal_entries (id, kind, reference, created_at)
    SELECT p.entry_id, 'trade_stake', 'trade:' || p.id, (p.v->>'start_time')::timestamptz
    FROM placed p
  ), keys_done AS (
    UPDATE idempotency_keys k
    SET status_code = 201,
        response_body = jsonb_set(p.v->'reply', '{data,trade,id}', to_jsonb(p.id))
    FROM placed p
    WHERE p.v->>'key' IS NOT NULL
      AND k.user_id = (p.v->>'user_id')::bigint AND k.key = p.v->>'key'
  )
  INSERT INTO postings (entry_id, account_id, amount_cents)
  SELECT p.entry_id, p.account, -(p.v->>'stake_cents')::bigint FROM placed p
  UNION ALL
  SELECT p.entry_id, a.id, (p.v->>'stake_cents')::bigint
  FROM placed p
  JOIN ledger_accounts a
    ON a.user_id IS NULL AND a.currency = 'USD' AND a.code = p.v->>'house_code';

  -- 6. A key whose request wrote nothing is released.
  DELETE FROM idempotency_keys k
  USING jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
  WHERE v_outcome[x.ord] IN ('insufficient', 'refused') AND x.value->>'key' IS NOT NULL
    AND k.user_id = (x.value->>'user_id')::bigint AND k.key = x.value->>'key';

  RETURN QUERY
    SELECT x.ord::integer, v_outcome[x.ord], v_trade[x.ord],
           b.real_cents, b.practice_cents,
           (v_stored[x.ord]->>'status')::integer, v_stored[x.ord]->'body',
           v_stored[x.ord]->>'hash'
    FROM jsonb_array_elements(p_items) WITH ORDINALITY AS x(value, ord)
    LEFT JOIN LATERAL (
      SELECT COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'real'), 0)::bigint
               AS real_cents,
             COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'practice'), 0)::bigint
               AS practice_cents
      FROM ledger_accounts a
      WHERE a.user_id = (x.value->>'user_id')::bigint AND a.currency = 'USD'
    ) b ON v_outcome[x.ord] = 'placed'
    ORDER BY x.ord;
END
$$;

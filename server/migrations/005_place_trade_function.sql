-- Placing a trade in one round trip. The application used to send twelve statements per
-- trade (bench/RESULTS.md): each a network round trip, a parse and a plan, with the trader's
-- and the house's rows locked across all of them. This function does the same writes in
-- the same order inside the database: one call, one statement, atomic by itself.
--
-- Order and locks are the ledger's (server/src/ledger/ledger.ts): the trader account is
-- debited first by the guarded update (never below zero), then the house shard, so locks
-- are taken trader first, system last, as every other ledger writer takes them.
--
-- Outcomes: 'placed' with the trade id and both balances after the debit; 'replay' with the
-- stored reply of an Idempotency-Key already used (the caller compares request hashes).
-- A missing balance raises SQLSTATE TP001 and a refusal decided by the caller (p_refusal,
-- applied only once the money is known to be there, so "Insufficient balance" comes
-- first) raises TP002: either way nothing is written.
CREATE FUNCTION place_trade(
  p_user_id bigint,
  p_is_practice boolean,
  p_asset text,
  p_direction text,
  p_stake_cents bigint,
  p_duration_seconds integer,
  p_payout_percent integer,
  p_entry_price double precision,
  p_entry_at timestamptz,
  p_feed text,
  p_start_time timestamptz,
  p_expires_at timestamptz,
  p_house_code text,
  p_refusal text,
  p_idempotency_key text,
  p_request_hash text,
  p_reply jsonb
) RETURNS TABLE (
  outcome text,
  trade_id bigint,
  real_cents bigint,
  practice_cents bigint,
  stored_status integer,
  stored_body jsonb,
  stored_hash text
) LANGUAGE plpgsql AS $$
DECLARE
  v_trader_account bigint;
  v_house_account bigint;
  v_trade_id bigint;
  v_entry_id bigint;
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    -- A concurrent call with the same key waits here until the first commits (replay) or
    -- rolls back (this one runs); it holds no account lock while it waits.
    INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
    VALUES (p_user_id, p_idempotency_key, p_request_hash, 0, 'null'::jsonb, p_start_time)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN QUERY
        SELECT 'replay'::text, NULL::bigint, NULL::bigint, NULL::bigint,
               k.status_code, k.response_body, k.request_hash
        FROM idempotency_keys k
        WHERE k.user_id = p_user_id AND k.key = p_idempotency_key;
      RETURN;
    END IF;
  END IF;

  UPDATE ledger_accounts SET balance_cents = balance_cents - p_stake_cents
  WHERE user_id = p_user_id
    AND code = CASE WHEN p_is_practice THEN 'practice' ELSE 'real' END
    AND currency = 'USD'
    AND balance_cents >= p_stake_cents
  RETURNING id INTO v_trader_account;
  IF v_trader_account IS NULL THEN
    RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'TP001';
  END IF;
  IF p_refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', p_refusal USING ERRCODE = 'TP002';
  END IF;

  UPDATE ledger_accounts SET balance_cents = balance_cents + p_stake_cents
  WHERE user_id IS NULL AND code = p_house_code AND currency = 'USD'
  RETURNING id INTO v_house_account;
  IF v_house_account IS NULL THEN
    RAISE EXCEPTION 'system account % is missing', p_house_code;
  END IF;

  INSERT INTO trades (user_id, is_practice, asset, direction, stake_cents, duration_seconds,
                      payout_percent, entry_price, entry_at, feed, start_time, expires_at)
  VALUES (p_user_id, p_is_practice, p_asset, p_direction, p_stake_cents, p_duration_seconds,
          p_payout_percent, p_entry_price, p_entry_at, p_feed, p_start_time, p_expires_at)
  RETURNING id INTO v_trade_id;

  INSERT INTO journal_entries (kind, reference, created_at)
  VALUES ('trade_stake', 'trade:' || v_trade_id, p_start_time)
  RETURNING id INTO v_entry_id;
  INSERT INTO postings (entry_id, account_id, amount_cents)
  VALUES (v_entry_id, v_trader_account, -p_stake_cents),
         (v_entry_id, v_house_account, p_stake_cents);

  IF p_idempotency_key IS NOT NULL THEN
    UPDATE idempotency_keys
    SET status_code = 201,
        response_body = jsonb_set(p_reply, '{data,trade,id}', to_jsonb(v_trade_id))
    WHERE user_id = p_user_id AND key = p_idempotency_key;
  END IF;

  RETURN QUERY
    SELECT 'placed'::text, v_trade_id,
           COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'real'), 0)::bigint,
           COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'practice'), 0)::bigint,
           NULL::integer, NULL::jsonb, NULL::text
    FROM ledger_accounts a
    WHERE a.user_id = p_user_id AND a.currency = 'USD';
END
$$;

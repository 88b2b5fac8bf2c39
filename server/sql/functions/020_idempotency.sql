-- Idempotency-Key (server/src/idempotency/idempotency.ts owns the table and the one hashing
-- rule): keys are claimed in the transaction of the work they guard, completed with the
-- work's reply, or released when the work wrote nothing. runIdempotent (every money-moving
-- route) passes one key; place_trades passes the keys of its whole batch.

-- Claims keys in one order (user, key). Fresh: the key is now held by this transaction (a
-- concurrent claim of the same key waits on its row until this one commits, then replays,
-- or rolls back, then runs). Not fresh: the stored request hash and reply, for the caller
-- to replay or refuse (409). One row per claim, `ord` its place in p_claims. The reply is
-- stored later (idempotency_complete_all); until then the row holds none (status 0).
CREATE OR REPLACE FUNCTION idempotency_claim_all(p_claims idempotency_key_in[])
RETURNS TABLE (
  ord integer,
  fresh boolean,
  request_hash text,
  status_code integer,
  response_body jsonb
) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM idempotency_claim_all_replied(
    p_claims, 0, array_fill('null'::jsonb, ARRAY[COALESCE(cardinality(p_claims), 0)])
  );
END
$$;

-- Stores the replies of claimed keys' work. One primary-key update per key: the plan is the
-- index lookup whatever the table's size was when the session first planned it.
CREATE OR REPLACE FUNCTION idempotency_complete_all(p_replies idempotency_reply_in[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r idempotency_reply_in;
BEGIN
  FOREACH r IN ARRAY COALESCE(p_replies, '{}') LOOP
    UPDATE idempotency_keys k SET status_code = r.status_code, response_body = r.response_body
    WHERE k.user_id = r.user_id AND k.key = r.key;
  END LOOP;
END
$$;

-- Gives claimed keys back, as if their requests had never come (their work wrote nothing).
CREATE OR REPLACE FUNCTION idempotency_release_all(p_keys idempotency_key_in[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r idempotency_key_in;
BEGIN
  FOREACH r IN ARRAY COALESCE(p_keys, '{}') LOOP
    DELETE FROM idempotency_keys k WHERE k.user_id = r.user_id AND k.key = r.key;
  END LOOP;
END
$$;

-- Claims keys like idempotency_claim_all, storing with each fresh key the reply its work will
-- give when it is done (p_status, and p_bodies[i] for p_claims[i]), so a batch whose work is
-- done needs no second write per key (issue 16: place_trades). The caller must release, in
-- the same transaction, every fresh key whose work it does not do: no other transaction can
-- see the row before commit (a concurrent claim of the key waits on it), so none ever reads a
-- reply for work that was not done. One INSERT for the whole batch, in (user, key) order.
CREATE OR REPLACE FUNCTION idempotency_claim_all_replied(
  p_claims idempotency_key_in[],
  p_status integer,
  p_bodies jsonb[]
) RETURNS TABLE (
  ord integer,
  fresh boolean,
  request_hash text,
  status_code integer,
  response_body jsonb
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_fresh integer[];
BEGIN
  WITH claimed AS (
    INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
    SELECT c.user_id, c.key, c.request_hash, p_status, p_bodies[c.ordinality], c.at
    FROM unnest(p_claims) WITH ORDINALITY AS c
    ORDER BY c.user_id, c.key
    ON CONFLICT DO NOTHING
    RETURNING idempotency_keys.user_id, idempotency_keys.key
  )
  SELECT COALESCE(array_agg(c.ordinality::integer), '{}') INTO v_fresh
  FROM unnest(p_claims) WITH ORDINALITY AS c
  JOIN claimed k ON k.user_id = c.user_id AND k.key = c.key;

  -- A key not fresh was committed by another transaction before this statement's snapshot
  -- (the INSERT waited for it), so the next statement reads its stored reply.
  RETURN QUERY
    SELECT c.ordinality::integer, true, c.request_hash, NULL::integer, NULL::jsonb
    FROM unnest(p_claims) WITH ORDINALITY AS c
    WHERE c.ordinality::integer = ANY (v_fresh)
    UNION ALL
    SELECT c.ordinality::integer, false, k.request_hash, k.status_code, k.response_body
    FROM unnest(p_claims) WITH ORDINALITY AS c
    -- A probe of the key's primary key per claim, whatever the statistics say: as a join,
    -- a plan cached while the table was small read the whole table for every replay (the
    -- LIMIT keeps the planner from turning the probe back into that join).
    CROSS JOIN LATERAL (
      SELECT x.request_hash, x.status_code, x.response_body FROM idempotency_keys x
      WHERE x.user_id = c.user_id AND x.key = c.key
      LIMIT 1
    ) k
    WHERE NOT (c.ordinality::integer = ANY (v_fresh));
END
$$;

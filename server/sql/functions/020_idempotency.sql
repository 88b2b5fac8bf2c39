-- Idempotency-Key (server/src/idempotency/idempotency.ts owns the table and the one hashing
-- rule): keys are claimed in the transaction of the work they guard, completed with the
-- work's reply, or released when the work wrote nothing. runIdempotent (every money-moving
-- route) passes one key; place_trades passes the keys of its whole batch.

-- Claims keys in one order (user, key). Fresh: the key is now held by this transaction (a
-- concurrent claim of the same key waits on its row until this one commits, then replays,
-- or rolls back, then runs). Not fresh: the stored request hash and reply, for the caller
-- to replay or refuse (409). One row per claim, `ord` its place in p_claims.
CREATE OR REPLACE FUNCTION idempotency_claim_all(p_claims idempotency_key_in[])
RETURNS TABLE (
  ord integer,
  fresh boolean,
  request_hash text,
  status_code integer,
  response_body jsonb
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  r record;
  v_stored record;
BEGIN
  FOR r IN
    SELECT c.ordinality::integer AS position, c.user_id, c.key, c.request_hash, c.at
    FROM unnest(p_claims) WITH ORDINALITY AS c
    ORDER BY c.user_id, c.key
  LOOP
    INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
    VALUES (r.user_id, r.key, r.request_hash, 0, 'null'::jsonb, r.at)
    ON CONFLICT DO NOTHING;
    ord := r.position;
    IF FOUND THEN
      fresh := true;
      request_hash := r.request_hash;
      status_code := NULL;
      response_body := NULL;
    ELSE
      SELECT k.request_hash, k.status_code, k.response_body INTO v_stored
      FROM idempotency_keys k WHERE k.user_id = r.user_id AND k.key = r.key;
      fresh := false;
      request_hash := v_stored.request_hash;
      status_code := v_stored.status_code;
      response_body := v_stored.response_body;
    END IF;
    RETURN NEXT;
  END LOOP;
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

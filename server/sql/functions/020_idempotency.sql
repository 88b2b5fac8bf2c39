-- Idempotency-Key (server/src/idempotency/idempotency.ts owns the table and the one hashing
-- rule): a key is claimed in the transaction of the work it guards, completed with the
-- work's reply, or released when the work wrote nothing. Used by every money-moving route
-- through runIdempotent, and by place_trades for each request of its batch.

-- Claims a key. Fresh: the key is now held by this transaction (a concurrent claim of the
-- same key waits on its row until this one commits, then replays, or rolls back, then runs).
-- Not fresh: the stored request hash and reply, for the caller to replay or refuse (409).
CREATE OR REPLACE FUNCTION idempotency_claim(
  p_user_id bigint,
  p_key text,
  p_request_hash text,
  p_at timestamptz
) RETURNS TABLE (fresh boolean, request_hash text, status_code integer, response_body jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at)
  VALUES (p_user_id, p_key, p_request_hash, 0, 'null'::jsonb, p_at)
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    RETURN QUERY SELECT true, p_request_hash, NULL::integer, NULL::jsonb;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT false, k.request_hash, k.status_code, k.response_body
    FROM idempotency_keys k WHERE k.user_id = p_user_id AND k.key = p_key;
END
$$;

-- Stores the reply of a claimed key's work.
CREATE OR REPLACE FUNCTION idempotency_complete(
  p_user_id bigint,
  p_key text,
  p_status_code integer,
  p_response_body jsonb
) RETURNS void LANGUAGE sql AS $$
  UPDATE idempotency_keys SET status_code = p_status_code, response_body = p_response_body
  WHERE user_id = p_user_id AND key = p_key
$$;

-- Gives a claimed key back, as if the request had never come (its work wrote nothing).
CREATE OR REPLACE FUNCTION idempotency_release(p_user_id bigint, p_key text)
RETURNS void LANGUAGE sql AS $$
  DELETE FROM idempotency_keys WHERE user_id = p_user_id AND key = p_key
$$;

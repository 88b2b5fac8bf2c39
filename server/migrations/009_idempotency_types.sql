-- Idempotency keys are claimed, completed and released a batch at a time (place_trades
-- handles up to 100 requests per call; one function call per key cost more than the rest of
-- the call). The typed inputs of those set-based functions (server/sql/functions/
-- 020_idempotency.sql), and the removal of the one-key versions they replace.

-- A key to claim or release, with the hash of its request and the time of the claim.
CREATE TYPE idempotency_key_in AS (user_id bigint, key text, request_hash text, at timestamptz);

-- The reply to store with a claimed key.
CREATE TYPE idempotency_reply_in AS (
  user_id bigint,
  key text,
  status_code integer,
  response_body jsonb
);

DROP FUNCTION IF EXISTS idempotency_claim(bigint, text, text, timestamptz);

DROP FUNCTION IF EXISTS idempotency_complete(bigint, text, integer, jsonb);

DROP FUNCTION IF EXISTS idempotency_release(bigint, text);

-- The journal's canonical forms (migration 028) built with json_build_array instead of
-- jsonb_build_array (issue 16): the same text, byte for byte, for these arguments (numbers,
-- booleans, text and nulls, which both print the same way and escape with the same rule),
-- without building a jsonb value first: about 7 µs a digest here down to about 3, and every
-- trade placed or settled and every posting computes one. server/test/journal.test.ts
-- checks each against the jsonb form of 028 on awkward values, so a difference shows.
-- The audit log's digest keeps jsonb: its before/after arguments are jsonb values, whose
-- text jsonb normalises. Never edit this file once it has landed; add a new numbered one.
CREATE OR REPLACE FUNCTION journal_posting_digest(
  p_entry_id bigint, p_kind text, p_reference text, p_created_at timestamptz,
  p_account_id bigint, p_amount_cents bigint
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(json_build_array('posting', p_entry_id, p_kind, p_reference,
    journal_us(p_created_at), p_account_id, p_amount_cents)::text, 'UTF8'))
$$;

CREATE OR REPLACE FUNCTION journal_trade_placed_digest(
  p_id bigint, p_user_id bigint, p_is_practice boolean, p_asset text, p_direction text,
  p_stake_cents bigint, p_duration_seconds integer, p_payout_percent integer,
  p_entry_price double precision, p_entry_at timestamptz, p_feed text, p_start_time timestamptz,
  p_expires_at timestamptz, p_received_at timestamptz, p_rule_version integer
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(json_build_array('trade_placed', p_id, p_user_id, p_is_practice,
    p_asset, p_direction, p_stake_cents, p_duration_seconds, p_payout_percent,
    p_entry_price::text, journal_us(p_entry_at), p_feed, journal_us(p_start_time),
    journal_us(p_expires_at), journal_us(p_received_at), p_rule_version)::text, 'UTF8'))
$$;

CREATE OR REPLACE FUNCTION journal_trade_settled_digest(
  p_id bigint, p_placed_hash bytea, p_status text, p_exit_price double precision,
  p_exit_at timestamptz, p_exit_feed text, p_credit_cents bigint, p_settled_at timestamptz,
  p_lag_ms integer, p_note text, p_refund_reason text
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(json_build_array('trade_settled', p_id, encode(p_placed_hash, 'hex'),
    p_status, p_exit_price::text, journal_us(p_exit_at), p_exit_feed, p_credit_cents,
    journal_us(p_settled_at), p_lag_ms, p_note, p_refund_reason)::text, 'UTF8'))
$$;

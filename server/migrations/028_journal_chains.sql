-- The tamper-evident journal (issue 15 item 3). Postings, trades (placed and settled) and the
-- staff audit log are hash-chained as they are written: each record stores its place in its
-- chain (seq), the hash of the record before it (prev_hash) and its own hash,
--   row_hash = sha256(prev_hash || sha256(canonical form of the record)),
-- so editing, deleting or inserting a record breaks the chain from there on, and a chain's
-- head (its last row_hash) stands for everything before it. Signed checkpoints of the heads
-- (the journal module) pin them in time.
--
-- Chains are partitioned so that no writer waits for a global row:
--   account:<id>  the postings of one ledger account: every ledger writer already holds the
--                 account's lock (ledger_lock), so the head lives on the account's row;
--   trades:<id>   trades placed and settled through one house shard: place and settle
--                 batches already lock their house shards (place and settle batches rotate
--                 over 16 shards per account kind, so they stay parallel);
--   audit         the staff audit log: a few rows a minute, one head row.
-- The canonical forms below are fixed forever: changing one would break every stored hash.
-- Never edit this file once it has landed; add a new numbered one.

-- The first record of a chain links to 32 zero bytes.
CREATE FUNCTION journal_genesis() RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
$$;

-- Microseconds since the epoch: the canonical form of a time (independent of the session's
-- time zone and date style).
CREATE FUNCTION journal_us(p_at timestamptz) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT (extract(epoch FROM p_at) * 1000000)::bigint
$$;

-- One link: the hash of the previous record's hash and this record's digest. As an
-- aggregate over a chain's new records in order (seeded with the stored head), it yields each
-- record's row_hash in one pass: journal_chain_fold(head, digest) OVER (... ORDER BY ...).
CREATE FUNCTION journal_chain_link(p_state bytea, p_seed bytea, p_digest bytea)
RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sha256(COALESCE(p_state, p_seed) || p_digest)
$$;

CREATE AGGREGATE journal_chain_fold(bytea, bytea) (SFUNC = journal_chain_link, STYPE = bytea);

-- The canonical forms: a JSON array of the record's facts, times in microseconds, prices as
-- PostgreSQL's shortest exact text of the double.
CREATE FUNCTION journal_posting_digest(
  p_entry_id bigint, p_kind text, p_reference text, p_created_at timestamptz,
  p_account_id bigint, p_amount_cents bigint
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(jsonb_build_array('posting', p_entry_id, p_kind, p_reference,
    journal_us(p_created_at), p_account_id, p_amount_cents)::text, 'UTF8'))
$$;

CREATE FUNCTION journal_trade_placed_digest(
  p_id bigint, p_user_id bigint, p_is_practice boolean, p_asset text, p_direction text,
  p_stake_cents bigint, p_duration_seconds integer, p_payout_percent integer,
  p_entry_price double precision, p_entry_at timestamptz, p_feed text, p_start_time timestamptz,
  p_expires_at timestamptz, p_received_at timestamptz, p_rule_version integer
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(jsonb_build_array('trade_placed', p_id, p_user_id, p_is_practice,
    p_asset, p_direction, p_stake_cents, p_duration_seconds, p_payout_percent,
    p_entry_price::text, journal_us(p_entry_at), p_feed, journal_us(p_start_time),
    journal_us(p_expires_at), journal_us(p_received_at), p_rule_version)::text, 'UTF8'))
$$;

CREATE FUNCTION journal_trade_settled_digest(
  p_id bigint, p_placed_hash bytea, p_status text, p_exit_price double precision,
  p_exit_at timestamptz, p_exit_feed text, p_credit_cents bigint, p_settled_at timestamptz,
  p_lag_ms integer, p_note text, p_refund_reason text
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(jsonb_build_array('trade_settled', p_id, encode(p_placed_hash, 'hex'),
    p_status, p_exit_price::text, journal_us(p_exit_at), p_exit_feed, p_credit_cents,
    journal_us(p_settled_at), p_lag_ms, p_note, p_refund_reason)::text, 'UTF8'))
$$;

CREATE FUNCTION journal_audit_digest(
  p_id bigint, p_actor_user_id bigint, p_actor_label text, p_action text, p_target_type text,
  p_target_id text, p_before jsonb, p_after jsonb, p_ip text, p_created_at timestamptz
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(jsonb_build_array('audit', p_id, p_actor_user_id, p_actor_label,
    p_action, p_target_type, p_target_id, p_before, p_after, p_ip,
    journal_us(p_created_at))::text, 'UTF8'))
$$;

-- Ledger (owner: ledger): the head of each account's chain of postings.
ALTER TABLE ledger_accounts
  ADD COLUMN chain_seq bigint NOT NULL DEFAULT 0,
  ADD COLUMN chain_head bytea NOT NULL DEFAULT journal_genesis();
ALTER TABLE postings
  ADD COLUMN chain_seq bigint,
  ADD COLUMN prev_hash bytea,
  ADD COLUMN row_hash bytea;

-- Trading (owner: trading): a trade is two records, placed and settled, each in the chain of
-- the house shard its batch used (a trade's stake and its payout may use different shards).
ALTER TABLE trades
  ADD COLUMN placed_chain bigint,
  ADD COLUMN placed_seq bigint,
  ADD COLUMN placed_prev bytea,
  ADD COLUMN placed_hash bytea,
  ADD COLUMN settled_chain bigint,
  ADD COLUMN settled_seq bigint,
  ADD COLUMN settled_prev bytea,
  ADD COLUMN settled_hash bytea;

CREATE TABLE trade_chain_heads (
  house_account_id bigint PRIMARY KEY REFERENCES ledger_accounts (id),
  seq bigint NOT NULL,
  head bytea NOT NULL
);

-- Audit (owner: audit).
ALTER TABLE admin_audit_log
  ADD COLUMN chain_seq bigint,
  ADD COLUMN prev_hash bytea,
  ADD COLUMN row_hash bytea;

CREATE TABLE audit_chain_head (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  seq bigint NOT NULL,
  head bytea NOT NULL
);

-- The journal module: signed checkpoints, each with the heads of the chains that moved since
-- the one before (a chain's head at a checkpoint is its latest entry here up to it).
CREATE TABLE journal_checkpoints (
  id bigint PRIMARY KEY,
  created_at timestamptz NOT NULL,
  -- The canonical JSON that was signed, exactly.
  body text NOT NULL,
  key_id text NOT NULL,
  signature text NOT NULL
);

CREATE TABLE journal_checkpoint_heads (
  checkpoint_id bigint NOT NULL REFERENCES journal_checkpoints (id),
  chain text NOT NULL,
  seq bigint NOT NULL,
  head bytea NOT NULL,
  PRIMARY KEY (chain, checkpoint_id)
);

CREATE INDEX journal_checkpoint_heads_seq_idx ON journal_checkpoint_heads (chain, seq);

-- Records written before this migration are chained now, in the order they were written.
WITH digested AS (
  SELECT p.id, p.account_id,
         journal_posting_digest(e.id, e.kind, e.reference, e.created_at, p.account_id,
                                p.amount_cents) AS digest
  FROM postings p JOIN journal_entries e ON e.id = p.entry_id
), folded AS (
  SELECT d.id, d.account_id,
         row_number() OVER w AS seq,
         journal_chain_fold(journal_genesis(), d.digest) OVER w AS row_hash
  FROM digested d
  WINDOW w AS (PARTITION BY d.account_id ORDER BY d.id)
), linked AS (
  SELECT f.*, COALESCE(lag(f.row_hash) OVER (PARTITION BY f.account_id ORDER BY f.seq),
                       journal_genesis()) AS prev_hash
  FROM folded f
)
UPDATE postings p SET chain_seq = l.seq, prev_hash = l.prev_hash, row_hash = l.row_hash
FROM linked l WHERE p.id = l.id;

UPDATE ledger_accounts a SET chain_seq = h.chain_seq, chain_head = h.row_hash
FROM (
  SELECT DISTINCT ON (p.account_id) p.account_id, p.chain_seq, p.row_hash
  FROM postings p ORDER BY p.account_id, p.chain_seq DESC
) h
WHERE a.id = h.account_id;

-- Old trades: placed in the chain of their user's shard, in id order; settled after them.
UPDATE trades t SET placed_chain = a.id
FROM ledger_accounts a
WHERE a.user_id IS NULL AND a.currency = 'USD'
  AND a.code = 'house:' || CASE WHEN t.is_practice THEN 'practice' ELSE 'real' END || ':'
               || (t.user_id % 16);
UPDATE trades SET settled_chain = placed_chain WHERE status <> 'open';

WITH placed AS (
  SELECT t.id, t.placed_chain AS chain, t.id AS ord, journal_trade_placed_digest(
           t.id, t.user_id, t.is_practice, t.asset, t.direction, t.stake_cents,
           t.duration_seconds, t.payout_percent, t.entry_price, t.entry_at, t.feed,
           t.start_time, t.expires_at, t.received_at, t.rule_version) AS digest
  FROM trades t
), folded AS (
  SELECT p.id, p.chain, row_number() OVER w AS seq,
         journal_chain_fold(journal_genesis(), p.digest) OVER w AS row_hash
  FROM placed p WINDOW w AS (PARTITION BY p.chain ORDER BY p.ord)
), linked AS (
  SELECT f.*, COALESCE(lag(f.row_hash) OVER (PARTITION BY f.chain ORDER BY f.seq),
                       journal_genesis()) AS prev_hash
  FROM folded f
)
UPDATE trades t SET placed_seq = l.seq, placed_prev = l.prev_hash, placed_hash = l.row_hash
FROM linked l WHERE t.id = l.id;

WITH heads AS (
  SELECT DISTINCT ON (t.placed_chain) t.placed_chain AS chain, t.placed_seq AS seq,
         t.placed_hash AS head
  FROM trades t ORDER BY t.placed_chain, t.placed_seq DESC
), settled AS (
  SELECT t.id, t.settled_chain AS chain, journal_trade_settled_digest(
           t.id, t.placed_hash, t.status, t.exit_price, t.exit_at, t.exit_feed, t.credit_cents,
           t.settled_at, t.settlement_lag_ms, t.settlement_note, t.refund_reason) AS digest,
         COALESCE(h.seq, 0) AS base_seq, COALESCE(h.head, journal_genesis()) AS base_head
  FROM trades t LEFT JOIN heads h ON h.chain = t.settled_chain
  WHERE t.status <> 'open'
), folded AS (
  SELECT s.id, s.chain, s.base_seq + row_number() OVER w AS seq,
         journal_chain_fold(s.base_head, s.digest) OVER w AS row_hash, s.base_head
  FROM settled s WINDOW w AS (PARTITION BY s.chain ORDER BY s.id)
), linked AS (
  SELECT f.*, COALESCE(lag(f.row_hash) OVER (PARTITION BY f.chain ORDER BY f.seq),
                       f.base_head) AS prev_hash
  FROM folded f
)
UPDATE trades t SET settled_seq = l.seq, settled_prev = l.prev_hash, settled_hash = l.row_hash
FROM linked l WHERE t.id = l.id;

INSERT INTO trade_chain_heads (house_account_id, seq, head)
SELECT DISTINCT ON (r.chain) r.chain, r.seq, r.head
FROM (
  SELECT placed_chain AS chain, placed_seq AS seq, placed_hash AS head FROM trades
  UNION ALL
  SELECT settled_chain, settled_seq, settled_hash FROM trades WHERE settled_seq IS NOT NULL
) r
ORDER BY r.chain, r.seq DESC;

ALTER TABLE admin_audit_log DISABLE TRIGGER admin_audit_log_no_update_or_delete;
WITH folded AS (
  SELECT l.id, row_number() OVER w AS seq,
         journal_chain_fold(journal_genesis(), journal_audit_digest(
           l.id, l.actor_user_id, l.actor_label, l.action, l.target_type, l.target_id,
           l.before, l.after, l.ip, l.created_at)) OVER w AS row_hash
  FROM admin_audit_log l WINDOW w AS (ORDER BY l.id)
), linked AS (
  SELECT f.*, COALESCE(lag(f.row_hash) OVER (ORDER BY f.seq), journal_genesis()) AS prev_hash
  FROM folded f
)
UPDATE admin_audit_log l SET chain_seq = k.seq, prev_hash = k.prev_hash, row_hash = k.row_hash
FROM linked k WHERE l.id = k.id;
ALTER TABLE admin_audit_log ENABLE TRIGGER admin_audit_log_no_update_or_delete;

INSERT INTO audit_chain_head (seq, head)
SELECT COALESCE(MAX(chain_seq), 0),
       COALESCE((SELECT row_hash FROM admin_audit_log ORDER BY chain_seq DESC LIMIT 1),
                journal_genesis())
FROM admin_audit_log;

-- Placing and settling trades in one round trip per batch (server/src/trading/). Money moves
-- only through the ledger's functions (010_ledger.sql), keys only through idempotency's
-- (020_idempotency.sql); these functions own the trades and their audit windows.

-- Places a batch of trade requests (p_items: a JSON array of place_trade_in, in arrival
-- order) in one statement, atomic by itself; each request keeps its own outcome:
-- 'placed' (trade id and both balances after the debit); 'replay' (its Idempotency-Key was
-- used before: the stored reply and request hash, which the caller compares); 'insufficient'
-- (the stake is more than the balance); 'refused' (the caller's refusal, applied only once
-- the money is known to be there, so "Insufficient balance" comes first); 'unauthenticated'
-- (the session it names is no longer live: nothing is read or claimed for it). Only 'placed'
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
  stored_hash text,
  guard jsonb
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
  v_guard jsonb[];
  v_stake_entry bigint;
  -- Looked up once: in the SELECT below it was looked up again for every request.
  v_trade_sequence text := pg_get_serial_sequence('trades', 'id');
  r record;
BEGIN
  -- 0. A trade id for every request, so that a key can be claimed with its reply: a request
  --    that places nothing leaves a gap in the ids, as a rolled-back one always did.
  v_trade := ARRAY(
    SELECT nextval(v_trade_sequence)
    FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality
  );

  -- 0b. The session each request came from, checked live in this transaction by auth's
  --     function (025_auth.sql): the server may take a request's session from its recent
  --     lookups (auth/sessions.ts `findRecent`), and a session revoked or expired since is
  --     refused here, before anything is claimed or written. Touched at the end (step 5).
  FOR r IN
    SELECT l.ord::integer AS ord
    FROM unnest(auth_trader_sessions_live(
      ARRAY(SELECT i.session_id FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality),
      ARRAY(SELECT i.user_id FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality),
      ARRAY(SELECT i.start_time FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality),
      ARRAY(SELECT i.session_seen_after FROM unnest(v_items) WITH ORDINALITY AS i
            ORDER BY i.ordinality),
      ARRAY(SELECT i.session_created_after FROM unnest(v_items) WITH ORDINALITY AS i
            ORDER BY i.ordinality)
    )) WITH ORDINALITY AS l(live, ord)
    WHERE NOT l.live
  LOOP
    v_outcome[r.ord] := 'unauthenticated';
  END LOOP;

  -- 1. Idempotency keys, claimed in one order (user, key) by the idempotency module, each
  --    with the reply of its trade once placed; step 4 releases the keys of the others.
  --    The reply stored is the trade's id, {"placed_trade_id": id}, not the reply's text:
  --    the server rebuilds the reply from the trade as placed (place-trade.ts), the same
  --    text by the same code, where copying it cost ~500 bytes a trade to send, parse and
  --    store (bench/RESULTS.md, issue 16's ninth session).
  v_keyed := ARRAY(
    SELECT i.ordinality::integer FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE i.key IS NOT NULL AND v_outcome[i.ordinality] IS NULL ORDER BY i.ordinality
  );
  FOR r IN
    SELECT v_keyed[c.ord] AS item_ord, c.fresh, c.request_hash, c.status_code, c.response_body
    FROM idempotency_claim_all_replied(ARRAY(
      SELECT ROW(i.user_id, i.key, i.hash, i.start_time)::idempotency_key_in
      FROM unnest(v_items) WITH ORDINALITY AS i
      WHERE i.key IS NOT NULL AND v_outcome[i.ordinality] IS NULL ORDER BY i.ordinality
    ), 201, ARRAY(
      SELECT jsonb_build_object('placed_trade_id', v_trade[i.ordinality])
      FROM unnest(v_items) WITH ORDINALITY AS i
      WHERE i.key IS NOT NULL AND v_outcome[i.ordinality] IS NULL ORDER BY i.ordinality
    )) AS c
    WHERE NOT c.fresh
  LOOP
    v_outcome[r.item_ord] := 'replay';
    v_stored[r.item_ord] := jsonb_build_object('status', r.status_code, 'body', r.response_body,
                                               'hash', r.request_hash);
  END LOOP;

  -- 1b. The traders' own limits and exclusions (issue 14): a request they refuse is refused
  --     like the caller's refusal, once the money is known to be there.
  v_guard := trade_guard_refusals(v_items, v_outcome);

  -- 2. The accounts: each trader's, and the house shard its stake goes to.
  v_accounts := ledger_trader_account_ids(ARRAY(
    SELECT ROW(i.user_id, i.is_practice)::ledger_trader_account_in
    FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality
  ), p_currency);
  v_houses := ledger_system_account_ids(ARRAY(
    SELECT i.house_code FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality
  ), p_currency);

  -- 3. One stake per request not replayed (trader → house shard), a probe for a request
  --    refused anyway; the ledger decides which have the money, in arrival order, and writes
  --    the stakes placed as one entry (migration 031), `placement:<first trade id drawn>:
  --    trade_stake`.
  v_entry_items := ARRAY(
    SELECT i.ordinality::integer FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE v_outcome[i.ordinality] IS NULL ORDER BY i.ordinality
  );
  FOR r IN
    SELECT p.ord, p.outcome, p.entry_id FROM ledger_post(ARRAY(
      SELECT ROW('trade_stake',
                 'trade:' || CASE WHEN i.refusal IS NULL AND v_guard[n] IS NULL
                                  THEN v_trade[n]::text ELSE 'refused' END,
                 i.start_time,
                 i.refusal IS NOT NULL OR v_guard[n] IS NOT NULL,
                 ARRAY[ROW(v_accounts[n], -i.stake_cents)::ledger_posting_in,
                       ROW(v_houses[n], i.stake_cents)::ledger_posting_in])::ledger_entry_in
      FROM unnest(v_entry_items) WITH ORDINALITY AS x(n, position)
      JOIN LATERAL (SELECT (v_items[x.n]).*) AS i ON true
      ORDER BY x.position
    ), 'placement:' || v_trade[1], '{}') AS p
  LOOP
    IF r.outcome = 'posted' THEN
      v_stake_entry := r.entry_id;
    END IF;
    v_outcome[v_entry_items[r.ord]] := CASE r.outcome
      WHEN 'posted' THEN 'placed' WHEN 'short' THEN 'insufficient'
      WHEN 'sufficient' THEN CASE WHEN v_guard[v_entry_items[r.ord]] IS NOT NULL THEN 'guarded'
                              ELSE 'refused' END
      ELSE 'refused' END;
  END LOOP;

  -- 4. The placed trades (their keys hold their replies since step 1); a key whose request
  --    wrote nothing is released.
  --    Each placed trade is chained onto its house shard's chain of trades (migration 028),
  --    in arrival order; ledger_post holds the shard locked.
  WITH placed AS (
    SELECT v_trade[i.ordinality] AS id, i.*, v_houses[i.ordinality] AS chain,
           COALESCE(h.seq, 0) AS base_seq, COALESCE(h.head, journal_genesis()) AS base_head
    FROM unnest(v_items) WITH ORDINALITY AS i
    LEFT JOIN trade_chain_heads h ON h.house_account_id = v_houses[i.ordinality]
    WHERE v_outcome[i.ordinality] = 'placed'
  ), linked AS (
    -- Each link (previous hash || own) in one window pass (migration 035).
    SELECT p.*, p.base_seq + row_number() OVER chain AS seq,
           journal_chain_fold_pair(p.base_head, journal_trade_placed_digest(
             p.id, p.user_id, p.is_practice, p.asset, p.direction, p.stake_cents,
             p.duration_seconds, p.payout_percent, p.entry_price, p.entry_at, p.feed,
             p.start_time, p.expires_at, p.received_at, p.rule_version
           )) OVER chain AS link
    FROM placed p
    WINDOW chain AS (PARTITION BY p.chain ORDER BY p.ordinality)
  ), trades_in AS (
    INSERT INTO trades (id, user_id, is_practice, asset, direction, stake_cents, duration_seconds,
                        payout_percent, entry_price, entry_at, feed, start_time, expires_at,
                        received_at, rule_version, placed_chain, placed_seq, placed_prev,
                        placed_hash, placed_entry_id)
    SELECT l.id, l.user_id, l.is_practice, l.asset, l.direction, l.stake_cents,
           l.duration_seconds, l.payout_percent, l.entry_price, l.entry_at, l.feed, l.start_time,
           l.expires_at, l.received_at, l.rule_version, l.chain, l.seq, journal_link_prev(l.link),
           journal_link_hash(l.link), v_stake_entry
    FROM linked l
  ), open_in AS (
    -- And each is open until settled (migration 036).
    INSERT INTO open_trades (trade_id, user_id, is_practice, expires_at)
    SELECT l.id, l.user_id, l.is_practice, l.expires_at FROM linked l
  )
  INSERT INTO trade_chain_heads (house_account_id, seq, head)
  SELECT DISTINCT ON (l.chain) l.chain, l.seq, journal_link_hash(l.link) FROM linked l
  ORDER BY l.chain, l.seq DESC
  ON CONFLICT (house_account_id) DO UPDATE SET seq = EXCLUDED.seq, head = EXCLUDED.head;
  -- 5. The sessions in use, touched as the session lookup touches them: last, after the
  --    ledger's locks, in the order account closure takes them (the trader's account, then
  --    the sessions).
  PERFORM auth_touch_sessions(
    ARRAY(SELECT CASE WHEN v_outcome[i.ordinality] <> 'unauthenticated' THEN i.session_id END
          FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality),
    ARRAY(SELECT i.start_time FROM unnest(v_items) WITH ORDINALITY AS i ORDER BY i.ordinality),
    ARRAY(SELECT i.session_touch_before FROM unnest(v_items) WITH ORDINALITY AS i
          ORDER BY i.ordinality)
  );
  PERFORM idempotency_release_all(ARRAY(
    SELECT ROW(i.user_id, i.key, i.hash, i.start_time)::idempotency_key_in
    FROM unnest(v_items) WITH ORDINALITY AS i
    WHERE i.key IS NOT NULL AND v_outcome[i.ordinality] IN ('insufficient', 'refused', 'guarded')
  ));

  RETURN QUERY
    SELECT i.ordinality::integer, v_outcome[i.ordinality],
           CASE WHEN v_outcome[i.ordinality] = 'placed' THEN v_trade[i.ordinality] END,
           b.real_cents, b.practice_cents,
           (v_stored[i.ordinality]->>'status')::integer, v_stored[i.ordinality]->'body',
           v_stored[i.ordinality]->>'hash',
           CASE WHEN v_outcome[i.ordinality] = 'guarded' THEN v_guard[i.ordinality] END
    FROM unnest(v_items) WITH ORDINALITY AS i
    LEFT JOIN ledger_trader_balances(ARRAY(
      SELECT DISTINCT x.user_id FROM unnest(v_items) WITH ORDINALITY AS x
      WHERE v_outcome[x.ordinality] = 'placed'
    ), p_currency) AS b ON b.user_id = i.user_id AND v_outcome[i.ordinality] = 'placed'
    ORDER BY i.ordinality;
END
$$;

-- Claims a batch of due open trades of one settlement partition (user id modulo the count;
-- server/src/trading/settlement.ts) for the caller's transaction. Processes that settle one
-- partition take turns on a transaction-scoped advisory lock instead of locking each row:
-- one lock per batch where FOR UPDATE wrote a row lock (and its WAL) into every claimed
-- trade. The read comes after the lock, in a statement of its own, so it sees whatever the
-- previous holder committed. Exactly once does not rest on this lock: settle_trades updates
-- only trades still open and refuses the whole batch otherwise.
--
-- Returns the batch as one JSON array (null when none is due), a trade an array of the
-- columns settlement reads, in this order: id, user_id, is_practice, asset, direction,
-- stake_cents, duration_seconds, payout_percent, entry_price, entry_at, feed, start_time,
-- expires_at, received_at, rule_version. Not a row per trade: the server's driver took
-- ~15 ms of its CPU to parse 2,000 rows of 15 columns (four of them timestamps), against
-- ~7 ms for the same batch as one JSON value (bench/RESULTS.md, issue 16's fourteenth
-- session). Prices print exactly (PostgreSQL writes a double's shortest exact form), and
-- times in ISO 8601 with their offset.
--
-- The read walks the partition's stretch of open_trades_due_partition_idx (migration 036)
-- in the claim's order and stops at the batch's size, then reads each trade by its key.
-- Bitmap and sequential scans are off inside this function: a burst of due trades arrives
-- faster than statistics follow, and on a stale estimate of a few due rows the planner read
-- and sorted the whole backlog for every batch (bench/RESULTS.md).
CREATE OR REPLACE FUNCTION settlement_claim(
  p_now timestamptz,
  p_limit integer,
  p_partitions integer,
  p_partition integer
) RETURNS json LANGUAGE plpgsql
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $$
DECLARE
  v_trades json;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('settlement', p_partition));
  -- The partition count written into the statement, so that `user_id % 2` (two partitions,
  -- settlement.ts) is the expression open_trades_due_partition_idx is built on; a parameter
  -- would not match it.
  EXECUTE format(
    'SELECT json_agg(json_build_array(
              t.id, t.user_id, t.is_practice, t.asset, t.direction, t.stake_cents,
              t.duration_seconds, t.payout_percent, t.entry_price, t.entry_at, t.feed,
              t.start_time, t.expires_at, t.received_at, t.rule_version)
            ORDER BY o.user_id %% %1$s, o.expires_at, o.trade_id)
     FROM (SELECT o.trade_id, o.user_id, o.expires_at FROM open_trades o
           WHERE o.expires_at <= $1 AND o.user_id %% %1$s = $2
           ORDER BY o.user_id %% %1$s, o.expires_at, o.trade_id
           LIMIT $3) AS o
     JOIN trades t ON t.id = o.trade_id', p_partitions)
  INTO v_trades
  USING p_now, p_partition, p_limit;
  RETURN v_trades;
END
$$;

-- settle_trades' record of each trade settled (p_chains: each trade's house shard, whose
-- chain of trades its settled record is linked onto): the outcome on the trade row, the
-- links in one window pass, the chains' new heads, the trades no longer open (migration
-- 036), the credited trades by entry (migration 037). Returns how many trades were still
-- open and so updated. Joins are nested loops on the trades' key, whatever the statistics say:
-- in a burst they lag far behind (a few hundred open trades estimated where there were
-- 46,000), and on them the planner hashed every open trade for each batch of 2,000
-- (bench/RESULTS.md, issue 16's tenth session: the statement 67–73 → 62–64 ms a batch here).
CREATE OR REPLACE FUNCTION settle_trades_record(
  p_trades trade_settlement_in[],
  p_chains bigint[],
  p_settled_at timestamptz,
  p_payout_entry bigint,
  p_refund_entry bigint
) RETURNS integer LANGUAGE plpgsql
SET enable_hashjoin = off
SET enable_mergejoin = off
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
  v_updated integer;
  v_closed integer;
BEGIN
  WITH linked AS (
    SELECT s.*, COALESCE(h.seq, 0) + row_number() OVER chain AS seq,
           journal_chain_fold_pair(COALESCE(h.head, journal_genesis()),
             journal_trade_settled_digest(
               s.trade_id, s.placed_hash, s.status, s.exit_price, s.exit_at, s.exit_feed,
               s.credit_cents, p_settled_at, s.lag_ms, s.note, s.refund_reason
             )) OVER chain AS link
    FROM (
      -- Each trade read once, by its key: its placed hash, and where its row is, which the
      -- UPDATE below goes to directly (a second walk of trades' key index cost ~1 µs a trade).
      SELECT u.*, p_chains[u.ordinality] AS chain, t.placed_hash, t.ctid AS row_tid
      FROM unnest(p_trades) WITH ORDINALITY AS u
      JOIN trades t ON t.id = u.trade_id
      OFFSET 0 -- computed once
    ) s
    LEFT JOIN trade_chain_heads h ON h.house_account_id = s.chain
    WINDOW chain AS (PARTITION BY s.chain ORDER BY s.ordinality)
  ), heads_out AS (
    -- Each chain's new head: the link of its last trade in the batch.
    INSERT INTO trade_chain_heads (house_account_id, seq, head)
    SELECT l.chain, l.seq, journal_link_hash(l.link) FROM linked l
    WHERE l.ordinality = ANY (ARRAY(
      SELECT MAX(c.ordinality) FROM unnest(p_chains) WITH ORDINALITY AS c GROUP BY c.c
    ))
    ON CONFLICT (house_account_id) DO UPDATE SET seq = EXCLUDED.seq, head = EXCLUDED.head
  )
  UPDATE trades t
  SET status = l.status, exit_price = l.exit_price, exit_at = l.exit_at, exit_feed = l.exit_feed,
      credit_cents = l.credit_cents, settled_at = p_settled_at, settlement_lag_ms = l.lag_ms,
      settlement_note = l.note, refund_reason = l.refund_reason, settled_chain = l.chain,
      settled_seq = l.seq, settled_prev = journal_link_prev(l.link),
      settled_hash = journal_link_hash(l.link),
      settled_entry_id = CASE WHEN l.credit_cents <= 0 THEN NULL
                              WHEN l.status = 'won' THEN p_payout_entry
                              ELSE p_refund_entry END
  FROM linked l
  -- The row read above, by where it is (a TID scan), in this statement's snapshot, which
  -- keeps that version from being pruned: the ctid names this trade's row and no other.
  -- Were the row updated since (no writer but settlement updates a trade, and the
  -- partition's lock keeps settlers apart), the newer version would fail the ctid test on
  -- recheck and the count below would fall short, rolling the batch back. No test of the id
  -- here: with one, the planner walks the key index again and filters on the ctid. `IS
  -- TRUE`: the same test, which no partial index's predicate (status = 'open') matches, so
  -- the planner cannot walk one of them in full for each trade (it did, on the estimate).
  WHERE t.ctid = l.row_tid AND (t.status = 'open') IS TRUE;
  GET DIAGNOSTICS v_updated = ROW_COUNT;
  DELETE FROM open_trades o
  WHERE o.trade_id = ANY (ARRAY(SELECT u.trade_id FROM unnest(p_trades) AS u));
  GET DIAGNOSTICS v_closed = ROW_COUNT;
  -- Each credited trade found by its entry (migration 037), in key order.
  INSERT INTO trade_credit_entries (entry_id, trade_id)
  SELECT CASE WHEN u.status = 'won' THEN p_payout_entry ELSE p_refund_entry END, u.trade_id
  FROM unnest(p_trades) AS u WHERE u.credit_cents > 0
  ORDER BY 1, 2;
  -- open_trades holds exactly the trades whose status is 'open': the caller rolls back a
  -- batch where either count falls short.
  IF v_closed <> v_updated THEN
    RAISE EXCEPTION 'open_trades held % of the % trades settled', v_closed, v_updated;
  END IF;
  RETURN v_updated;
END
$$;

-- Settles one claimed batch (server/src/trading/settlement.ts decides the outcomes; p_trades
-- its trades, typed, p_windows a JSON array of trade_audit_window_in). The trades come as
-- an array literal of the composite type, not as JSON: a batch of 2,000 as a JSON array of
-- objects was half a megabyte that PostgreSQL parsed into jsonb and then into rows, 11 ms of
-- its CPU a batch against 3 ms for the same rows typed (bench/RESULTS.md, issue 16's
-- thirteenth session). Posts the
-- batch's credits through the ledger as one `trade_payout` entry for the trades won and one
-- `trade_refund` entry for the trades refunded (migration 031: one posting per house shard
-- and one per trader account credited), sets every trade's outcome and the entry that
-- credited it (all must still be open, or nothing is written), stores the audit windows,
-- and returns the batch's traders' balances.
--
-- Exactly once: a trade leaves 'open' once (the UPDATE below skips a trade no longer open,
-- and a batch that finds fewer open trades than it claimed rolls back whole, credits and
-- all), and a batch's entries are named after its lowest trade, which no other batch holds
-- (journal_entries_trade_once_idx refuses a second entry of the same kind and reference).
CREATE OR REPLACE FUNCTION settle_trades(
  p_trades trade_settlement_in[],
  p_windows jsonb,
  p_settled_at timestamptz,
  p_currency text
) RETURNS TABLE (balance_user_id bigint, real_cents bigint, practice_cents bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_trades trade_settlement_in[] := COALESCE(p_trades, '{}');
  v_count integer := COALESCE(cardinality(v_trades), 0);
  v_chains bigint[];
  v_batch text;
  v_credits ledger_entry_in[];
  v_payout_entry bigint;
  v_refund_entry bigint;
  v_updated integer;
  v_unposted integer;
BEGIN
  IF v_count = 0 THEN
    RETURN;
  END IF;
  v_batch := 'settlement:' || (SELECT MIN(u.trade_id) FROM unnest(v_trades) AS u);
  -- Each trade's house shard: its settled record is chained on the shard's chain of trades
  -- (migration 028), and its credit comes from that shard.
  v_chains := ledger_system_account_ids(ARRAY(
    SELECT u.house_code FROM unnest(v_trades) WITH ORDINALITY AS u ORDER BY u.ordinality
  ), p_currency);
  -- The credits: the payouts as one entry and the refunds as another, merged by the ledger
  -- into a posting per account. The ledger locks every shard of the batch with the credited
  -- traders' accounts, in its global order, before it writes: a losing trade posts nothing
  -- but still moves its shard's chain (below). A trader's credits of one kind from one shard
  -- are summed here first, in the order of their first trade: the merged entries come out
  -- the same, and the ledger and the account lookup see one item per trader account where
  -- they saw one per trade (in the settlement bench, two winning trades a trader a batch).
  WITH credits AS (
    SELECT CASE WHEN u.status = 'won' THEN 'trade_payout' ELSE 'trade_refund' END AS kind,
           v_chains[u.ordinality] AS house, u.user_id, u.is_practice,
           SUM(u.credit_cents) AS credit_cents, MIN(u.trade_id) AS first_trade_id,
           row_number() OVER (ORDER BY MIN(u.ordinality)) AS ord
    FROM unnest(v_trades) WITH ORDINALITY AS u
    WHERE u.credit_cents > 0
    GROUP BY 1, 2, 3, 4
  ), owners AS MATERIALIZED ( -- looked up once, not once per credit
    SELECT ledger_trader_account_ids(ARRAY(
      SELECT ROW(c.user_id, c.is_practice)::ledger_trader_account_in FROM credits c
      ORDER BY c.ord
    ), p_currency) AS account_ids
  )
  SELECT ARRAY(
    SELECT ROW(c.kind, 'trade:' || c.first_trade_id, p_settled_at, false,
               ARRAY[ROW(c.house, -c.credit_cents)::ledger_posting_in,
                     ROW(o.account_ids[c.ord], c.credit_cents)::ledger_posting_in]
           )::ledger_entry_in
    FROM credits c, owners o
    ORDER BY c.ord
  ) INTO v_credits;
  SELECT COUNT(*) FILTER (WHERE p.outcome <> 'posted'),
         MAX(p.entry_id) FILTER (WHERE (v_credits[p.ord]).kind = 'trade_payout'),
         MAX(p.entry_id) FILTER (WHERE (v_credits[p.ord]).kind = 'trade_refund')
  INTO v_unposted, v_payout_entry, v_refund_entry
  FROM ledger_post(v_credits, v_batch, ARRAY(SELECT DISTINCT c FROM unnest(v_chains) AS c)) AS p;
  IF v_unposted > 0 THEN
    RAISE EXCEPTION '% credit entries of the batch were not posted', v_unposted;
  END IF;

  v_updated := settle_trades_record(v_trades, v_chains, p_settled_at, v_payout_entry,
                                    v_refund_entry);
  IF v_updated <> v_count THEN
    RAISE EXCEPTION 'settled % of % claimed trades', v_updated, v_count;
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

-- The traders' own limits and exclusions (issue 14 items 1 and 2; the rules are
-- domain/src/trader-limits.ts), checked for a batch of place-trade requests inside
-- place_trades' statement. Returns one guard per request: null to go on, or the refusal as
-- data ({"code": "excluded", "kind", "ends_at"} | {"code": "limit", "kind", "limit_cents",
-- "used_cents"} | {"code": "open_trades", "limit"} | {"code": "session", "limit"}), which
-- the caller words. Requests already decided (p_decided not null: a replay) are skipped.
--
-- Traders with no limit and no exclusion in force cost two index probes per batch. For the
-- others, a transaction-scoped advisory lock per trader, taken in user order before any
-- ledger lock, makes two batches of one trader check one after the other: the second reads
-- the first's committed trades (each statement of a plpgsql function takes a new snapshot
-- under READ COMMITTED), so concurrent requests never get past a limit together. Within a
-- batch, a trader's earlier requests that passed count as placed (an earlier one later found
-- short only makes the check stricter). An open trade counts as lost: its stake is its worst
-- case, so a loss limit holds whatever the open trades settle at.
CREATE OR REPLACE FUNCTION trade_guard_refusals(p_items place_trade_in[], p_decided text[])
RETURNS jsonb[] LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_guard jsonb[] := array_fill(NULL::jsonb, ARRAY[COALESCE(cardinality(p_items), 0)]);
  v_users bigint[];
  v_user bigint;
  r record;
  x record;
  l record;
  u record;
  v_batch_stake bigint;
  v_batch_count integer;
  v_day timestamptz;
  v_week timestamptz;
  v_month timestamptz;
  v_open bigint;
  v_used bigint;
BEGIN
  v_users := ARRAY(
    SELECT DISTINCT i.user_id FROM unnest(p_items) AS i
    WHERE EXISTS (SELECT 1 FROM trader_limits l WHERE l.user_id = i.user_id)
       OR EXISTS (SELECT 1 FROM trader_exclusions e
                  WHERE e.user_id = i.user_id AND (e.ends_at IS NULL OR e.ends_at > i.start_time))
    ORDER BY 1
  );
  IF cardinality(v_users) = 0 THEN
    RETURN v_guard;
  END IF;
  FOREACH v_user IN ARRAY v_users LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('trader-limits', v_user));
  END LOOP;

  FOR r IN
    SELECT i.ordinality::integer AS ord, i.*
    FROM unnest(p_items) WITH ORDINALITY AS i
    WHERE i.user_id = ANY (v_users) AND p_decided[i.ordinality] IS NULL
    ORDER BY i.ordinality
  LOOP
    -- An exclusion stops practice trading too: the trader asked for a break from trading.
    SELECT e.kind, e.ends_at INTO x FROM trader_exclusions e
    WHERE e.user_id = r.user_id AND e.started_at <= r.start_time
      AND (e.ends_at IS NULL OR e.ends_at > r.start_time)
    ORDER BY e.ends_at DESC NULLS FIRST LIMIT 1;
    IF FOUND THEN
      v_guard[r.ord] := jsonb_build_object('code', 'excluded', 'kind', x.kind,
                                           'ends_at', x.ends_at);
      CONTINUE;
    END IF;
    CONTINUE WHEN r.is_practice;

    -- This trader's earlier requests in the batch that passed (and are not refused anyway).
    SELECT COALESCE(SUM(j.stake_cents), 0)::bigint AS stake, COUNT(*)::integer AS n
    INTO v_batch_stake, v_batch_count
    FROM unnest(p_items) WITH ORDINALITY AS j
    WHERE j.user_id = r.user_id AND NOT j.is_practice AND j.ordinality < r.ord
      AND p_decided[j.ordinality] IS NULL AND j.refusal IS NULL AND v_guard[j.ordinality] IS NULL;

    v_day := date_trunc('day', r.start_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    v_week := date_trunc('week', r.start_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    v_month := date_trunc('month', r.start_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    u := NULL;
    FOR l IN
      SELECT l.kind,
             CASE WHEN l.pending_effective_at <= r.start_time THEN l.pending_value
                  ELSE l.value END AS in_force
      FROM trader_limits l WHERE l.user_id = r.user_id
      ORDER BY array_position(ARRAY['session_minutes', 'open_trades', 'loss_day', 'loss_week',
        'loss_month', 'stake_day', 'stake_week', 'stake_month'], l.kind)
    LOOP
      CONTINUE WHEN l.in_force IS NULL OR l.kind LIKE 'deposit_%';
      IF l.kind = 'session_minutes' THEN
        IF r.session_started_at IS NOT NULL
           AND r.start_time >= r.session_started_at + make_interval(mins => l.in_force::integer) THEN
          v_guard[r.ord] := jsonb_build_object('code', 'session', 'limit', l.in_force);
          EXIT;
        END IF;
      ELSIF l.kind = 'open_trades' THEN
        SELECT COUNT(*) INTO v_open FROM open_trades o
        WHERE o.user_id = r.user_id AND NOT o.is_practice;
        IF v_open + v_batch_count + 1 > l.in_force THEN
          v_guard[r.ord] := jsonb_build_object('code', 'open_trades', 'limit', l.in_force);
          EXIT;
        END IF;
      ELSE
        IF u IS NULL THEN
          -- Each period's stakes, and its worst-case loss: stakes less what settled trades
          -- paid back (an open trade has paid nothing back yet).
          SELECT
            COALESCE(SUM(t.stake_cents) FILTER (WHERE t.start_time >= v_day), 0) AS stake_day,
            COALESCE(SUM(t.stake_cents) FILTER (WHERE t.start_time >= v_week), 0) AS stake_week,
            COALESCE(SUM(t.stake_cents) FILTER (WHERE t.start_time >= v_month), 0) AS stake_month,
            COALESCE(SUM(t.stake_cents - COALESCE(t.credit_cents, 0))
                     FILTER (WHERE t.start_time >= v_day), 0) AS loss_day,
            COALESCE(SUM(t.stake_cents - COALESCE(t.credit_cents, 0))
                     FILTER (WHERE t.start_time >= v_week), 0) AS loss_week,
            COALESCE(SUM(t.stake_cents - COALESCE(t.credit_cents, 0))
                     FILTER (WHERE t.start_time >= v_month), 0) AS loss_month
          INTO u
          FROM trades t
          WHERE t.user_id = r.user_id AND NOT t.is_practice
            AND t.start_time >= LEAST(v_week, v_month);
        END IF;
        v_used := (to_jsonb(u)->>l.kind)::bigint + v_batch_stake;
        IF v_used + r.stake_cents > l.in_force THEN
          v_guard[r.ord] := jsonb_build_object('code', 'limit', 'kind', l.kind,
                                               'limit_cents', l.in_force, 'used_cents', v_used);
          EXIT;
        END IF;
      END IF;
    END LOOP;
  END LOOP;
  RETURN v_guard;
END
$$;

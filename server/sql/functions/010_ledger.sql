-- The ledger's SQL functions: the one place, with server/src/ledger/ledger.ts calling them,
-- where journal entries and postings are written and account balances change. The batch
-- functions (place_trades, settle_trades) and the TypeScript writer all post through
-- ledger_post; nothing else writes ledger_accounts.balance_cents, journal_entries or
-- postings.
--
-- Lock order (no deadlock): every writer locks all the accounts it will touch up front, in
-- one global order, with ledger_lock: trader accounts first, then system accounts, each by
-- ascending id. Any two transactions then take their account locks in the same order. System
-- (house) rows come last because many transactions share them: locked last, they are held
-- only for the end of the transaction, and the house is split into shards (migration 003)
-- so concurrent batches rarely meet on one row.
--
-- Guarded debit (no overdraft): a trader account is debited only by the one guarded UPDATE
-- in ledger_post (`balance_cents + amount >= 0` in its WHERE clause), backed by the CHECK
-- constraint on ledger_accounts. The row is locked before the guard reads it, so the second
-- of two racing debits sees the first's committed balance and fails the guard if the money
-- is gone.

-- Locks the accounts in the global order and returns the system accounts among them (a
-- few dozen at most, where a batch may hold thousands of trader accounts: callers test
-- "is this a trader account" against the short list).
CREATE OR REPLACE FUNCTION ledger_lock(p_account_ids bigint[])
RETURNS bigint[] LANGUAGE plpgsql AS $$
BEGIN
  RETURN (
    SELECT COALESCE(array_agg(s.id) FILTER (WHERE NOT s.is_trader), '{}')
    FROM (
      SELECT a.id, a.user_id IS NOT NULL AS is_trader FROM ledger_accounts a
      WHERE a.id = ANY (p_account_ids)
      ORDER BY (a.user_id IS NULL), a.id
      FOR NO KEY UPDATE
    ) s
  );
END
$$;

-- Posts journal entries, each all or nothing. The call's credits count first; then trader
-- debits are guarded entry by entry, in order. An entry whose guarded debit would overdraw
-- a trader account is not written (outcome 'short'); a probe entry is checked the same way
-- and never written ('sufficient' or 'short'); every other entry is written ('posted', with
-- its id). Callers that must not continue after a short entry raise
-- or roll back themselves. Runs in the caller's transaction; locks as described above.
CREATE OR REPLACE FUNCTION ledger_post(p_entries ledger_entry_in[])
RETURNS TABLE (ord integer, outcome text, entry_id bigint)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM ledger_post(p_entries, NULL, '{}');
END
$$;

-- ledger_post in merged mode (below), with nothing else to lock.
CREATE OR REPLACE FUNCTION ledger_post(p_entries ledger_entry_in[], p_merged_reference text)
RETURNS TABLE (ord integer, outcome text, entry_id bigint)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM ledger_post(p_entries, p_merged_reference, '{}');
END
$$;

-- ledger_post, with the entries that are written merged into one journal entry per kind
-- when p_merged_reference is set (issue 16): each is guarded on its own exactly as above,
-- then the posted ones of each kind become one entry of that kind, referenced
-- '<p_merged_reference>:<kind>', at the earliest of their times, with one posting per
-- account (its sum over them). Every posted entry
-- returns the id of its kind's entry. A batch of trades so writes an entry and a posting per
-- account where it wrote an entry and two postings per trade: half of a trade's database work.
--
-- p_also_lock: accounts the caller needs locked though nothing may post to them (settlement
-- moves a house shard's chain of trades even when no trade of the batch is credited from
-- it), locked in the same pass as the postings' accounts, in the global order, even when
-- no entry is given. One pass where the caller's own ledger_lock before this call made two.
CREATE OR REPLACE FUNCTION ledger_post(
  p_entries ledger_entry_in[],
  p_merged_reference text,
  p_also_lock bigint[]
)
RETURNS TABLE (ord integer, outcome text, entry_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_bad integer;
  v_system bigint[];
  v_guarded integer[];
  v_unwritten integer[] := '{}';
  v_short integer[] := '{}';
  v_probe_short integer[] := '{}';
  v_entry ledger_entry_in;
  v_posting ledger_posting_in;
  v_debited ledger_posting_in[];
  v_is_short boolean;
  v_index integer;
  v_sequence text := pg_get_serial_sequence('journal_entries', 'id');
  v_all_fit boolean;
  v_merged ledger_entry_in[];
  v_account_ids bigint[];
BEGIN
  IF COALESCE(cardinality(p_entries), 0) = 0 THEN
    IF COALESCE(cardinality(p_also_lock), 0) > 0 THEN
      PERFORM ledger_lock(p_also_lock);
    END IF;
    RETURN;
  END IF;

  -- Programmer errors, not input: an unbalanced entry must never be written.
  SELECT e.ordinality INTO v_bad
  FROM unnest(p_entries) WITH ORDINALITY AS e
  CROSS JOIN LATERAL (
    SELECT COUNT(*) AS n, SUM(p.amount_cents) AS total,
           bool_or(p.amount_cents IS NULL OR p.amount_cents = 0 OR p.account_id IS NULL) AS bad
    FROM unnest(e.postings) AS p
  ) s
  WHERE s.n < 2 OR s.total <> 0 OR s.bad OR e.kind IS NULL OR e.reference IS NULL
    OR e.created_at IS NULL
  LIMIT 1;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % of the batch needs two or more non-zero postings summing to zero', v_bad;
  END IF;

  -- 1. Every account of the batch (and the caller's others), locked in the global order.
  v_account_ids := ARRAY(
    SELECT DISTINCT p.account_id FROM unnest(p_entries) AS e, unnest(e.postings) AS p
  );
  v_system := ledger_lock(v_account_ids || COALESCE(p_also_lock, '{}'));

  -- The common case (issue 16): no probe entry, and every trader account's net change
  -- leaves it at zero or more. Then no entry can come up short (credits count first, so a
  -- prefix of an account's debits never takes it lower than all of them do), steps 2 and 3
  -- would write every entry, and each account's balance moves once, with its chain head, in
  -- step 4's one UPDATE: one new row version per account per call instead of two or more.
  -- The read sees the committed balances: the rows are locked (step 1), and this statement's
  -- snapshot is taken after the locks were granted.
  SELECT NOT EXISTS (SELECT 1 FROM unnest(p_entries) AS e WHERE COALESCE(e.probe, false))
     AND NOT EXISTS (
       SELECT 1
       FROM (SELECT p.account_id, SUM(p.amount_cents) AS delta
             FROM unnest(p_entries) AS e, unnest(e.postings) AS p
             WHERE NOT (p.account_id = ANY (v_system))
             GROUP BY p.account_id) d
       JOIN ledger_accounts a ON a.id = d.account_id
       WHERE d.delta < 0 AND a.balance_cents + d.delta < 0
     )
  INTO v_all_fit;

  IF NOT v_all_fit THEN
    -- 2. Every posting but the trader debits (credits, system accounts), one update per
    --    account: within one call, money credited counts before money debited.
    UPDATE ledger_accounts a SET balance_cents = a.balance_cents + d.delta
    FROM (
      SELECT p.account_id, SUM(p.amount_cents) AS delta
      FROM unnest(p_entries) AS e, unnest(e.postings) AS p
      WHERE NOT COALESCE(e.probe, false)
        AND NOT (p.amount_cents < 0 AND NOT (p.account_id = ANY (v_system)))
      GROUP BY p.account_id
    ) d
    WHERE a.id = d.account_id;

    -- 3. The guarded debits of trader accounts, entry by entry in order (a later entry sees
    --    the balance the earlier ones left). An entry that comes up short, and a probe, is
    --    undone and not written.
    v_guarded := ARRAY(
      SELECT DISTINCT e.ordinality::integer
      FROM unnest(p_entries) WITH ORDINALITY AS e, unnest(e.postings) AS p
      WHERE p.amount_cents < 0 AND NOT (p.account_id = ANY (v_system))
      ORDER BY 1
    );
    FOREACH v_index IN ARRAY v_guarded LOOP
      v_entry := p_entries[v_index];
      v_debited := '{}';
      v_is_short := false;
      FOREACH v_posting IN ARRAY v_entry.postings LOOP
        CONTINUE WHEN v_posting.amount_cents >= 0 OR v_posting.account_id = ANY (v_system);
        UPDATE ledger_accounts a SET balance_cents = a.balance_cents + v_posting.amount_cents
        WHERE a.id = v_posting.account_id AND a.balance_cents + v_posting.amount_cents >= 0;
        IF NOT FOUND THEN
          v_is_short := true;
          EXIT;
        END IF;
        v_debited := v_debited || v_posting;
      END LOOP;
      IF v_is_short OR COALESCE(v_entry.probe, false) THEN
        UPDATE ledger_accounts a SET balance_cents = a.balance_cents - d.amount_cents
        FROM unnest(v_debited) AS d WHERE a.id = d.account_id;
        v_unwritten := v_unwritten || v_index;
        IF v_is_short AND COALESCE(v_entry.probe, false) THEN
          v_probe_short := v_probe_short || v_index;
        ELSIF v_is_short THEN
          v_short := v_short || v_index;
        END IF;
      END IF;
    END LOOP;
    -- A short entry's other postings (step 2) are taken back. (Should a later entry's debit
    -- have needed that money, the CHECK constraint refuses the negative balance and the
    -- caller's transaction fails: nothing is overdrawn.)
    IF cardinality(v_short) > 0 THEN
      UPDATE ledger_accounts a SET balance_cents = a.balance_cents - d.delta
      FROM (
        SELECT p.account_id, SUM(p.amount_cents) AS delta
        FROM unnest(p_entries) WITH ORDINALITY AS e, unnest(e.postings) AS p
        WHERE e.ordinality::integer = ANY (v_short)
          AND NOT (p.amount_cents < 0 AND NOT (p.account_id = ANY (v_system)))
        GROUP BY p.account_id
      ) d
      WHERE a.id = d.account_id;
    END IF;
    -- A probe entry is never written, whether or not it debits a trader.
    v_unwritten := v_unwritten || ARRAY(
      SELECT e.ordinality::integer FROM unnest(p_entries) WITH ORDINALITY AS e
      WHERE COALESCE(e.probe, false) AND NOT (e.ordinality::integer = ANY (v_guarded))
    );
  END IF;

  -- The posted entries merged, one entry per kind, in the order the kinds first appear.
  IF p_merged_reference IS NOT NULL THEN
    v_merged := ARRAY(
      SELECT ROW(k.kind, p_merged_reference || ':' || k.kind, k.created_at, false, ARRAY(
               SELECT ROW(x.account_id, SUM(x.amount_cents))::ledger_posting_in
               FROM unnest(p_entries) WITH ORDINALITY AS e
               CROSS JOIN LATERAL unnest(e.postings) AS x
               WHERE e.kind = k.kind AND NOT (e.ordinality::integer = ANY (v_unwritten))
               GROUP BY x.account_id
               HAVING SUM(x.amount_cents) <> 0
             ))::ledger_entry_in
      FROM (
        SELECT e.kind, MIN(e.created_at) AS created_at, MIN(e.ordinality) AS first_ord
        FROM unnest(p_entries) WITH ORDINALITY AS e
        WHERE NOT (e.ordinality::integer = ANY (v_unwritten))
        GROUP BY e.kind
      ) k
      ORDER BY k.first_ord
    );
    -- A programmer error again: entries that cancel out entirely cannot make an entry.
    IF EXISTS (SELECT 1 FROM unnest(v_merged) AS m WHERE COALESCE(cardinality(m.postings), 0) < 2)
    THEN
      RAISE EXCEPTION 'merged entries of one kind must leave two or more postings';
    END IF;
  END IF;

  -- 4. The entries and their postings, each posting chained onto its account's chain
  --    (migration 028): in entry order, then posting order, from the head on the account's
  --    row, which this transaction holds locked (step 1). The new heads go back on the rows,
  --    with the balances when every entry fits (above).
  --    `linked` reads the batch's accounts by their key (`a.id = ANY (v_account_ids)`), a
  --    few rows the planner then expects, so heads_out updates them by their key too.
  --    Joined on the postings alone, on an estimate without statistics (the embedded
  --    database never analyzes; autovacuum may be off) the planner hashed the whole table
  --    in both, each call: ~0.6 ms a call at the bench's 2,000 accounts (bench/RESULTS.md,
  --    issue 16's twenty-first session). Not beside a join the planner runs as a nested loop
  --    (heads_out's, or the "all fit" test's above): there the array went into every probe
  --    of the key, 5.3 ms for that test at 200 trades.
  RETURN QUERY
  WITH posted AS (
    SELECT e.ordinality::integer AS ord, e.kind, e.reference, e.created_at, e.postings
    FROM unnest(p_entries) WITH ORDINALITY AS e
    WHERE NOT (e.ordinality::integer = ANY (v_unwritten))
  ), written AS (
    SELECT w.ord, w.kind, w.reference, w.created_at, w.postings, nextval(v_sequence) AS id
    FROM (
      SELECT p.ord, p.kind, p.reference, p.created_at, p.postings FROM posted p
      WHERE p_merged_reference IS NULL
      UNION ALL
      SELECT m.ordinality::integer, m.kind, m.reference, m.created_at, m.postings
      FROM unnest(v_merged) WITH ORDINALITY AS m
    ) w
  ), entries_in AS (
    INSERT INTO journal_entries (id, kind, reference, created_at)
    SELECT w.id, w.kind, w.reference, w.created_at FROM written w
  ), linked AS (
    -- Each link (previous hash || own) in one window pass (migration 035).
    SELECT w.id AS entry_id, p.account_id, p.amount_cents,
           a.chain_seq + row_number() OVER chain AS seq,
           journal_chain_fold_pair(a.chain_head, journal_posting_digest(
             w.id, w.kind, w.reference, w.created_at, p.account_id, p.amount_cents
           )) OVER chain AS link
    FROM written w
    CROSS JOIN LATERAL unnest(w.postings) WITH ORDINALITY AS p(account_id, amount_cents, pord)
    JOIN ledger_accounts a ON a.id = p.account_id AND a.id = ANY (v_account_ids)
    WINDOW chain AS (PARTITION BY p.account_id ORDER BY w.ord, p.pord)
  ), postings_in AS (
    INSERT INTO postings (entry_id, account_id, amount_cents, chain_seq, prev_hash, row_hash)
    SELECT l.entry_id, l.account_id, l.amount_cents, l.seq, journal_link_prev(l.link),
           journal_link_hash(l.link)
    FROM linked l
  ), heads_out AS (
    UPDATE ledger_accounts a
    SET chain_seq = h.seq, chain_head = h.row_hash,
        balance_cents = a.balance_cents + CASE WHEN v_all_fit THEN h.delta ELSE 0 END
    FROM (SELECT DISTINCT ON (l.account_id) l.account_id, l.seq,
                 journal_link_hash(l.link) AS row_hash,
                 SUM(l.amount_cents) OVER (PARTITION BY l.account_id) AS delta
          FROM linked l ORDER BY l.account_id, l.seq DESC) h
    WHERE a.id = h.account_id
  )
  SELECT e.ordinality::integer,
         CASE WHEN q.ord IS NOT NULL THEN 'posted'
              WHEN e.ordinality::integer = ANY (v_short) THEN 'short'
              WHEN e.ordinality::integer = ANY (v_probe_short) THEN 'short'
              ELSE 'sufficient' END,
         CASE WHEN q.ord IS NULL THEN NULL
              WHEN p_merged_reference IS NULL THEN w.id
              ELSE (SELECT x.id FROM written x WHERE x.kind = q.kind) END
  FROM unnest(p_entries) WITH ORDINALITY AS e
  LEFT JOIN posted q ON q.ord = e.ordinality
  LEFT JOIN written w ON w.ord = e.ordinality AND p_merged_reference IS NULL
  ORDER BY e.ordinality;
END
$$;

-- (Every function here is PL/pgSQL, not SQL: PL/pgSQL keeps its plans for the session,
-- where an SQL function's body is planned again at each call.)

-- ledger_post for callers that speak JSON (the TypeScript writer): the one decoder of an
-- array of {kind, reference, created_at, probe, postings: [{account_id, amount_cents}]}.
CREATE OR REPLACE FUNCTION ledger_post_json(p_entries jsonb)
RETURNS TABLE (ord integer, outcome text, entry_id bigint)
LANGUAGE plpgsql AS $$
BEGIN
  -- jsonb_populate_recordset yields the array's elements in order (one function scan).
  RETURN QUERY SELECT * FROM ledger_post(ARRAY(
    SELECT e FROM jsonb_populate_recordset(NULL::ledger_entry_in, p_entries) AS e
  ));
END
$$;

-- The trader accounts of the owners, in the owners' order (NULL where there is none).
CREATE OR REPLACE FUNCTION ledger_trader_account_ids(
  p_owners ledger_trader_account_in[],
  p_currency text
) RETURNS bigint[] LANGUAGE plpgsql STABLE AS $$
BEGIN
  -- One probe of ledger_accounts_trader_idx per owner, whatever the statistics say: as a
  -- join, a table never analyzed (the embedded database never analyzes; autovacuum may be
  -- off) was read whole for every batch (2,000 accounts for 25 owners: 0.55 ms a call).
  RETURN ARRAY(
    SELECT (SELECT a.id FROM ledger_accounts a
            WHERE a.user_id = o.user_id
              AND a.code = CASE WHEN o.is_practice THEN 'practice' ELSE 'real' END
              AND a.currency = p_currency)
    FROM unnest(p_owners) WITH ORDINALITY AS o
    ORDER BY o.ordinality
  );
END
$$;

-- The system accounts of the codes, in the codes' order (NULL where there is none). A
-- batch names its few house shards once per trade: each is looked up once (the distinct
-- codes, a dozen at most), then matched in memory.
CREATE OR REPLACE FUNCTION ledger_system_account_ids(p_codes text[], p_currency text)
RETURNS bigint[] LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT COALESCE(array_agg(a.id ORDER BY c.ordinality), '{}')
    FROM unnest(p_codes) WITH ORDINALITY AS c(code, ordinality)
    LEFT JOIN (
      SELECT x.id, x.code FROM ledger_accounts x
      WHERE x.user_id IS NULL AND x.currency = p_currency
        AND x.code = ANY (ARRAY(SELECT DISTINCT w.code FROM unnest(p_codes) AS w(code)))
    ) a ON a.code = c.code
  );
END
$$;

-- The real and practice balances of each of the traders.
CREATE OR REPLACE FUNCTION ledger_trader_balances(p_user_ids bigint[], p_currency text)
RETURNS TABLE (user_id bigint, real_cents bigint, practice_cents bigint)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT a.user_id,
           COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'real'), 0)::bigint,
           COALESCE(SUM(a.balance_cents) FILTER (WHERE a.code = 'practice'), 0)::bigint
    FROM ledger_accounts a
    WHERE a.user_id = ANY (p_user_ids) AND a.currency = p_currency
    GROUP BY a.user_id;
END
$$;

-- Sessions checked and touched by the transaction of a write (issue 16 item 2): a signed-in
-- request whose session the server took from its recent lookups (auth/sessions.ts
-- `findRecent`) has it checked live here, by the write that acts on it, instead of in a
-- round trip of its own. The conditions are the session lookup's for a trader
-- (auth/sessions.ts `liveSessionCondition`, with the trader's lifetimes as cut-offs).

-- For each request (the arrays in parallel, one element a request): true where its session
-- is a live trader session of its user at `p_at`, false where not, null where the request
-- names no session (nothing to check).
CREATE OR REPLACE FUNCTION auth_trader_sessions_live(
  p_session_ids bigint[],
  p_user_ids bigint[],
  p_at timestamptz[],
  p_seen_after timestamptz[],
  p_created_after timestamptz[]
) RETURNS boolean[] LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN ARRAY(
    SELECT CASE WHEN x.session_id IS NULL THEN NULL ELSE EXISTS (
             SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.id = x.session_id AND s.user_id = x.user_id AND u.role = 'trader'
               AND s.revoked_at IS NULL AND s.expires_at > x.at
               AND s.last_seen_at > x.seen_after AND s.created_at > x.created_after
           ) END
    FROM unnest(p_session_ids, p_user_ids, p_at, p_seen_after, p_created_after)
         WITH ORDINALITY AS x(session_id, user_id, at, seen_after, created_after, ord)
    ORDER BY x.ord
  );
END
$$;

-- Touches the sessions in use (nulls skipped): last_seen_at becomes the latest use, where it
-- is older than that request's `p_touch_before` (so reads do not turn into writes: a session
-- is written at most once per touch interval, as the lookup writes it).
CREATE OR REPLACE FUNCTION auth_touch_sessions(
  p_session_ids bigint[],
  p_seen_at timestamptz[],
  p_touch_before timestamptz[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sessions s SET last_seen_at = GREATEST(s.last_seen_at, t.seen_at)
  FROM (
    SELECT x.session_id, MAX(x.seen_at) AS seen_at, MAX(x.touch_before) AS touch_before
    FROM unnest(p_session_ids, p_seen_at, p_touch_before) AS x(session_id, seen_at, touch_before)
    WHERE x.session_id IS NOT NULL
    GROUP BY x.session_id
  ) t
  -- `s.id = ANY`: the sessions by their key, not the whole table hashed on a
  -- statistics-free estimate (as in ledger_post, 010_ledger.sql).
  WHERE s.id = t.session_id AND s.id = ANY (p_session_ids) AND s.last_seen_at < t.touch_before;
END
$$;

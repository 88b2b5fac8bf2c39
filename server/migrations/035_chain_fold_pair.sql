-- The journal's chain fold (028, 029) yielding each record's link whole (issue 16): the
-- previous record's hash and the record's own, 64 bytes, in one window pass. The writers
-- took the previous hash with lag() over the folded rows, a second sort and window pass
-- over every record a batch writes. The hash is the same expression as journal_chain_link, so
-- every stored hash stays as it was; server/test/journal.test.ts checks the two folds agree.
-- Never edit this file once it has landed; add a new numbered one.
CREATE FUNCTION journal_chain_link_pair_step(p_state bytea, p_seed bytea, p_digest bytea)
RETURNS bytea LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  v_prev bytea := CASE WHEN p_state IS NULL THEN p_seed ELSE substring(p_state FROM 33) END;
BEGIN
  RETURN v_prev || sha256(v_prev || p_digest);
END
$$;

-- journal_chain_fold_pair(head, digest) OVER (... ORDER BY ...): prev_hash || row_hash, each
-- 32 bytes (journal_link_prev and journal_link_hash take them apart).
CREATE AGGREGATE journal_chain_fold_pair(bytea, bytea) (
  SFUNC = journal_chain_link_pair_step, STYPE = bytea
);

CREATE FUNCTION journal_link_prev(p_link bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT substring(p_link FROM 1 FOR 32)
$$;

CREATE FUNCTION journal_link_hash(p_link bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT substring(p_link FROM 33 FOR 32)
$$;

import { createPublicKey, verify } from "node:crypto";
import { canonicalJson } from "@tp/domain/canonical-json";
import {
  type CheckpointHead,
  checkpointBodySchema,
  type JournalProblem,
  type JournalVerification,
} from "@tp/domain/journal";
import type { Database, Queryable } from "../db/database.ts";
import { current_chain_heads_sql, sha256Hex } from "./checkpoints.ts";

/**
 * Recomputes every chain of the journal (migration 028) and checks every signed checkpoint
 * against it: `npm run journal:verify` and the back office's reconciliation page. Finds the
 * first record that was edited (its hash no longer matches its contents), deleted (a gap in
 * its chain, or a head past the chain's end) or inserted out of place (a record that does not
 * follow the one before it), and the first checkpoint whose signature or link fails.
 */

/**
 * Every chained record with its hash recomputed from its contents now, in one relation:
 * (chain, record, id, seq, prev_hash, row_hash, recomputed). A record written outside the
 * writers has no chain fields: it lands in chain "…:unchained" with no seq, and fails.
 */
const chained_records_sql = `
  SELECT 'account:' || p.account_id AS chain, 'posting' AS record, p.id, p.chain_seq AS seq,
         p.prev_hash, p.row_hash,
         journal_chain_link(NULL, p.prev_hash, journal_posting_digest(
           e.id, e.kind, e.reference, e.created_at, p.account_id, p.amount_cents)) AS recomputed
  FROM postings p LEFT JOIN journal_entries e ON e.id = p.entry_id
  UNION ALL
  SELECT COALESCE('trades:' || t.placed_chain, 'trades:unchained'), 'trade_placed', t.id,
         t.placed_seq, t.placed_prev, t.placed_hash,
         journal_chain_link(NULL, t.placed_prev, journal_trade_placed_digest(
           t.id, t.user_id, t.is_practice, t.asset, t.direction, t.stake_cents,
           t.duration_seconds, t.payout_percent, t.entry_price, t.entry_at, t.feed,
           t.start_time, t.expires_at, t.received_at, t.rule_version))
  FROM trades t
  UNION ALL
  SELECT COALESCE('trades:' || t.settled_chain, 'trades:unchained'), 'trade_settled', t.id,
         t.settled_seq, t.settled_prev, t.settled_hash,
         journal_chain_link(NULL, t.settled_prev, journal_trade_settled_digest(
           t.id, t.placed_hash, t.status, t.exit_price, t.exit_at, t.exit_feed, t.credit_cents,
           t.settled_at, t.settlement_lag_ms, t.settlement_note, t.refund_reason))
  FROM trades t WHERE t.status <> 'open' OR t.settled_seq IS NOT NULL
  UNION ALL
  SELECT 'audit', 'audit', l.id, l.chain_seq, l.prev_hash, l.row_hash,
         journal_chain_link(NULL, l.prev_hash, journal_audit_digest(
           l.id, l.actor_user_id, l.actor_label, l.action, l.target_type, l.target_id,
           l.before, l.after, l.ip, l.created_at))
  FROM admin_audit_log l`;

const record_words: Record<string, string> = {
  posting: "posting",
  trade_placed: "trade",
  trade_settled: "trade",
  audit: "staff audit log row",
  journal_entry: "journal entry",
};

function recordName(record: string, id: number): string {
  const suffix =
    record === "trade_placed" ? " (as placed)" : record === "trade_settled" ? " (as settled)" : "";
  return `${record_words[record] ?? record} ${id}${suffix}`;
}

interface RecordProblemRow {
  chain: string;
  record: JournalProblem["record"];
  id: number;
  seq: number | null;
  before_record: JournalProblem["record"] | null;
  before_id: number | null;
  before_seq: number | null;
  problem: "edited" | "deleted" | "inserted" | "before_edited";
}

async function firstRecordProblem(queryable: Queryable): Promise<JournalProblem | null> {
  const result = await queryable.query<RecordProblemRow>(
    `WITH r AS (${chained_records_sql}), w AS (
       SELECT r.*, lag(r.seq) OVER c AS before_seq, lag(r.row_hash) OVER c AS before_hash,
              lag(r.record) OVER c AS before_record, lag(r.id) OVER c AS before_id
       FROM r WINDOW c AS (PARTITION BY r.chain ORDER BY r.seq NULLS FIRST, r.id, r.record)
     ), p AS (
       SELECT w.*, CASE
         WHEN w.seq IS NULL OR w.seq <= COALESCE(w.before_seq, 0) THEN 'inserted'
         WHEN w.seq > COALESCE(w.before_seq, 0) + 1 THEN 'deleted'
         WHEN w.prev_hash IS DISTINCT FROM COALESCE(w.before_hash, journal_genesis())
           THEN CASE WHEN w.before_id IS NULL THEN 'inserted' ELSE 'before_edited' END
         WHEN w.row_hash IS DISTINCT FROM w.recomputed THEN 'edited'
       END AS problem
       FROM w
     )
     SELECT chain, record, id, seq, before_record, before_id, before_seq, problem FROM p
     WHERE problem IS NOT NULL
     ORDER BY chain COLLATE "C", seq NULLS FIRST, id LIMIT 1`,
  );
  const row = result.rows[0];
  if (!row) return null;
  const name = recordName(row.record!, Number(row.id));
  switch (row.problem) {
    case "edited":
      return {
        kind: "edited",
        chain: row.chain,
        record: row.record,
        id: Number(row.id),
        message: `${name} was edited: its stored hash does not match its contents (chain ${row.chain}, record ${row.seq}).`,
      };
    case "before_edited":
      return {
        kind: "edited",
        chain: row.chain,
        record: row.before_record,
        id: Number(row.before_id),
        message: `${recordName(row.before_record!, Number(row.before_id))} was rewritten: ${name}, the record after it in chain ${row.chain}, links to a different hash.`,
      };
    case "deleted":
      return {
        kind: "deleted",
        chain: row.chain,
        record: row.record,
        id: Number(row.id),
        message: `Records were deleted from chain ${row.chain}: it jumps from record ${row.before_seq ?? 0} to record ${row.seq} (${name}).`,
      };
    default:
      return {
        kind: "inserted",
        chain: row.chain,
        record: row.record,
        id: Number(row.id),
        message:
          row.seq === null
            ? `${name} was inserted outside the journal's writers: it has no place in any chain.`
            : `${name} was inserted out of place: it does not follow the record before it in chain ${row.chain}.`,
      };
  }
}

/** A chain's stored head against its last record: records deleted from its end, or appended. */
async function firstHeadProblem(queryable: Queryable): Promise<JournalProblem | null> {
  const result = await queryable.query<{
    chain: string;
    seq: number;
    head: Buffer;
    last_seq: number | null;
    last_hash: Buffer | null;
  }>(
    `WITH r AS (${chained_records_sql}), last AS (
       SELECT DISTINCT ON (r.chain) r.chain, r.seq, r.row_hash FROM r
       WHERE r.seq IS NOT NULL ORDER BY r.chain, r.seq DESC
     )
     SELECT h.chain, h.seq, h.head, l.seq AS last_seq, l.row_hash AS last_hash
     FROM (${current_chain_heads_sql}) h LEFT JOIN last l ON l.chain = h.chain
     WHERE l.seq IS DISTINCT FROM h.seq OR l.row_hash IS DISTINCT FROM h.head
     ORDER BY h.chain COLLATE "C" LIMIT 1`,
  );
  const row = result.rows[0];
  if (!row) return null;
  const last = row.last_seq === null ? 0 : Number(row.last_seq);
  if (last < Number(row.seq)) {
    return {
      kind: "deleted",
      chain: row.chain,
      record: null,
      id: null,
      message: `Records were deleted from the end of chain ${row.chain}: it holds ${last} records where its head says ${row.seq}.`,
    };
  }
  return {
    kind: "inserted",
    chain: row.chain,
    record: null,
    id: null,
    message: `Chain ${row.chain} ends past its head (record ${last}, head at ${row.seq}): records were appended outside the journal's writers, or its head was rewritten.`,
  };
}

async function firstOrphanEntry(queryable: Queryable): Promise<JournalProblem | null> {
  const result = await queryable.query<{ id: number }>(
    `SELECT e.id FROM journal_entries e
     WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id) ORDER BY e.id LIMIT 1`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    kind: "inserted",
    chain: null,
    record: "journal_entry",
    id: Number(row.id),
    message: `journal entry ${row.id} has no postings: it was inserted outside the ledger's writer, or its postings were deleted.`,
  };
}

interface CheckpointCheck {
  count: number;
  latest: { id: number; created_at: string } | null;
  problem: JournalProblem | null;
}

function checkpointProblem(id: number, message: string): JournalProblem {
  return {
    kind: "checkpoint",
    chain: null,
    record: null,
    id,
    message: `Checkpoint ${id}: ${message}`,
  };
}

/** Signatures, the link of each checkpoint to the one before, and every head against its chain. */
async function checkCheckpoints(queryable: Queryable): Promise<CheckpointCheck> {
  const keys = await queryable.query<{ key_id: string; public_key: string }>(
    "SELECT key_id, public_key FROM receipt_signing_keys",
  );
  const publicKeys = new Map(
    keys.rows.map((row) => [
      row.key_id,
      createPublicKey({
        key: {
          kty: "OKP",
          crv: "Ed25519",
          x: Buffer.from(row.public_key, "base64").toString("base64url"),
        },
        format: "jwk",
      }),
    ]),
  );
  const rows = await queryable.query<{
    id: number;
    created_at: Date;
    body: string;
    key_id: string;
    signature: string;
  }>("SELECT id, created_at, body, key_id, signature FROM journal_checkpoints ORDER BY id");
  const heads: Array<CheckpointHead & { checkpoint: number }> = [];
  let previousBody: string | null = null;
  let expectedId = 1;
  for (const row of rows.rows) {
    const id = Number(row.id);
    const fail = (message: string): CheckpointCheck => ({
      count: rows.rows.length,
      latest: null,
      problem: checkpointProblem(id, message),
    });
    if (id !== expectedId)
      return fail(`expected checkpoint ${expectedId} here: checkpoints were deleted or inserted.`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.body);
    } catch {
      return fail("its body is not JSON.");
    }
    const body = checkpointBodySchema.safeParse(parsed);
    if (!body.success || canonicalJson(body.data) !== row.body || body.data.id !== id) {
      return fail("its body is not a canonical checkpoint of this id.");
    }
    const key = publicKeys.get(row.key_id);
    if (!key) return fail(`it names key ${row.key_id}, which is not published.`);
    if (!verify(null, Buffer.from(row.body, "utf8"), key, Buffer.from(row.signature, "base64"))) {
      return fail("its signature does not verify: the checkpoint was changed after it was signed.");
    }
    const expectedPrevious = previousBody === null ? null : sha256Hex(previousBody);
    if (body.data.previous !== expectedPrevious) {
      return fail("it does not link to the checkpoint before it.");
    }
    for (const head of body.data.heads) heads.push({ ...head, checkpoint: id });
    previousBody = row.body;
    expectedId += 1;
  }
  const last = rows.rows.at(-1);
  const latest = last ? { id: Number(last.id), created_at: last.created_at.toISOString() } : null;
  if (heads.length === 0) return { count: rows.rows.length, latest, problem: null };

  // Each signed head must be the hash of the record at its place in its chain, today.
  const mismatch = await queryable.query<{
    checkpoint: number;
    chain: string;
    seq: number;
    found: boolean;
  }>(
    `WITH r AS (${chained_records_sql})
     SELECT h.checkpoint, h.chain, h.seq, r.row_hash IS NOT NULL AS found
     FROM jsonb_to_recordset($1::jsonb) AS h(checkpoint bigint, chain text, seq bigint, head text)
     LEFT JOIN r ON r.chain = h.chain AND r.seq = h.seq
     WHERE r.row_hash IS DISTINCT FROM decode(h.head, 'hex')
     ORDER BY h.checkpoint, h.chain COLLATE "C" LIMIT 1`,
    [JSON.stringify(heads)],
  );
  const bad = mismatch.rows[0];
  if (bad) {
    return {
      count: rows.rows.length,
      latest,
      problem: {
        kind: bad.found ? "edited" : "deleted",
        chain: bad.chain,
        record: null,
        id: null,
        message: bad.found
          ? `Chain ${bad.chain} was rewritten: its record ${bad.seq} no longer has the hash checkpoint ${bad.checkpoint} signed.`
          : `Chain ${bad.chain} lost its record ${bad.seq}, which checkpoint ${bad.checkpoint} signed.`,
      },
    };
  }
  return { count: rows.rows.length, latest, problem: null };
}

export async function verifyJournal(queryable: Queryable, at: Date): Promise<JournalVerification> {
  const counts = await queryable.query<{
    postings: number;
    trades_placed: number;
    trades_settled: number;
    audit: number;
    chains: number;
  }>(
    `WITH r AS (${chained_records_sql})
     SELECT COUNT(*) FILTER (WHERE record = 'posting')::bigint AS postings,
            COUNT(*) FILTER (WHERE record = 'trade_placed')::bigint AS trades_placed,
            COUNT(*) FILTER (WHERE record = 'trade_settled')::bigint AS trades_settled,
            COUNT(*) FILTER (WHERE record = 'audit')::bigint AS audit,
            COUNT(DISTINCT chain)::bigint AS chains
     FROM r`,
  );
  const checkpoints = await checkCheckpoints(queryable);
  const problem =
    (await firstRecordProblem(queryable)) ??
    (await firstOrphanEntry(queryable)) ??
    (await firstHeadProblem(queryable)) ??
    checkpoints.problem;
  const c = counts.rows[0]!;
  return {
    ok: problem === null,
    checked_at: at.toISOString(),
    records: {
      postings: Number(c.postings),
      trades_placed: Number(c.trades_placed),
      trades_settled: Number(c.trades_settled),
      audit: Number(c.audit),
    },
    chains: Number(c.chains),
    checkpoints: checkpoints.count,
    latest_checkpoint: checkpoints.latest,
    problem,
  };
}

/**
 * verifyJournal on one snapshot (REPEATABLE READ), so records written while it runs cannot
 * look like a chain running past its head. Read only: nothing is written.
 */
export async function verifyJournalConsistently(
  database: Database,
  at: Date,
): Promise<JournalVerification> {
  return database.transaction(async (transaction) => {
    await transaction.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    return verifyJournal(transaction, at);
  });
}

export function formatJournalVerification(verification: JournalVerification): string {
  const { records } = verification;
  const lines = [
    `Journal verify at ${verification.checked_at}`,
    `  records recomputed: ${records.postings} postings, ${records.trades_placed} trades placed, ${records.trades_settled} trades settled, ${records.audit} staff audit rows`,
    `  chains: ${verification.chains}; signed checkpoints: ${verification.checkpoints}${
      verification.latest_checkpoint
        ? ` (latest ${verification.latest_checkpoint.id} at ${verification.latest_checkpoint.created_at})`
        : ""
    }`,
    verification.problem
      ? `FAILED: ${verification.problem.message}`
      : "OK: every chain and checkpoint holds.",
  ];
  return `${lines.join("\n")}\n`;
}

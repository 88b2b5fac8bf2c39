import { createHash, sign } from "node:crypto";
import { canonicalJson } from "@tp/domain/canonical-json";
import {
  type CheckpointBody,
  type CheckpointHead,
  checkpoint_format,
  type PublishedCheckpoint,
} from "@tp/domain/journal";
import type { Database, Queryable } from "../db/database.ts";
import type { ReceiptSigningKey } from "../receipts/receipt-signing-key.ts";

/**
 * Signed checkpoints of the journal's chains (issue 15 item 3, migration 028). Every minute
 * with activity, the heads of the chains that moved since the last checkpoint are signed with
 * the receipt key (one published key list for both) and stored; each checkpoint names the
 * SHA-256 of the one before, so they chain too. Published at GET /journal/checkpoints.
 */

/** Every chain's current head, as the records' writers left it (committed data only). */
export const current_chain_heads_sql = `
  SELECT 'account:' || a.id AS chain, a.chain_seq AS seq, a.chain_head AS head
  FROM ledger_accounts a WHERE a.chain_seq > 0
  UNION ALL
  SELECT 'trades:' || h.house_account_id, h.seq, h.head FROM trade_chain_heads h WHERE h.seq > 0
  UNION ALL
  SELECT 'audit', h.seq, h.head FROM audit_chain_head h WHERE h.seq > 0`;

// One checkpoint at a time across processes.
const checkpoint_lock_key = "journal-checkpoint";

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Signs a checkpoint of the chains that moved since the last one; returns its id, or null
 * when nothing moved (no activity, no checkpoint).
 */
export async function writeCheckpoint(
  database: Database,
  key: ReceiptSigningKey,
  at: Date,
): Promise<number | null> {
  return database.transaction(async (transaction) => {
    await transaction.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
      checkpoint_lock_key,
    ]);
    const moved = await transaction.query<{ chain: string; seq: number; head: string }>(
      `SELECT c.chain, c.seq, encode(c.head, 'hex') AS head
       FROM (${current_chain_heads_sql}) c
       WHERE NOT EXISTS (SELECT 1 FROM journal_checkpoint_heads k
                         WHERE k.chain = c.chain AND k.seq = c.seq)
       ORDER BY c.chain COLLATE "C"`,
    );
    if (moved.rows.length === 0) return null;
    const previous = await transaction.query<{ id: number; body: string }>(
      "SELECT id, body FROM journal_checkpoints ORDER BY id DESC LIMIT 1",
    );
    const last = previous.rows[0];
    const heads: CheckpointHead[] = moved.rows.map((row) => ({
      chain: row.chain,
      seq: Number(row.seq),
      head: row.head,
    }));
    const body: CheckpointBody = {
      format: checkpoint_format,
      id: (last?.id ?? 0) + 1,
      created_at: at.toISOString(),
      previous: last ? sha256Hex(last.body) : null,
      heads,
    };
    const text = canonicalJson(body);
    const signature = sign(null, Buffer.from(text, "utf8"), key.privateKey).toString("base64");
    await transaction.query(
      `INSERT INTO journal_checkpoints (id, created_at, body, key_id, signature)
       VALUES ($1, $2, $3, $4, $5)`,
      [body.id, at, text, key.keyId, signature],
    );
    await transaction.query(
      `INSERT INTO journal_checkpoint_heads (checkpoint_id, chain, seq, head)
       SELECT $1, h.chain, h.seq, decode(h.head, 'hex')
       FROM jsonb_to_recordset($2::jsonb) AS h(chain text, seq bigint, head text)`,
      [body.id, JSON.stringify(heads)],
    );
    return body.id;
  });
}

/** Published checkpoints, newest first, a page at a time. */
export async function listCheckpoints(
  queryable: Queryable,
  page: { beforeId: number | null; limit: number },
): Promise<PublishedCheckpoint[]> {
  const result = await queryable.query<{
    id: number;
    created_at: Date;
    body: string;
    key_id: string;
    signature: string;
  }>(
    `SELECT id, created_at, body, key_id, signature FROM journal_checkpoints
     WHERE $1::bigint IS NULL OR id < $1 ORDER BY id DESC LIMIT $2`,
    [page.beforeId, page.limit],
  );
  return result.rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

import type { AuditAction, AuditEntry } from "@tp/domain/admin-api";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";
import { escapeLike } from "../db/escape-like.ts";

/**
 * The staff audit log (PRODUCT.md D7): every staff action with who, what, when, the state
 * before and after, and the address it came from. Written in the transaction of the action
 * itself, so an action and its record commit together or not at all. The table refuses
 * UPDATE, DELETE and TRUNCATE (migration 004): the log is append-only.
 */

export interface AuditActor {
  /** Null for the command line and the first-start bootstrap. */
  userId: number | null;
  /** The actor's e-mail, or "cli" / "bootstrap". */
  label: string;
  ip: string | null;
}

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  targetType: string;
  targetId: string | number;
  before: unknown;
  after: unknown;
  at: Date;
}

/**
 * Appends the record to the audit chain (migration 028) in the same statement: the head row
 * is locked (audit writes are a few a minute), the record links to it, and the head moves on.
 */
export async function recordAudit(transaction: Queryable, record: AuditRecord): Promise<number> {
  const inserted = await transaction.query<{ id: number }>(
    `WITH head AS (
       SELECT h.seq, h.head FROM audit_chain_head h FOR UPDATE
     ), new_row AS (
       SELECT nextval(pg_get_serial_sequence('admin_audit_log', 'id')) AS id,
              head.seq + 1 AS seq, head.head AS prev_hash
       FROM head
     ), hashed AS (
       SELECT n.*, journal_chain_link(NULL, n.prev_hash, journal_audit_digest(
                n.id, $1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9)) AS row_hash
       FROM new_row n
     ), written AS (
       INSERT INTO admin_audit_log (id, actor_user_id, actor_label, action, target_type, target_id,
                                    before, after, ip, created_at, chain_seq, prev_hash, row_hash)
       SELECT h.id, $1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, h.seq, h.prev_hash, h.row_hash
       FROM hashed h
     ), moved AS (
       UPDATE audit_chain_head SET seq = h.seq, head = h.row_hash FROM hashed h
     )
     SELECT id FROM hashed`,
    [
      record.actor.userId,
      record.actor.label,
      record.action,
      record.targetType,
      String(record.targetId),
      record.before === undefined || record.before === null ? null : JSON.stringify(record.before),
      record.after === undefined || record.after === null ? null : JSON.stringify(record.after),
      record.actor.ip,
      record.at,
    ],
  );
  return Number(inserted.rows[0]!.id);
}

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  limit: number;
}

interface AuditRow {
  id: number;
  actor_user_id: number | null;
  actor_email: string | null;
  actor_label: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  created_at: Date;
}

/** Newest first; every filter optional; `to` is exclusive. */
export async function listAudit(
  queryable: Queryable,
  filter: AuditFilter,
): Promise<{ rows: AuditEntry[]; total: number }> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.actor) {
    if (/^\d{1,15}$/.test(filter.actor)) add((p) => `l.actor_user_id = ${p}::bigint`, filter.actor);
    else
      add(
        (p) => `(l.actor_label ILIKE ${p} ESCAPE '\\' OR u.email ILIKE ${p} ESCAPE '\\')`,
        `%${escapeLike(filter.actor.toLowerCase())}%`,
      );
  }
  if (filter.action) add((p) => `l.action = ${p}`, filter.action);
  if (filter.target) {
    const [type, id] = filter.target.split(":", 2);
    add((p) => `l.target_type = ${p}`, type);
    if (id !== undefined) add((p) => `l.target_id = ${p}`, id);
  }
  if (filter.from) add((p) => `l.created_at >= ${p}::timestamptz`, filter.from);
  if (filter.to) add((p) => `l.created_at < ${p}::timestamptz`, filter.to);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
  const from = "FROM admin_audit_log l LEFT JOIN users u ON u.id = l.actor_user_id";

  const { rows, total } = await countAndPage<AuditRow>(queryable, {
    countSql: `SELECT COUNT(*)::bigint AS total ${from} ${where}`,
    rowsSql: `SELECT l.*, u.email AS actor_email ${from} ${where}
     ORDER BY l.created_at DESC, l.id DESC`,
    params,
    page: filter.page,
    limit: filter.limit,
  });
  return {
    total,
    rows: rows.map((row) => ({
      id: row.id,
      actor:
        row.actor_user_id === null
          ? null
          : { id: row.actor_user_id, email: row.actor_email ?? row.actor_label },
      actor_label: row.actor_label,
      action: row.action,
      target_type: row.target_type,
      target_id: row.target_id,
      before: row.before ?? null,
      after: row.after ?? null,
      ip: row.ip,
      created_at: row.created_at.toISOString(),
    })),
  };
}

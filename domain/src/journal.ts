import { z } from "zod";

/**
 * The tamper-evident journal (issue 15 item 3): the shapes of its signed checkpoints and of
 * its verification, shared by the server (`npm run journal:verify`, GET
 * /admin/journal/verify, GET /journal/checkpoints) and the back office.
 *
 * Chains (server/migrations/028_journal_chains.sql): `account:<ledger account id>` holds an
 * account's postings, `trades:<house shard account id>` the trades placed and settled through
 * that shard, `audit` the staff audit log.
 */

/** A chain's head at a checkpoint: its record count and the last record's hash (hex). */
export const checkpointHeadSchema = z.object({
  chain: z.string(),
  seq: z.number().int().nonnegative(),
  head: z.string().regex(/^[0-9a-f]{64}$/),
});
export type CheckpointHead = z.infer<typeof checkpointHeadSchema>;

export const checkpoint_format = "tp-journal-checkpoint/1";

/** What a checkpoint signs (its RFC 8785 canonical form). */
export const checkpointBodySchema = z.object({
  format: z.literal(checkpoint_format),
  id: z.number().int().positive(),
  created_at: z.string(),
  /** SHA-256 (hex) of the previous checkpoint's signed body; null for the first. */
  previous: z.string().nullable(),
  /** The chains that moved since the previous checkpoint, sorted by chain name. */
  heads: z.array(checkpointHeadSchema),
});
export type CheckpointBody = z.infer<typeof checkpointBodySchema>;

/** One published checkpoint: the exact signed text, and its Ed25519 signature (base64). */
export const publishedCheckpointSchema = z.object({
  id: z.number().int().positive(),
  created_at: z.string(),
  body: z.string(),
  key_id: z.string(),
  signature: z.string(),
});
export type PublishedCheckpoint = z.infer<typeof publishedCheckpointSchema>;

export const journalRecordKinds = [
  "posting",
  "journal_entry",
  "trade_placed",
  "trade_settled",
  "audit",
] as const;
export const journalProblemKinds = [
  /** The record's stored hash does not match its contents. */
  "edited",
  /** Records are missing from a chain (a gap in its sequence, or a head beyond its end). */
  "deleted",
  /** A record that does not follow the one before it (a duplicate or foreign sequence). */
  "inserted",
  /** A checkpoint whose signature, key or link to the previous one does not hold. */
  "checkpoint",
] as const;

export const journalProblemSchema = z.object({
  kind: z.enum(journalProblemKinds),
  chain: z.string().nullable(),
  record: z.enum(journalRecordKinds).nullable(),
  /** The record's id in its table (trade id, posting id, audit row id); null for a gap at a chain's end. */
  id: z.number().int().nullable(),
  /** Plain words naming the record and what is wrong with it. */
  message: z.string(),
});
export type JournalProblem = z.infer<typeof journalProblemSchema>;

export const journalVerificationSchema = z.object({
  ok: z.boolean(),
  checked_at: z.string(),
  /** Records recomputed, by kind. */
  records: z.object({
    postings: z.number().int(),
    trades_placed: z.number().int(),
    trades_settled: z.number().int(),
    audit: z.number().int(),
  }),
  chains: z.number().int(),
  checkpoints: z.number().int(),
  latest_checkpoint: z.object({ id: z.number().int(), created_at: z.string() }).nullable(),
  /** The first problem found (chains in name order, records in sequence order); null when all hold. */
  problem: journalProblemSchema.nullable(),
});
export type JournalVerification = z.infer<typeof journalVerificationSchema>;

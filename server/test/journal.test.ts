import { createHash, createPublicKey, verify } from "node:crypto";
import type { JournalVerification } from "@tp/domain/journal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../src/db/database.ts";
import { writeCheckpoint } from "../src/journal/checkpoints.ts";
import { verifyJournal } from "../src/journal/journal-verify.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { signedInStaff, signedInTrader } from "./support/accounts.ts";
import { httpClient } from "./support/http.ts";
import { advanceWithTick } from "./support/prices.ts";
import { runCli } from "./support/run-cli.ts";

/** Rolls back whatever `work` did: each tampering is tried on its own. */
class RolledBack extends Error {}

describe.each(databaseKindsUnderTest())(
  "the tamper-evident journal (issue 15 item 3) on %s",
  (kind) => {
    let platform: TestPlatform;
    let http: ReturnType<typeof httpClient>;
    let trader: Awaited<ReturnType<typeof signedInTrader>>;
    const tradeIds: number[] = [];

    beforeAll(async () => {
      platform = await startTestPlatform(kind);
      http = httpClient(platform.baseUrl);
      trader = await signedInTrader(platform);
      await signedInStaff(platform, "support"); // an audit row
      await advanceWithTick(platform, "EURUSD", 1.1, 500);
      // Several trades in one chain and across chains, some won, some lost.
      for (const [index, type] of ["call", "put", "call", "put"].entries()) {
        const placed = await http.post(
          "/api/v1/place-trade",
          { asset: "EURUSD", type, amount: 10 + index, duration: 30, is_practice: true },
          trader.token,
        );
        expect(placed.status, placed.text).toBe(201);
        tradeIds.push(placed.body.data.trade.id);
      }
      await advanceWithTick(platform, "EURUSD", 1.2, 30_000);
      await advanceWithTick(platform, "EURUSD", 1.2, 500);
      await platform.context.settlement.settleDue();
    }, 120_000);
    afterAll(async () => platform?.close());

    /** Tampers inside a transaction, verifies there, and rolls the tampering back. */
    async function verifiedAfter(tampering: (transaction: Queryable) => Promise<unknown>) {
      let verification: JournalVerification | undefined;
      await expect(
        platform.database.transaction(async (transaction) => {
          await tampering(transaction);
          verification = await verifyJournal(transaction, platform.clock.now());
          throw new RolledBack();
        }),
      ).rejects.toBeInstanceOf(RolledBack);
      return verification!;
    }

    it("chains every record as it is written, signs checkpoints that chain to each other, and publishes them", async () => {
      const clean = await verifyJournal(platform.database, platform.clock.now());
      expect(clean.problem).toBeNull();
      expect(clean.ok).toBe(true);
      expect(clean.records.trades_placed).toBe(4);
      expect(clean.records.trades_settled).toBe(4);
      // Stakes (2 each), the winners' credits (one entry for the batch: its house shard and
      // the trader, 2), the practice top-up (2).
      expect(clean.records.postings).toBeGreaterThanOrEqual(4 * 2 + 2 + 2);
      expect(clean.records.audit).toBeGreaterThanOrEqual(1);

      const key = platform.context.receiptSigningKey;
      // The checkpoint worker's pass at start may have run after beforeAll's first writes (a
      // loaded machine delays its query) and written one already: count from what is there.
      const existing = await platform.database.query<{ n: number }>(
        "SELECT COUNT(*)::integer AS n FROM journal_checkpoints",
      );
      const before = existing.rows[0]!.n;
      expect(before).toBeLessThanOrEqual(1);
      const first = await writeCheckpoint(platform.database, key, platform.clock.now());
      expect(first).toBe(before + 1);
      // Nothing moved: no new checkpoint.
      expect(await writeCheckpoint(platform.database, key, platform.clock.now())).toBeNull();

      const more = await http.post(
        "/api/v1/place-trade",
        { asset: "EURUSD", type: "call", amount: 5, duration: 30, is_practice: true },
        trader.token,
      );
      expect(more.status, more.text).toBe(201);
      // (Before its expiry: the trade is still open, its latest record is its placement.)
      platform.clock.advance(10_000);
      expect(await writeCheckpoint(platform.database, key, platform.clock.now())).toBe(first! + 1);

      const published = await http.get("/api/v1/journal/checkpoints");
      expect(published.status, published.text).toBe(200);
      const [second, firstPublished] = published.body.data.checkpoints;
      expect(second.id).toBe(first! + 1);
      const secondBody = JSON.parse(second.body);
      expect(secondBody.previous).toBe(
        createHash("sha256").update(firstPublished.body, "utf8").digest("hex"),
      );
      // Only the chains the new trade moved: its account, its house shard's trades, the house shard.
      expect(secondBody.heads.map((head: { chain: string }) => head.chain).sort()).toHaveLength(3);
      const keys = await http.get("/api/v1/receipts/keys");
      const raw = Buffer.from(keys.body.data.keys[0].public_key, "base64");
      const publicKey = createPublicKey({
        key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]),
        format: "der",
        type: "spki",
      });
      expect(
        verify(null, Buffer.from(second.body), publicKey, Buffer.from(second.signature, "base64")),
      ).toBe(true);
      expect(second.key_id).toBe(keys.body.data.keys[0].key_id);

      // A receipt names its chain place and the checkpoint covering it.
      const receipt = await http.get(`/api/v1/trades/${tradeIds[0]}/receipt`, trader.token);
      expect(receipt.status, receipt.text).toBe(200);
      expect(receipt.body.receipt.journal).toMatchObject({
        record: "trade_settled",
        checkpoint: { id: first },
      });
      expect(receipt.body.receipt.journal.record_hash).toMatch(/^[0-9a-f]{64}$/);
      const fresh = await http.get(
        `/api/v1/trades/${more.body.data.trade.id}/receipt`,
        trader.token,
      );
      expect(fresh.body.receipt.journal).toMatchObject({
        record: "trade_placed",
        checkpoint: { id: first! + 1 },
      });

      const after = await verifyJournal(platform.database, platform.clock.now());
      expect(after.problem).toBeNull();
      expect(after.checkpoints).toBe(first! + 1);
      expect(after.latest_checkpoint?.id).toBe(first! + 1);

      // Bad input to the public list: a 400 with a message.
      const bad = await http.get("/api/v1/journal/checkpoints?limit=0");
      expect(bad.status).toBe(400);
    }, 120_000);

    it("builds each digest as migration 028's jsonb canonical form did, byte for byte (032)", async () => {
      // Awkward values: escapes, control and non-ASCII characters, empty strings, nulls,
      // extreme and negative numbers, doubles whose text has an exponent, odd times.
      const texts = [
        "plain",
        "",
        'quote " and backslash \\ and slash /',
        "tab\tnew line\ncontrol \u0001\u001f",
        "é ü 日本 🙂 \u200f",
        null,
      ];
      const result = await platform.database.query<{ mismatches: number; checked: number }>(
        `WITH t AS (SELECT * FROM unnest($1::text[]) WITH ORDINALITY AS t(v, n)),
         num AS (SELECT * FROM unnest(ARRAY[0, -1, 1850, 9223372036854775807,
                                            -9223372036854775808]::bigint[]) AS num(v)),
         dbl AS (SELECT * FROM unnest(ARRAY[1.08123, 1e-7, 1e21, -0.0, 0.1 + 0.2, 90000,
                                            'Infinity', 'NaN']::float8[]) AS dbl(v)),
         ts AS (SELECT * FROM unnest(ARRAY['1970-01-01T00:00:00Z', '2026-01-16T01:02:03.456789Z',
                                           '2262-04-11T23:47:16.854775Z', NULL]::timestamptz[]) AS ts(v)),
         pairs AS (
           SELECT journal_posting_digest(num.v, t.v, t.v, ts.v, num.v, num.v) AS now_digest,
                  sha256(convert_to(jsonb_build_array('posting', num.v, t.v, t.v, journal_us(ts.v),
                    num.v, num.v)::text, 'UTF8')) AS canonical
           FROM t, num, ts
           UNION ALL
           SELECT journal_trade_placed_digest(num.v, num.v, t.n % 2 = 0, t.v, t.v, num.v,
                    (t.n * 7)::integer, (t.n * 13)::integer, dbl.v, ts.v, t.v, ts.v, ts.v, ts.v,
                    t.n::integer),
                  sha256(convert_to(jsonb_build_array('trade_placed', num.v, num.v, t.n % 2 = 0,
                    t.v, t.v, num.v, (t.n * 7)::integer, (t.n * 13)::integer, dbl.v::text,
                    journal_us(ts.v), t.v, journal_us(ts.v), journal_us(ts.v), journal_us(ts.v),
                    t.n::integer)::text, 'UTF8'))
           FROM t, num, dbl, ts
           UNION ALL
           SELECT journal_trade_settled_digest(num.v, sha256(convert_to(COALESCE(t.v, ''), 'UTF8')),
                    t.v, dbl.v, ts.v, t.v, num.v, ts.v, t.n::integer, t.v, t.v),
                  sha256(convert_to(jsonb_build_array('trade_settled', num.v,
                    encode(sha256(convert_to(COALESCE(t.v, ''), 'UTF8')), 'hex'), t.v, dbl.v::text,
                    journal_us(ts.v), t.v, num.v, journal_us(ts.v), t.n::integer, t.v,
                    t.v)::text, 'UTF8'))
           FROM t, num, dbl, ts
         )
         SELECT COUNT(*) FILTER (WHERE now_digest IS DISTINCT FROM canonical)::integer AS mismatches,
                COUNT(*)::integer AS checked
         FROM pairs`,
        [texts],
      );
      expect(result.rows[0]).toEqual({ mismatches: 0, checked: 6 * 5 * 4 + 2 * (6 * 5 * 8 * 4) });
    });

    it("folds a chain into (previous, own) hash pairs that agree with the fold and lag() it replaced (035)", async () => {
      // Three chains, two seeded with a stored head and one from genesis, rows out of order.
      const result = await platform.database.query<{
        mismatches: number;
        checked: number;
        distinct_hashes: number;
      }>(
        `WITH records AS (
           SELECT g AS n, g % 3 AS chain, sha256(convert_to('record ' || g, 'UTF8')) AS digest,
                  CASE g % 3 WHEN 0 THEN journal_genesis()
                             ELSE sha256(convert_to('head ' || (g % 3), 'UTF8')) END AS head
           FROM generate_series(1, 60) AS g ORDER BY md5(g::text)
         ), old_form AS (
           SELECT f.n, COALESCE(lag(f.row_hash) OVER (PARTITION BY f.chain ORDER BY f.n),
                                f.head) AS prev_hash, f.row_hash
           FROM (SELECT r.*, journal_chain_fold(r.head, r.digest)
                               OVER (PARTITION BY r.chain ORDER BY r.n) AS row_hash
                 FROM records r) f
         ), pair_form AS (
           SELECT p.n, journal_link_prev(p.link) AS prev_hash, journal_link_hash(p.link) AS row_hash
           FROM (SELECT r.n, journal_chain_fold_pair(r.head, r.digest)
                               OVER (PARTITION BY r.chain ORDER BY r.n) AS link
                 FROM records r) p
         )
         SELECT COUNT(*) FILTER (WHERE o.prev_hash IS DISTINCT FROM p.prev_hash
                                    OR o.row_hash IS DISTINCT FROM p.row_hash
                                    OR p.row_hash <> journal_chain_link(NULL, p.prev_hash,
                                         (SELECT r.digest FROM records r WHERE r.n = p.n))
                          )::integer AS mismatches,
                COUNT(*)::integer AS checked,
                COUNT(DISTINCT p.row_hash)::integer AS distinct_hashes
         FROM old_form o JOIN pair_form p ON p.n = o.n`,
      );
      expect(result.rows[0]).toEqual({ mismatches: 0, checked: 60, distinct_hashes: 60 });
    });

    it("names a trade whose exit price, outcome or credit was edited in the database", async () => {
      const [id] = tradeIds;
      const price = await verifiedAfter((t) =>
        t.query("UPDATE trades SET exit_price = exit_price + 0.0001 WHERE id = $1", [id]),
      );
      expect(price.ok).toBe(false);
      expect(price.problem).toMatchObject({ kind: "edited", record: "trade_settled", id });
      expect(price.problem?.message).toContain(`trade ${id} (as settled) was edited`);

      const credit = await verifiedAfter((t) =>
        t.query("UPDATE trades SET credit_cents = credit_cents + 100 WHERE id = $1", [id]),
      );
      expect(credit.problem).toMatchObject({ kind: "edited", record: "trade_settled", id });

      const entry = await verifiedAfter((t) =>
        t.query("UPDATE trades SET entry_price = 1.05 WHERE id = $1", [id]),
      );
      expect(entry.problem).toMatchObject({ kind: "edited", record: "trade_placed", id });
    });

    it("names a deleted posting, an inserted audit row and a rewritten checkpoint", async () => {
      const postings = await platform.database.query<{
        id: number;
        account_id: number;
        chain_seq: number;
      }>(
        `SELECT id, account_id, chain_seq FROM postings p
       WHERE chain_seq = 2 ORDER BY id LIMIT 1`,
      );
      const middle = postings.rows[0]!;
      const deleted = await verifiedAfter((t) =>
        t.query("DELETE FROM postings WHERE id = $1", [middle.id]),
      );
      expect(deleted.problem).toMatchObject({
        kind: "deleted",
        chain: `account:${middle.account_id}`,
      });
      expect(deleted.problem?.message).toContain("jumps from record 1 to record 3");

      const last = await platform.database.query<{ id: number; account_id: number }>(
        `SELECT p.id, p.account_id FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
       WHERE p.chain_seq = a.chain_seq ORDER BY p.id DESC LIMIT 1`,
      );
      const end = await verifiedAfter((t) =>
        t.query("DELETE FROM postings WHERE id = $1", [last.rows[0]!.id]),
      );
      expect(end.problem).toMatchObject({
        kind: "deleted",
        chain: `account:${last.rows[0]!.account_id}`,
      });

      const inserted = await verifiedAfter((t) =>
        t.query(
          `INSERT INTO admin_audit_log (actor_user_id, actor_label, action, target_type, target_id, created_at)
         VALUES (NULL, 'cli', 'deposit.approved', 'deposit', '1', now())
         RETURNING id`,
        ),
      );
      expect(inserted.problem).toMatchObject({ kind: "inserted", record: "audit", chain: "audit" });

      // A posting rewritten with its own hash recomputed: the next record's link exposes it.
      const rewritten = await verifiedAfter((t) =>
        t.query(
          `UPDATE postings p SET amount_cents = p.amount_cents * 2,
           row_hash = journal_chain_link(NULL, p.prev_hash, journal_posting_digest(
             e.id, e.kind, e.reference, e.created_at, p.account_id, p.amount_cents * 2))
         FROM journal_entries e WHERE e.id = p.entry_id AND p.id = $1`,
          [middle.id],
        ),
      );
      expect(rewritten.problem).toMatchObject({ kind: "edited", record: "posting", id: middle.id });
      expect(rewritten.problem?.message).toContain("was rewritten");

      const forged = await verifiedAfter((t) =>
        t.query(
          "UPDATE journal_checkpoints SET body = replace(body, '\"id\":1', '\"id\":1 ') WHERE id = 1",
        ),
      );
      expect(forged.problem).toMatchObject({ kind: "checkpoint", id: 1 });

      const clean = await verifyJournal(platform.database, platform.clock.now());
      expect(clean.problem).toBeNull();
    });

    it("staff see the same check in the back office; traders cannot", async () => {
      const staff = await signedInStaff(platform, "support");
      const report = await http.get("/api/v1/admin/journal/verify", staff.token);
      expect(report.status, report.text).toBe(200);
      expect(report.body.data).toMatchObject({ ok: true, problem: null });
      const refused = await http.get("/api/v1/admin/journal/verify", trader.token);
      expect(refused.status).toBe(403);
    });

    it.runIf(kind === "postgres")(
      "npm run journal:verify exits 1 naming an edited trade, and 0 once it is put back",
      async () => {
        const [id] = tradeIds;
        const run = () =>
          runCli("server/src/cli/journal-verify.ts", [], {
            DATABASE_URL: platform.context.config.DATABASE_URL ?? "",
          });
        const before = await platform.database.query<{ status: string }>(
          "SELECT status FROM trades WHERE id = $1",
          [id],
        );
        const flipped = before.rows[0]!.status === "won" ? "lost" : "won";
        await platform.database.query("UPDATE trades SET status = $2 WHERE id = $1", [id, flipped]);
        const broken = await run();
        expect(broken.code, broken.output).toBe(1);
        expect(broken.output).toContain(`FAILED: trade ${id} (as settled) was edited`);
        await platform.database.query("UPDATE trades SET status = $2 WHERE id = $1", [
          id,
          before.rows[0]!.status,
        ]);
        const mended = await run();
        expect(mended.code, mended.output).toBe(0);
        expect(mended.output).toContain("OK: every chain and checkpoint holds.");
      },
      120_000,
    );
  },
);

import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { placeTrade } from "../src/trading/place-trade.ts";
import { settlement_partitions } from "../src/trading/settlement.ts";
import { signedInTrader } from "./support/accounts.ts";
import { advanceWithTick } from "./support/prices.ts";

// The benchmark found a deadlock between a settlement batch and place-trade on the same
// traders (locks taken in different orders). Race them: every call must succeed.
describe.each(databaseKindsUnderTest())("settlement racing new trades on %s", (kind) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform(kind);
  });
  afterAll(async () => platform?.close());

  it("settles and places concurrently for the same traders without a deadlock or a lost cent", async () => {
    const traders = await Promise.all(Array.from({ length: 20 }, () => signedInTrader(platform)));
    await advanceWithTick(platform, "EURUSD", 1.1, 0);
    const input = {
      asset: "EURUSD",
      amount: 5,
      duration: 30,
      type: "call",
      is_practice: true,
    } as const;
    for (const trader of traders) {
      for (let index = 0; index < 10; index++)
        await placeTrade(platform.context, trader.user.id, input, null);
    }
    // A live feed across the expiry (a tick every second), then two after it.
    for (let second = 1; second <= 30; second++) {
      await advanceWithTick(platform, "EURUSD", 1.1 + second / 1000, 1_000);
    }
    await advanceWithTick(platform, "EURUSD", 1.2, 500);
    await advanceWithTick(platform, "EURUSD", 1.21, 300);

    const placing = traders.flatMap((trader) =>
      Array.from({ length: 5 }, () => placeTrade(platform.context, trader.user.id, input, null)),
    );
    const settling = [
      platform.context.settlement.settleDue(),
      platform.context.settlement.settleDue(),
    ];
    const outcomes = await Promise.allSettled([...placing, ...settling]);
    const failures = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual(
      [],
    );

    const open = await platform.database.query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM trades WHERE status = 'open' AND expires_at <= $1",
      [platform.clock.now()],
    );
    expect(open.rows[0]!.n).toBe(0);
    // open_trades (migration 036) holds exactly the trades still open: the 100 just placed
    // (30 s from now), none of the 200 settled.
    const apart = await platform.database.query<{ trade_id: number; status: string | null }>(
      `SELECT COALESCE(o.trade_id, t.id) AS trade_id, t.status
       FROM open_trades o FULL JOIN (SELECT * FROM trades WHERE status = 'open') t
         ON t.id = o.trade_id
       WHERE o.trade_id IS NULL OR t.id IS NULL`,
    );
    expect(apart.rows).toEqual([]);
    const stillOpen = await platform.database.query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM open_trades",
    );
    expect(stillOpen.rows[0]!.n).toBe(100);
    expect(await platform.ledgerViolations()).toEqual([]);
  }, 60_000);

  it("claims each partition's earliest due trades, in expiry order, and only its own", async () => {
    const traders = await Promise.all(Array.from({ length: 12 }, () => signedInTrader(platform)));
    await advanceWithTick(platform, "EURUSD", 1.1, 0);
    // Expiries spread over ten seconds, traders in every partition.
    for (let round = 0; round < 10; round++) {
      for (const trader of traders.slice(round % 3)) {
        await placeTrade(
          platform.context,
          trader.user.id,
          {
            asset: "EURUSD",
            amount: 1,
            duration: 30,
            type: round % 2 ? "put" : "call",
            is_practice: true,
          },
          null,
        );
      }
      await advanceWithTick(platform, "EURUSD", 1.1 + round / 1000, 1_000);
    }
    await advanceWithTick(platform, "EURUSD", 1.2, 25_000);
    const now = platform.clock.now();
    const partitions = kind === "postgres" ? settlement_partitions : 1;
    for (let partition = 0; partition < partitions; partition++) {
      const claimed = await platform.database.transaction((transaction) =>
        // The batch is one JSON array of trades, each an array whose first item is its id.
        transaction.query<{ id: number }>(
          `SELECT (c.trade ->> 0)::bigint AS id
           FROM json_array_elements(settlement_claim($1, 7, $2, $3)) WITH ORDINALITY AS c(trade, n)
           ORDER BY c.n`,
          [now, partitions, partition],
        ),
      );
      const expected = await platform.database.query<{ id: number }>(
        `SELECT id FROM trades WHERE status = 'open' AND expires_at <= $1 AND user_id % $2 = $3
         ORDER BY expires_at, id LIMIT 7`,
        [now, partitions, partition],
      );
      expect(expected.rows.length, `partition ${partition}`).toBeGreaterThan(0);
      expect(claimed.rows.map((row) => row.id)).toEqual(expected.rows.map((row) => row.id));
    }
    if (kind === "postgres") {
      // The claim's index is built on the same modulus as settlement.ts partitions by.
      const index = await platform.database.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'open_trades_due_partition_idx'",
      );
      expect(index.rows[0]?.indexdef).toContain(`(user_id % (${settlement_partitions})::bigint)`);
    }
  }, 60_000);

  // A pass that fails leaves its trades due, so the next expiry the worker knows of is
  // already past: it used to run the failing pass again at once, back to back, each logging
  // an error. It now waits a second before trying again.
  it("the worker pauses between passes that fail, and settles once the fault is gone", async () => {
    const trader = await signedInTrader(platform);
    await advanceWithTick(platform, "EURUSD", 1.1, 0);
    const placed = await placeTrade(
      platform.context,
      trader.user.id,
      { asset: "EURUSD", amount: 1, duration: 30, type: "call", is_practice: true },
      null,
    );
    const tradeId = placed.body.data.trade.id;
    await platform.context.settlement.settleDue(); // nothing else of this file left due
    // A fault in the real database: settling any trade raises. A sequence counts the
    // attempts (its values survive the rollback).
    await platform.database.execScript(`
      CREATE SEQUENCE test_settle_attempts;
      CREATE FUNCTION test_settle_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM nextval('test_settle_attempts');
        RAISE EXCEPTION 'test fault: settling fails';
      END $$;
      CREATE TRIGGER test_settle_fault BEFORE UPDATE ON trades FOR EACH ROW
      WHEN (OLD.status = 'open' AND NEW.status <> 'open') EXECUTE FUNCTION test_settle_fault();`);
    const attempts = async () => {
      const sequence = await platform.database.query<{ n: number }>(
        "SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM test_settle_attempts",
      );
      return Number(sequence.rows[0]!.n);
    };
    const status = async () => {
      const trade = await platform.database.query<{ status: string }>(
        "SELECT status FROM trades WHERE id = $1",
        [tradeId],
      );
      return trade.rows[0]!.status;
    };
    try {
      // Due, with a live feed across the expiry: only the fault stops it settling.
      for (let second = 1; second <= 30; second++) {
        await advanceWithTick(platform, "EURUSD", 1.1 + second / 1000, 1_000);
      }
      await advanceWithTick(platform, "EURUSD", 1.2, 500);
      await expect.poll(attempts, { timeout: 10_000 }).toBeGreaterThan(0);
      const first = await attempts();
      await sleep(2_500);
      // A second's pause between tries: at most three more passes in 2.5 s, each failing
      // once in every partition that holds due trades (back to back, the worker made dozens).
      const partitions = kind === "postgres" ? settlement_partitions : 1;
      expect((await attempts()) - first).toBeLessThanOrEqual(3 * partitions);
      expect(await status()).toBe("open");
    } finally {
      await platform.database.execScript(`
        DROP TRIGGER test_settle_fault ON trades;
        DROP FUNCTION test_settle_fault();
        DROP SEQUENCE test_settle_attempts;`);
    }
    // The worker's next try settles it, with nobody calling settleDue.
    await expect.poll(status, { timeout: 5_000 }).not.toBe("open");
    expect(await platform.ledgerViolations()).toEqual([]);
  }, 60_000);
});

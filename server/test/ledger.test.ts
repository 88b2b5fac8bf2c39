import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { openPgliteDatabase } from "../src/db/pglite-database.ts";
import { openPostgresDatabase } from "../src/db/postgres-database.ts";
import {
  checkLedger,
  InsufficientFundsError,
  openTraderAccounts,
  postEntries,
  postEntry,
  systemAccountId,
  traderBalances,
} from "../src/ledger/ledger.ts";
import {
  createFreshPostgresDatabase,
  databaseKindsUnderTest,
  type FreshPostgres,
} from "../src/testing/fresh-database.ts";

const at = new Date("2026-01-15T12:00:00Z");

describe.each(databaseKindsUnderTest())("ledger on %s", (kind) => {
  let database: Database;
  let postgres: FreshPostgres | null = null;
  let userSequence = 0;

  beforeAll(async () => {
    if (kind === "postgres") {
      postgres = await createFreshPostgresDatabase(process.env.DATABASE_URL!, "ledger");
      database = await openPostgresDatabase(postgres.url);
    } else {
      database = await openPgliteDatabase(null);
    }
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await postgres?.drop();
  });

  async function newTraderAccounts() {
    userSequence += 1;
    return database.transaction(async (transaction) => {
      const user = await transaction.query<{ id: number }>(
        `INSERT INTO users (email, username, password_hash, first_name, last_name, phone_number, country, referral_code, created_at, updated_at)
         VALUES ($1, $2, 'x', 'A', 'B', '0000000000', 'France', $3, $4, $4) RETURNING id`,
        [`ledger${userSequence}@example.test`, `ledger${userSequence}`, `CODE${userSequence}`, at],
      );
      const userId = user.rows[0]!.id;
      return { userId, ...(await openTraderAccounts(transaction, userId)) };
    });
  }

  async function credit(accountId: number, cents: number) {
    await database.transaction(async (transaction) =>
      postEntry(transaction, {
        kind: "adjustment",
        reference: "test:credit",
        at,
        postings: [
          { accountId: await systemAccountId(transaction, "house:real"), amountCents: -cents },
          { accountId, amountCents: cents },
        ],
      }),
    );
  }

  it("is sound after migration and after balanced entries", async () => {
    expect(await checkLedger(database)).toEqual([]);
    const trader = await newTraderAccounts();
    await credit(trader.real, 500_00);
    expect(await traderBalances(database, trader.userId)).toEqual({
      real_cents: 500_00,
      practice_cents: 0,
    });
    expect(await checkLedger(database)).toEqual([]);
  });

  it("refuses unbalanced, single-posting, zero and fractional entries before writing", async () => {
    const trader = await newTraderAccounts();
    const house = await systemAccountId(database, "house:real");
    const attempts = [
      [
        { accountId: trader.real, amountCents: 100 },
        { accountId: house, amountCents: -99 },
      ],
      [{ accountId: trader.real, amountCents: 100 }],
      [
        { accountId: trader.real, amountCents: 0 },
        { accountId: house, amountCents: 0 },
      ],
      [
        { accountId: trader.real, amountCents: 0.5 },
        { accountId: house, amountCents: -0.5 },
      ],
    ];
    for (const postings of attempts) {
      await expect(
        database.transaction((transaction) =>
          postEntry(transaction, { kind: "adjustment", reference: "bad", at, postings }),
        ),
      ).rejects.toThrow();
    }
    const written = await database.query("SELECT 1 FROM journal_entries WHERE reference = 'bad'");
    expect(written.rowCount).toBe(0);
    expect(await checkLedger(database)).toEqual([]);
  });

  it("never lets a trader balance go negative, even under concurrent debits", async () => {
    const trader = await newTraderAccounts();
    await credit(trader.real, 100_00);
    const house = await systemAccountId(database, "house:real");
    // Twenty debits of $10 race for $100: exactly ten can succeed. (Twenty stakes of
    // twenty trades: one trade's second stake entry is refused by a unique index.)
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        database.transaction((transaction) =>
          postEntry(transaction, {
            kind: "trade_stake",
            reference: `test:race:${index}`,
            at,
            postings: [
              { accountId: trader.real, amountCents: -10_00 },
              { accountId: house, amountCents: 10_00 },
            ],
          }),
        ),
      ),
    );
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    const refused = outcomes.filter(
      (outcome) =>
        outcome.status === "rejected" && outcome.reason instanceof InsufficientFundsError,
    ).length;
    expect(succeeded).toBe(10);
    expect(refused).toBe(10);
    expect((await traderBalances(database, trader.userId)).real_cents).toBe(0);
    expect(await checkLedger(database)).toEqual([]);
  });

  it("the check finds a balance edited behind the ledger's back", async () => {
    const trader = await newTraderAccounts();
    await database.query(
      "UPDATE ledger_accounts SET balance_cents = balance_cents + 1 WHERE id = $1",
      [trader.practice],
    );
    const violations = await checkLedger(database);
    expect(violations).toEqual(
      expect.arrayContaining([
        `account ${trader.practice}: balance 1 but postings sum to 0`,
        "currency USD: balances sum to 1, not 0",
      ]),
    );
    await database.query(
      "UPDATE ledger_accounts SET balance_cents = balance_cents - 1 WHERE id = $1",
      [trader.practice],
    );
    expect(await checkLedger(database)).toEqual([]);
  });

  it("the database itself refuses a negative trader balance (CHECK behind the guard)", async () => {
    const trader = await newTraderAccounts();
    await expect(
      database.query("UPDATE ledger_accounts SET balance_cents = -1 WHERE id = $1", [trader.real]),
    ).rejects.toThrow();
  });

  it("postEntries records a batch at once, and refuses the whole batch if one debit would overdraw", async () => {
    const first = await newTraderAccounts();
    const second = await newTraderAccounts();
    await credit(first.real, 10_00);
    const house = await systemAccountId(database, "house:real");
    const entry = (accountId: number, cents: number) => ({
      kind: "adjustment" as const,
      reference: "test:batch",
      at,
      postings: [
        { accountId, amountCents: cents },
        { accountId: house, amountCents: -cents },
      ],
    });
    const ids = await database.transaction((transaction) =>
      postEntries(transaction, [
        entry(first.real, -4_00),
        entry(second.real, 7_00),
        entry(first.real, 1_00),
      ]),
    );
    expect(ids).toHaveLength(3);
    expect((await traderBalances(database, first.userId)).real_cents).toBe(7_00);
    expect((await traderBalances(database, second.userId)).real_cents).toBe(7_00);

    await expect(
      database.transaction((transaction) =>
        postEntries(transaction, [entry(second.real, 1_00), entry(first.real, -8_00)]),
      ),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await traderBalances(database, first.userId)).real_cents).toBe(7_00);
    expect((await traderBalances(database, second.userId)).real_cents).toBe(7_00);
    expect(await checkLedger(database)).toEqual([]);
  });

  it("a trade is staked once and settled once: the database refuses a second entry", async () => {
    const trader = await newTraderAccounts();
    await credit(trader.real, 10_00);
    const house = await systemAccountId(database, "house:real");
    const reference = `trade:${900_000 + trader.userId}`;
    const entry = (kind: "trade_stake" | "trade_payout" | "trade_refund", cents: number) => ({
      kind,
      reference,
      at,
      postings: [
        { accountId: trader.real, amountCents: cents },
        { accountId: house, amountCents: -cents },
      ],
    });
    await database.transaction((transaction) =>
      postEntry(transaction, entry("trade_stake", -1_00)),
    );
    await expect(
      database.transaction((transaction) => postEntry(transaction, entry("trade_stake", -1_00))),
    ).rejects.toThrow(/journal_entries_trade_once_idx/);
    await database.transaction((transaction) =>
      postEntry(transaction, entry("trade_payout", 1_80)),
    );
    for (const kind of ["trade_payout", "trade_refund"] as const) {
      await expect(
        database.transaction((transaction) => postEntry(transaction, entry(kind, 1_00))),
      ).rejects.toThrow(/journal_entries_trade_once_idx/);
    }
    expect((await traderBalances(database, trader.userId)).real_cents).toBe(10_80);
    expect(await checkLedger(database)).toEqual([]);
  });

  it("credits of one call count before its debits; a short entry writes nothing of itself", async () => {
    const trader = await newTraderAccounts();
    const house = await systemAccountId(database, "house:real");
    const entry = (cents: number) => ({
      kind: "adjustment" as const,
      reference: "test:order",
      at,
      postings: [
        { accountId: trader.real, amountCents: cents },
        { accountId: house, amountCents: -cents },
      ],
    });
    // A debit listed before the credit that pays for it, in one call: the call's credits count.
    await database.transaction((transaction) =>
      postEntries(transaction, [entry(-3_00), entry(5_00)]),
    );
    expect((await traderBalances(database, trader.userId)).real_cents).toBe(2_00);
    const before = await database.query<{ n: number }>(
      "SELECT COUNT(*)::bigint AS n FROM postings",
    );
    await expect(
      database.transaction((transaction) => postEntry(transaction, entry(-2_01))),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    const after = await database.query<{ n: number }>("SELECT COUNT(*)::bigint AS n FROM postings");
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    expect((await traderBalances(database, trader.userId)).real_cents).toBe(2_00);
    expect(await checkLedger(database)).toEqual([]);
  });

  it("merged mode: each entry guarded on its own, the posted ones one entry per kind with a posting per account", async () => {
    const rich = await newTraderAccounts();
    const poor = await newTraderAccounts();
    await credit(rich.real, 10_00);
    await credit(poor.real, 1_00);
    const house = await systemAccountId(database, "house:real:3");
    const stake = (accountId: number, cents: number) => ({
      kind: "trade_stake",
      reference: "unused when merged",
      created_at: at.toISOString(),
      probe: false,
      postings: [
        { account_id: accountId, amount_cents: -cents },
        { account_id: house, amount_cents: cents },
      ],
    });
    const post = (entries: object[], reference: string) =>
      database.transaction((transaction) =>
        transaction.query<{ ord: number; outcome: string; entry_id: number | null }>(
          `SELECT * FROM ledger_post(ARRAY(
             SELECT e FROM jsonb_populate_recordset(NULL::ledger_entry_in, $1::jsonb) AS e
           ), $2)`,
          [JSON.stringify(entries), reference],
        ),
      );
    // The poor trader's second stake comes up short, alone; the rest are one entry.
    const outcomes = await post(
      [stake(rich.real, 3_00), stake(poor.real, 60), stake(poor.real, 60), stake(rich.real, 4_00)],
      "test:merged",
    );
    expect(outcomes.rows.map((row) => row.outcome)).toEqual([
      "posted",
      "posted",
      "short",
      "posted",
    ]);
    const entryIds = new Set(outcomes.rows.map((row) => row.entry_id));
    expect(entryIds.size).toBe(2); // the merged entry's id, and null for the short one
    const entryId = outcomes.rows[0]!.entry_id!;
    const entry = await database.query<{ kind: string; reference: string }>(
      "SELECT kind, reference FROM journal_entries WHERE id = $1",
      [entryId],
    );
    expect(entry.rows).toEqual([{ kind: "trade_stake", reference: "test:merged:trade_stake" }]);
    const postings = await database.query<{ account_id: number; amount_cents: number }>(
      "SELECT account_id, amount_cents FROM postings WHERE entry_id = $1",
      [entryId],
    );
    const byAccount = new Map(
      postings.rows.map((row) => [Number(row.account_id), Number(row.amount_cents)]),
    );
    expect(byAccount).toEqual(
      new Map([
        [rich.real, -7_00],
        [poor.real, -60],
        [house, 7_60],
      ]),
    );
    expect((await traderBalances(database, poor.userId)).real_cents).toBe(40);
    expect(await checkLedger(database)).toEqual([]);

    // Entries that cancel out cannot make one: a programmer error, nothing written.
    const back = (cents: number) => ({ ...stake(rich.real, cents), kind: "adjustment" });
    await expect(post([back(1_00), back(-1_00)], "test:cancelled")).rejects.toThrow(
      /must leave two or more postings/,
    );
    expect((await traderBalances(database, rich.userId)).real_cents).toBe(3_00);
  });

  // Settlement passes the batch's house shards: a losing trade moves its shard's chain of
  // trades without a posting, so the shard must be held like the accounts posted to.
  it.runIf(kind === "postgres")(
    "locks the caller's other accounts with the postings' (and with no entry at all)",
    async () => {
      const trader = await newTraderAccounts();
      const paying = await systemAccountId(database, "house:real:5");
      const chained = await systemAccountId(database, "house:real:6");
      const lockedElsewhere = (accountId: number) =>
        database
          .query("SELECT id FROM ledger_accounts WHERE id = $1 FOR NO KEY UPDATE NOWAIT", [
            accountId,
          ])
          .then(
            () => false,
            (error: Error) => /could not obtain lock/.test(error.message),
          );
      const credit = [
        {
          kind: "trade_payout",
          reference: "unused when merged",
          created_at: at.toISOString(),
          probe: false,
          postings: [
            { account_id: paying, amount_cents: -1_00 },
            { account_id: trader.real, amount_cents: 1_00 },
          ],
        },
      ];
      for (const entries of [credit, []]) {
        const seen = await database.transaction(async (transaction) => {
          await transaction.query(
            `SELECT * FROM ledger_post(ARRAY(
               SELECT e FROM jsonb_populate_recordset(NULL::ledger_entry_in, $1::jsonb) AS e
             ), $2, $3::bigint[])`,
            [JSON.stringify(entries), `test:also-lock:${entries.length}`, [chained]],
          );
          return {
            chained: await lockedElsewhere(chained),
            trader: await lockedElsewhere(trader.real),
          };
        });
        expect(seen).toEqual({ chained: true, trader: entries.length > 0 });
        expect(await lockedElsewhere(chained)).toBe(false);
      }
      expect(await checkLedger(database)).toEqual([]);
    },
  );

  it("migrations are idempotent: a second run applies nothing", async () => {
    expect(await migrate(database)).toEqual([]);
  });
});

import { statementMessages } from "@tp/domain/statements";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DataExportTooLargeError, traderDataExport } from "../src/statements/data-export.ts";
import { pdf_placeholder } from "../src/statements/pdf-fonts.ts";
import {
  StatementTooLongError,
  statementKindLabel,
  traderStatement,
} from "../src/statements/statement.ts";
import {
  decimalFromCents,
  pdf_placeholder_note,
  statementPdf,
} from "../src/statements/statement-files.ts";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import type { TestPlatform } from "../src/testing/test-platform.ts";
import {
  settlement_feed_wait_ms,
  settlement_grace_ms,
  settlement_record_lag_ms,
} from "../src/trading/settlement.ts";
import { tradeAudit } from "../src/trading/trade-audit.ts";
import type { TradeRow } from "../src/trading/trades.ts";
import { signedInStaff, signedInTrader } from "./support/accounts.ts";
import {
  balancesOf,
  changePaymentMethod,
  configurePaymentMethods,
  confirmWithdrawalByEmail,
  depositApproved,
  staffToken,
  startFundingPlatform,
  withdrawableTrader,
} from "./support/funding.ts";
import { httpClient } from "./support/http.ts";
import { pdfPageTexts } from "./support/pdf-text.ts";
import { advanceWithTick, pushTick } from "./support/prices.ts";

/**
 * Statements and data export (issue 14 item 6): a statement reconciles with the ledger at
 * both ends of its period, its CSV parses back to its rows, its PDF is a PDF naming the
 * period, the export holds every trade of the trader and nothing of another, bad periods
 * are refused, and the auditors' CSV needs a staff role.
 */
const journey_timeout_ms = 300_000;
const day_ms = 24 * 60 * 60 * 1000;

type CsvRow = Record<string, string>;

describe.each(databaseKindsUnderTest())("statements on %s", (kind) => {
  let platform: TestPlatform;
  let http: ReturnType<typeof httpClient>;
  let admin: string;
  let trader: Awaited<ReturnType<typeof withdrawableTrader>>;
  let other: Awaited<ReturnType<typeof signedInTrader>>;
  const balances: { opening: number; closing: number } = { opening: 0, closing: 0 };
  const tradeIds: number[] = [];

  async function realCents(token: string) {
    return Math.round((await balancesOf(platform, token)).account_balance * 100);
  }

  /** A real EURUSD call at 1.05 that settles at `exit`, or is refunded when `exit` is null. */
  async function realTrade(exit: number | null) {
    const symbol = "EURUSD";
    await advanceWithTick(platform, symbol, 1.05, 1_000);
    const placed = await http.post(
      "/api/v1/place-trade",
      { asset: symbol, type: "call", amount: 10, duration: 30, is_practice: false },
      trader.token,
    );
    expect(placed.status, placed.text).toBe(201);
    const id = placed.body.data.trade.id as number;
    tradeIds.push(id);
    if (exit === null) {
      // The feed goes quiet past the expiry: the stake comes back (trading.test.ts).
      await advanceWithTick(platform, symbol, 1.06, 1_000);
      await platform.context.marketData.flush();
      platform.clock.advance(29_000 + settlement_grace_ms + settlement_record_lag_ms);
      await platform.context.settlement.settleDue();
      platform.clock.advance(settlement_feed_wait_ms);
    } else {
      await advanceWithTick(platform, symbol, exit, 29_900);
      await advanceWithTick(platform, symbol, exit, 300);
    }
    await platform.context.settlement.settleDue();
    const settled = await http.get(`/api/v1/trades/${id}`, trader.token);
    expect(settled.body.data.trade.status).not.toBe("open");
    return settled.body.data;
  }

  beforeAll(async () => {
    platform = await startFundingPlatform(kind, {
      ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: "true",
      // The journey spans three days of the manual clock; everyone stays signed in across it.
      TRADER_SESSION_IDLE_MINUTES: "4320",
      STAFF_SESSION_IDLE_MINUTES: "4320",
      STAFF_SESSION_ABSOLUTE_HOURS: "96",
    });
    http = httpClient(platform.baseUrl);
    admin = await staffToken(platform);
    await configurePaymentMethods(platform, admin);
    // $1.00 on each bitcoin deposit, $0.50 on each bitcoin withdrawal.
    const fees = await changePaymentMethod(platform, admin, "bitcoin", {
      deposit_fee_fixed_cents: 100,
      withdrawal_fee_fixed_cents: 50,
    });
    expect(fees.status, fees.text).toBe(200);

    // Day 1 (2026-01-15): the balance the statement of day 2 opens with.
    trader = await withdrawableTrader(platform, admin, 50);
    balances.opening = await realCents(trader.token);
    expect(balances.opening).toBe(4_900);

    // Day 2 (2026-01-16, from 01:00): every kind of movement.
    platform.clock.advance(13 * 60 * 60 * 1000);
    await pushTick(platform, "EURUSD", 1.05);
    await depositApproved(platform, trader.token, admin, 100);
    expect((await realTrade(1.1)).trade.status).toBe("won");
    expect((await realTrade(1.0)).trade.status).toBe("lost");
    expect((await realTrade(null)).audit.refund_reason).toBe("feed_down");
    // Hours after sign-in a withdrawal asks the trader to confirm it is them (issue 12).
    const stepUp = await http.post("/api/v1/step-up", { password: trader.password }, trader.token);
    expect(stepUp.status, stepUp.text).toBe(200);
    const withdrawal = await http.post(
      "/api/v1/withdrawals",
      {
        payment_method_id: "bitcoin",
        amount: 20,
        withdrawal_details: { wallet_address: "bc1qstatement0000000000000000" },
      },
      trader.token,
    );
    expect(withdrawal.status, withdrawal.text).toBe(201);
    const { withdrawal_id, transaction_hash } = withdrawal.body.data;
    await confirmWithdrawalByEmail(platform, trader.email, transaction_hash);
    const paid = await http.post(
      `/api/v1/admin/withdrawals/${withdrawal_id}/approve`,
      { payout_reference: "BTC-PAYOUT-1" },
      admin,
    );
    expect(paid.status, paid.text).toBe(200);
    balances.closing = await realCents(trader.token);

    // Day 3 (2026-01-17): a movement after the period, which the statement must leave out.
    platform.clock.advance(day_ms);
    await depositApproved(platform, trader.token, admin, 10);

    other = await signedInTrader(platform);
    await pushTick(platform, "BTCUSDT", 90_000);
    const practice = await http.post(
      "/api/v1/place-trade",
      { asset: "BTCUSDT", type: "put", amount: 5, duration: 30, is_practice: true },
      other.token,
    );
    expect(practice.status, practice.text).toBe(201);
  }, journey_timeout_ms);
  afterAll(async () => platform?.close());
  afterEach(async () => {
    expect(await platform.ledgerViolations()).toEqual([]);
  });

  const query = (from: string, to: string, extra = "") =>
    `/api/v1/statements?from=${from}&to=${to}${extra}`;

  it("reconciles: opening + movements = closing, both equal to the ledger at the ends", async () => {
    const reply = await http.get(query("2026-01-16", "2026-01-16", "&format=csv"), trader.token);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(reply.headers.get("content-disposition")).toBe(
      'attachment; filename="statement-real-2026-01-16-to-2026-01-16.csv"',
    );
    const rows = parse(reply.text, { columns: true }) as CsvRow[];
    const opening = rows[0]!;
    const closing = rows.at(-1)!;
    const movements = rows.slice(1, -1);
    expect(opening.type).toBe("Opening balance");
    expect(opening.balance).toBe(decimalFromCents(balances.opening));
    expect(closing.type).toBe("Closing balance");
    expect(closing.balance).toBe(decimalFromCents(balances.closing));
    const sumCents = movements.reduce((sum, row) => sum + Math.round(Number(row.change) * 100), 0);
    expect(balances.opening + sumCents).toBe(balances.closing);
    // Each running balance is the one before plus the line's change.
    let running = balances.opening;
    for (const row of movements) {
      running += Math.round(Number(row.change) * 100);
      expect(row.balance).toBe(decimalFromCents(running));
    }
    expect(movements.map((row) => row.type)).toEqual([
      "Deposit",
      "Trade stake",
      "Trade payout",
      "Trade stake",
      "Trade stake",
      "Trade refund",
      "Withdrawal requested",
      "Withdrawal paid",
    ]);
    const deposit = movements[0]!;
    expect([deposit.amount, deposit.fee, deposit.change]).toEqual(["100.00", "1.00", "99.00"]);
    expect(deposit.reference).toMatch(/^deposit:\d+$/);
    const payout = movements[2]!;
    // Payouts are one entry per settlement batch (migration 031), named after its first trade.
    expect([payout.change, payout.reference, payout.description]).toEqual([
      "18.50",
      `settlement:${tradeIds[0]}:trade_payout`,
      "Payout of EURUSD call (won)",
    ]);
    const paid = movements[7]!;
    expect([paid.amount, paid.fee, paid.change, paid.transaction_id]).toEqual([
      "19.50",
      "0.50",
      "0.00",
      "BTC-PAYOUT-1",
    ]);
    expect(closing.fee).toBe("1.50");
  });

  it("writes CSV that parses back to the statement's own rows", async () => {
    const reply = await http.get(query("2026-01-15", "2026-01-17"), trader.token);
    expect(reply.status).toBe(200);
    const rows = parse(reply.text, { columns: true }) as CsvRow[];
    const statement = await traderStatement(platform.database, trader.user.id, "real", {
      from: new Date("2026-01-15T00:00:00Z"),
      until: new Date("2026-01-18T00:00:00Z"),
      fromText: "2026-01-15",
      toText: "2026-01-17",
    });
    expect(statement.opening_balance_cents).toBe(0);
    expect(statement.closing_balance_cents).toBe(await realCents(trader.token));
    expect(rows.slice(1, -1)).toEqual(
      statement.lines.map((line) => ({
        date_utc: line.at.toISOString(),
        type: statementKindLabel(line.kind),
        reference: line.reference,
        transaction_id: line.transaction_id ?? "",
        description: line.description,
        amount: decimalFromCents(line.amount_cents),
        fee: decimalFromCents(line.fee_cents),
        change: decimalFromCents(line.change_cents),
        balance: decimalFromCents(line.balance_cents),
      })),
    );
    expect(rows.at(-1)!.balance).toBe(decimalFromCents(statement.closing_balance_cents));
  });

  it("refuses a statement past its line limit rather than building it", async () => {
    const period = {
      from: new Date("2026-01-16T00:00:00Z"),
      until: new Date("2026-01-17T00:00:00Z"),
      fromText: "2026-01-16",
      toText: "2026-01-16",
    };
    // Day 2 has 8 lines: a limit of 8 holds them, 7 does not.
    const whole = await traderStatement(platform.database, trader.user.id, "real", period, 8);
    expect(whole.lines).toHaveLength(8);
    await expect(
      traderStatement(platform.database, trader.user.id, "real", period, 7),
    ).rejects.toBeInstanceOf(StatementTooLongError);
  });

  it("writes a PDF that names the period", async () => {
    const response = await fetch(
      `${platform.baseUrl}${query("2026-01-16", "2026-01-16", "&format=pdf")}`,
      {
        headers: { authorization: `Bearer ${trader.token}` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="statement-real-2026-01-16-to-2026-01-16.pdf"',
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = bytes.toString("latin1");
    expect(text).toContain("(Statement 2026-01-16 to 2026-01-16)");
    expect(text).toContain("%%EOF");
    const pages = pdfPageTexts(bytes);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain(`Ada Lovelace <${trader.email}>`);
    expect(pages[0]).toContain("Page 1 of 1");
    expect(pages[0]).not.toContain(pdf_placeholder);
  });

  it("prints a name beyond Latin-1 as written, and marks what its font cannot draw", async () => {
    await platform.database.query(
      "UPDATE users SET first_name = $1, last_name = $2 WHERE id = $3",
      ["Zoë", "Łukasiewicz 李", trader.user.id],
    );
    const response = await fetch(
      `${platform.baseUrl}${query("2026-01-16", "2026-01-16", "&format=pdf")}`,
      { headers: { authorization: `Bearer ${trader.token}` } },
    );
    expect(response.status).toBe(200);
    const [page] = pdfPageTexts(Buffer.from(await response.arrayBuffer()));
    // DejaVu Sans draws ë and Ł; it has no CJK glyphs, so 李 is the visible placeholder.
    expect(page).toContain(`Zoë Łukasiewicz ${pdf_placeholder} <${trader.email}>`);
    expect(page).not.toContain("李");
    expect(page).toContain(pdf_placeholder_note);
    expect(page).toContain("Page 1 of 1");
  });

  it("refuses bad periods with 4xx and says why", async () => {
    const cases: Array<[string, number, string, string]> = [
      [query("2026-01-16", "2026-01-15"), 422, "to", statementMessages.toBeforeFrom],
      [query("2026-01-16", "2026-01-18"), 422, "to", statementMessages.toInFuture],
      [query("2020-01-01", "2026-01-16"), 422, "to", statementMessages.periodTooLong],
      [query("2026-02-30", "2026-03-01"), 422, "from", statementMessages.dateInvalid],
      [query("0000-01-01", "2026-01-01"), 422, "from", statementMessages.dateInvalid],
    ];
    for (const [path, status, field, message] of cases) {
      const reply = await http.get(path, trader.token);
      expect(reply.status, path).toBe(status);
      expect(reply.body.errors[field], path).toEqual([message]);
    }
    for (const path of [
      query("16/01/2026", "2026-01-16"),
      "/api/v1/statements?to=2026-01-16",
      query("2026-01-16", "2026-01-16", "&format=xls"),
      query("2026-01-16", "2026-01-16", "&account=savings"),
    ]) {
      const reply = await http.get(path, trader.token);
      expect(reply.status, path).toBe(400);
      expect(reply.body.message, path).toBeTruthy();
    }
    expect((await http.get(query("2026-01-16", "2026-01-16"))).status).toBe(401);
    // Exactly five years is too long; a day less is fine.
    expect((await http.get(query("2021-01-17", "2026-01-16"), trader.token)).status).toBe(200);
  });

  it("exports every trade of the trader with its audit, and nothing of anyone else", async () => {
    const reply = await http.get("/api/v1/statements/data-export", trader.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-disposition")).toBe(
      'attachment; filename="my-data-2026-01-17.json"',
    );
    const data = reply.body;
    const stored = await platform.database.query<{ id: number }>(
      "SELECT id FROM trades WHERE user_id = $1 ORDER BY id",
      [trader.user.id],
    );
    expect(stored.rows.map((row) => Number(row.id))).toEqual(tradeIds);
    expect(
      data.trades
        .map((entry: { trade: { id: number } }) => entry.trade.id)
        .sort((a: number, b: number) => a - b),
    ).toEqual(tradeIds);
    for (const entry of data.trades) expect(entry.audit.entry_ticks.length).toBeGreaterThan(0);
    expect(data.profile.email).toBe(trader.email);
    expect(data.deposits).toHaveLength(3);
    expect(data.withdrawals).toHaveLength(1);
    expect(data.documents.uploads.length).toBeGreaterThan(0);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.sign_in_history.length).toBeGreaterThan(0);
    expect(data.notifications.length).toBeGreaterThan(0);
    const ledgerSum = data.ledger_lines
      .filter((line: { account: string }) => line.account === "real")
      .reduce((sum: number, line: { amount_cents: number }) => sum + Number(line.amount_cents), 0);
    expect(ledgerSum).toBe(await realCents(trader.token));
    // Nothing of the other trader, and no secret of anyone.
    expect(reply.text).not.toContain(other.email);
    for (const secret of ["password_hash", "token_hash", "device_key", trader.token]) {
      expect(reply.text).not.toContain(secret);
    }
    const theirs = (await http.get("/api/v1/statements/data-export", other.token)).body;
    expect(theirs.trades).toHaveLength(1);
    expect(theirs.trades[0].trade.is_practice).toBe(true);
    expect(JSON.stringify(theirs)).not.toContain(trader.email);
  });

  it("exports every one of many trades, each with its audit as GET /trades/{id} shows it", async () => {
    // 500 copies of each of the trader's trades (same windows, so their audits are stored).
    const columns = (
      await platform.database.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns
         WHERE table_name = 'trades' AND column_name <> 'id' ORDER BY ordinal_position`,
      )
    ).rows.map((row) => row.column_name);
    const list = columns.join(", ");
    const before = await platform.database.query<{ max: number }>(
      "SELECT MAX(id)::bigint AS max FROM trades",
    );
    await platform.database.query(
      `INSERT INTO trades (${list}) SELECT ${list} FROM trades, generate_series(1, 500)
       WHERE user_id = $1`,
      [trader.user.id],
    );
    try {
      const stored = await platform.database.query<TradeRow>(
        "SELECT * FROM trades WHERE user_id = $1 ORDER BY start_time, id",
        [trader.user.id],
      );
      expect(stored.rows).toHaveLength(3 * 501);
      const reply = await http.get("/api/v1/statements/data-export", trader.token);
      expect(reply.status, reply.text).toBe(200);
      const exported = reply.body.trades as Array<{ trade: { id: number } }>;
      expect(exported.map((entry) => entry.trade.id)).toEqual(
        stored.rows.map((row) => Number(row.id)),
      );
      // The batched audit is the one-by-one audit, for the originals and for copies.
      const byId = new Map(stored.rows.map((row) => [Number(row.id), row]));
      for (const entry of [...exported.slice(0, 3), ...exported.slice(-3)]) {
        const one = await tradeAudit(
          platform.database,
          platform.context.marketData.store,
          byId.get(entry.trade.id)!,
        );
        expect(entry).toEqual(JSON.parse(JSON.stringify(one)));
        expect(one.audit.entry_ticks.length).toBeGreaterThan(0);
      }
      // Past its cap an export is refused whole, never cut short.
      await expect(
        traderDataExport(
          platform.database,
          platform.context.marketData.store,
          trader.user.id,
          platform.clock.now(),
          3 * 501 - 1,
        ),
      ).rejects.toBeInstanceOf(DataExportTooLargeError);
      const atCap = await traderDataExport(
        platform.database,
        platform.context.marketData.store,
        trader.user.id,
        platform.clock.now(),
        3 * 501,
      );
      expect(atCap.trades).toHaveLength(3 * 501);
    } finally {
      await platform.database.query("DELETE FROM trades WHERE id > $1", [before.rows[0]!.max]);
    }
  });

  it("gives staff the auditors' CSV for a period, and only staff", async () => {
    const support = await signedInStaff(platform, "support");
    const rowCounts = new Map<string, number>();
    const ledgerEntryIds = new Set<string>();
    for (const kind of ["deposits", "withdrawals", "ledger", "trades"]) {
      const path = `/api/v1/admin/exports/${kind}?from=2026-01-16&to=2026-01-16`;
      expect((await http.get(path, trader.token)).status, kind).toBe(403);
      expect((await http.get(path)).status, kind).toBe(401);
      const reply = await http.get(path, support.token);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get("content-disposition")).toBe(
        `attachment; filename="${kind}-2026-01-16-to-2026-01-16.csv"`,
      );
      const rows = parse(reply.text, { columns: true }) as CsvRow[];
      rowCounts.set(kind, rows.length);
      if (kind === "deposits") {
        expect(rows.map((row) => [row.user_id, row.amount, row.fee, row.status])).toEqual([
          [String(trader.user.id), "100.00", "1.00", "confirmed"],
        ]);
      }
      if (kind === "withdrawals") {
        expect(rows.map((row) => [row.amount, row.fee, row.payout_reference])).toEqual([
          ["20.00", "0.50", "BTC-PAYOUT-1"],
        ]);
      }
      if (kind === "trades") {
        expect(rows.map((row) => Number(row.id))).toEqual(tradeIds);
        // Each trade names the ledger export's entries that moved its money; the lost trade
        // was credited by none.
        expect(rows.every((row) => ledgerEntryIds.has(row.stake_entry_id!))).toBe(true);
        expect(rows.map((row) => row.credit_entry_id !== "")).toEqual([true, false, true]);
        expect(
          rows
            .filter((row) => row.credit_entry_id)
            .every((row) => ledgerEntryIds.has(row.credit_entry_id!)),
        ).toBe(true);
      }
      if (kind === "ledger") {
        for (const row of rows) ledgerEntryIds.add(row.entry_id!);
        // Every entry balances in the export as in the ledger.
        const byEntry = new Map<string, number>();
        for (const row of rows) {
          byEntry.set(
            row.entry_id!,
            (byEntry.get(row.entry_id!) ?? 0) + Math.round(Number(row.amount) * 100),
          );
        }
        expect(byEntry.size).toBeGreaterThan(0);
        expect([...byEntry.values()].every((total) => total === 0)).toBe(true);
      }
    }
    // Each download is in the staff audit log: who, which export, the period, the rows.
    const audit = await http.get("/api/v1/admin/audit-log?action=export.downloaded", admin);
    expect(audit.status, audit.text).toBe(200);
    const logged = audit.body.data.data as Array<Record<string, unknown>>;
    expect(logged).toHaveLength(4);
    expect(logged.map((row) => row.target_id).sort()).toEqual([
      "deposits",
      "ledger",
      "trades",
      "withdrawals",
    ]);
    for (const row of logged) {
      const rowCount = rowCounts.get(row.target_id as string);
      expect(row).toMatchObject({
        actor: { id: support.id, email: support.email },
        action: "export.downloaded",
        target_type: "export",
        after: { kind: row.target_id, from: "2026-01-16", to: "2026-01-16", row_count: rowCount },
      });
    }
    const bad = await http.get(
      "/api/v1/admin/exports/users?from=2026-01-16&to=2026-01-16",
      support.token,
    );
    expect(bad.status).toBe(400);
    const late = await http.get(
      "/api/v1/admin/exports/ledger?from=2026-01-17&to=2026-01-16",
      support.token,
    );
    expect(late.status).toBe(422);
    expect(late.body.errors.to).toEqual([statementMessages.toBeforeFrom]);
    // A refused export sends no file and so logs nothing.
    const after = await http.get("/api/v1/admin/audit-log?action=export.downloaded", admin);
    expect(after.body.data.data).toHaveLength(4);
  });
});

describe.each(databaseKindsUnderTest())("statement downloads are rate limited on %s", (kind) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startFundingPlatform(kind, { RATE_LIMIT_FACTOR: "1" });
  });
  afterAll(async () => platform?.close());

  it("30 downloads per account in 15 minutes; a refused period does not count", async () => {
    const http = httpClient(platform.baseUrl);
    const trader = await signedInTrader(platform);
    const path = "/api/v1/statements?from=2026-01-15&to=2026-01-15";
    for (let index = 0; index < 5; index++) {
      const refused = await http.get(
        "/api/v1/statements?from=2026-01-15&to=2026-01-14",
        trader.token,
      );
      expect(refused.status).toBe(422);
    }
    for (let index = 0; index < 29; index++) {
      expect((await http.get(path, trader.token)).status).toBe(200);
    }
    expect((await http.get("/api/v1/statements/data-export", trader.token)).status).toBe(200);
    const limited = await http.get(path, trader.token);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    // Another trader has their own count; the window ends after 15 minutes.
    const other = await signedInTrader(platform);
    expect((await http.get(path, other.token)).status).toBe(200);
    platform.clock.advance(15 * 60 * 1000);
    expect((await http.get(path, trader.token)).status).toBe(200);
  });
});

describe("the statement PDF", () => {
  const period = {
    from: new Date("2026-01-16T00:00:00Z"),
    until: new Date("2026-01-17T00:00:00Z"),
    fromText: "2026-01-16",
    toText: "2026-01-16",
  };
  const heading = {
    companyName: "Example Markets Ltd",
    traderName: "Ada Lovelace",
    traderEmail: "ada@example.test",
    generatedAt: new Date("2026-01-17T09:00:00Z"),
  };

  it("numbers every page 'Page n of N'", async () => {
    const lines = Array.from({ length: 70 }, (_, index) => ({
      at: new Date(period.from.getTime() + index * 60_000),
      entry_id: index + 1,
      kind: "deposit" as const,
      reference: `deposit:${index + 1}`,
      transaction_id: `tx-${index + 1}`,
      description: `Deposit ${index + 1} via bitcoin`,
      amount_cents: 100,
      fee_cents: 0,
      change_cents: 100,
      balance_cents: 100 * (index + 1),
    }));
    const pdf = await statementPdf(
      {
        account: "real",
        period,
        opening_balance_cents: 0,
        closing_balance_cents: 7_000,
        lines,
        totals: { credits_cents: 7_000, debits_cents: 0, fees_cents: 0 },
      },
      heading,
    );
    const pages = pdfPageTexts(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, index) => {
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page).not.toContain(pdf_placeholder);
    });
    // Every line is on some page, once.
    const all = pages.join("\n");
    for (const line of lines) {
      expect(all.split(`\n${line.description}\n`)).toHaveLength(2);
    }
    expect(pages[0]).toContain("Ada Lovelace <ada@example.test>");
    expect(pages.at(-1)).toContain("Closing balance");
  });
});

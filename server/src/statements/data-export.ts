import type { tradeAuditDataSchema } from "@tp/domain/api";
import type { z } from "zod";
import type { Queryable } from "../db/database.ts";
import type { PriceStore } from "../prices/price-store.ts";
import {
  type AuditTick,
  auditSecondOf,
  ticksAround,
  ticksAroundIn,
} from "../prices/ticks-around.ts";
import { referralName } from "../referrals/referral-routes.ts";
import { type TradeRow, tradeView } from "../trading/trades.ts";
import { referredTraders } from "../users/users.ts";

/**
 * The full export of a trader's own data as one JSON document (issue 14 item 6; GDPR art.
 * 15 and 20). Every query names its columns and is filtered by the trader's id, so nothing
 * of another user can come out; secrets are never selected (password hash, session token
 * hashes, TOTP secrets, recovery codes, e-mail and withdrawal-confirmation tokens, a
 * session's device key). Staff who reviewed a row are not named: their ids are left out.
 * Documents are listed by their metadata; the files themselves stay in the uploads store.
 */

/** The most referrals listed in an export (the referrals page shows fewer). */
export const export_referrals_max = 10_000;

/**
 * The most trades one export holds. Each trade carries up to 80 audit ticks (about 4 kB of
 * JSON), so 50,000 trades make a file of some 200 MB built in memory: past that the export
 * is refused with a message (DataExportTooLargeError), never cut short.
 */
export const export_trades_max = 50_000;

export class DataExportTooLargeError extends Error {
  constructor(readonly tradesMax: number) {
    super("data export too large");
    this.name = "DataExportTooLargeError";
  }
}

type TradeWithAudit = z.infer<typeof tradeAuditDataSchema>;

/**
 * Every trade with its audit, as trading's `tradeAudit` (GET /trades/{id}) gives each one,
 * but with one query for all the stored audit windows instead of two per trade. Trades
 * settled before migration 006 carry their ticks; a window not stored (an open trade) is
 * read live, as tradeAudit does.
 */
async function tradesWithAudit(
  queryable: Queryable,
  store: PriceStore,
  trades: TradeRow[],
): Promise<TradeWithAudit[]> {
  const key = (symbol: string, secondMs: number) => `${symbol} ${secondMs}`;
  const wanted = new Map<string, { symbol: string; second: Date }>();
  for (const trade of trades) {
    if (trade.audit_ticks) continue;
    for (const at of [trade.entry_at, trade.expires_at]) {
      const secondMs = auditSecondOf(at.getTime());
      wanted.set(key(trade.asset, secondMs), { symbol: trade.asset, second: new Date(secondMs) });
    }
  }
  const stored = new Map<string, AuditTick[]>();
  if (wanted.size > 0) {
    const windows = await queryable.query<{ symbol: string; second: Date; ticks: AuditTick[] }>(
      `SELECT w.symbol, w.second, w.ticks
       FROM trade_audit_windows w
       JOIN unnest($1::text[], $2::timestamptz[]) AS wanted(symbol, second)
         ON w.symbol = wanted.symbol AND w.second = wanted.second`,
      [[...wanted.values()].map((w) => w.symbol), [...wanted.values()].map((w) => w.second)],
    );
    for (const row of windows.rows) stored.set(key(row.symbol, row.second.getTime()), row.ticks);
  }
  const toView = (ticks: AuditTick[]) =>
    ticks.map((tick) => ({ price: tick.price, at: new Date(tick.at).toISOString() }));
  const window = async (trade: TradeRow, centerMs: number) => {
    const windowTicks = stored.get(key(trade.asset, auditSecondOf(centerMs)));
    if (windowTicks) return toView(ticksAroundIn(windowTicks, centerMs));
    return toView(await ticksAround(store, queryable, trade.asset, centerMs));
  };
  const result: TradeWithAudit[] = [];
  for (const trade of trades) {
    const frozen = trade.audit_ticks;
    result.push({
      trade: tradeView(trade),
      audit: {
        entry_ticks: frozen ? toView(frozen.entry) : await window(trade, trade.entry_at.getTime()),
        exit_ticks: frozen ? toView(frozen.exit) : await window(trade, trade.expires_at.getTime()),
        settlement_lag_ms: trade.settlement_lag_ms,
        note: trade.settlement_note,
        refund_reason: trade.refund_reason,
      },
    });
  }
  return result;
}

export async function traderDataExport(
  database: { transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T> },
  store: PriceStore,
  userId: number,
  at: Date,
  tradesMax = export_trades_max,
) {
  return database.transaction(async (transaction) => {
    // One snapshot: the ledger lines, the balances and the trades agree with each other.
    await transaction.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    const rows = async (sql: string) => (await transaction.query(sql, [userId])).rows;
    const profile = (
      await transaction.query(
        `SELECT id, email, username, role, first_name, last_name, phone_number, country, plan,
                referral_code, email_verified_at, kyc_verified_at, created_at, updated_at
         FROM users WHERE id = $1`,
        [userId],
      )
    ).rows[0];
    if (!profile) throw new Error(`user ${userId} vanished during their export`);
    const trades = await transaction.query<TradeRow>(
      "SELECT * FROM trades WHERE user_id = $1 ORDER BY start_time, id LIMIT $2",
      [userId, tradesMax + 1],
    );
    if (trades.rows.length > tradesMax) throw new DataExportTooLargeError(tradesMax);
    const tradeEntries = await tradesWithAudit(transaction, store, trades.rows);
    const referrals = await referredTraders(transaction, userId, export_referrals_max);
    return {
      format: "tradeplatform-data-export/1",
      exported_at: at.toISOString(),
      note: "Amounts ending in _cents are integer US cents. Uploaded files are listed by their metadata; ask support for a copy of a file.",
      profile,
      accounts: await rows(
        `SELECT id, code, currency, balance_cents, created_at
         FROM ledger_accounts WHERE user_id = $1 ORDER BY id`,
      ),
      sessions: await rows(
        `SELECT id, created_at, last_seen_at, expires_at, revoked_at, stepped_up_at, ip, user_agent
         FROM sessions WHERE user_id = $1 ORDER BY created_at, id`,
      ),
      sign_in_history: await rows(
        `SELECT id, attempted_at, ip, user_agent, browser, result, session_id
         FROM sign_in_attempts WHERE user_id = $1 ORDER BY attempted_at, id`,
      ),
      trades: tradeEntries,
      ledger_lines: await rows(
        `SELECT e.id AS entry_id, e.kind, e.reference, e.created_at, a.code AS account,
                a.currency, p.amount_cents
         FROM postings p
         JOIN ledger_accounts a ON a.id = p.account_id
         JOIN journal_entries e ON e.id = p.entry_id
         WHERE a.user_id = $1 ORDER BY e.created_at, e.id, p.id`,
      ),
      deposits: await rows(
        `SELECT id, payment_method_id, amount_cents, fee_cents, currency, transaction_hash, status,
                receipt_upload_id, receipt_uploaded_at, payment_expires_at, reviewed_at,
                rejection_reason, journal_entry_id, created_at, updated_at
         FROM deposits WHERE user_id = $1 ORDER BY created_at, id`,
      ),
      withdrawals: await rows(
        `SELECT id, payment_method_id, amount_cents, fee_cents, currency, transaction_hash,
                withdrawal_details, status, email_confirmed_at, hold_entry_id,
                resolution_entry_id, reviewed_at, rejection_reason, payout_reference,
                created_at, updated_at
         FROM withdrawals WHERE user_id = $1 ORDER BY created_at, id`,
      ),
      documents: {
        uploads: await rows(
          `SELECT id, purpose, content_type, size_bytes, sha256, original_name, created_at
           FROM uploads WHERE user_id = $1 ORDER BY created_at, id`,
        ),
        identity_verifications: await rows(
          `SELECT id, id_type, upload_id, status, terms_accepted_at, reviewed_at,
                  rejection_reason, created_at
           FROM verification_documents WHERE user_id = $1 ORDER BY created_at, id`,
        ),
      },
      notifications: await rows(
        `SELECT id, kind, title, message, reference, created_at, read_at
         FROM notifications WHERE user_id = $1 ORDER BY created_at, id`,
      ),
      // As the referrals page shows them: first name and initial, never a full name or e-mail.
      referrals: referrals.rows.map((row) => ({
        id: row.id,
        name: referralName(row),
        date_registered: row.created_at.toISOString(),
      })),
    };
  });
}

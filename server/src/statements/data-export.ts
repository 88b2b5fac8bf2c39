import type { Queryable } from "../db/database.ts";
import type { PriceStore } from "../prices/price-store.ts";
import { referralName } from "../referrals/referral-routes.ts";
import { tradeAudit } from "../trading/trade-audit.ts";
import { userTrades } from "../trading/trades.ts";
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

export async function traderDataExport(
  database: { transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T> },
  store: PriceStore,
  userId: number,
  at: Date,
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
    const trades = await userTrades(transaction, userId);
    const tradesWithAudit = [];
    for (const trade of trades) tradesWithAudit.push(await tradeAudit(transaction, store, trade));
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
      trades: tradesWithAudit,
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

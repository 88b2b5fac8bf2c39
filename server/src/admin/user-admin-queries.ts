import {
  type AdminUserDetail,
  type AdminUserSummary,
  admin_user_detail_rows_max,
  staffCountryRestrictedMessage,
} from "@tp/domain/admin-api";
import type { Role } from "@tp/domain/api";
import { dollarsFromCents } from "@tp/domain/money";
import { closureStatesOf } from "../account-closure/closure.ts";
import type { Config } from "../config.ts";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";
import { escapeLike } from "../db/escape-like.ts";
import { depositsOfUser, depositView } from "../funding/deposits.ts";
import { verificationsOfUser, verificationView } from "../funding/verifications.ts";
import { withdrawalsOfUser, withdrawalView } from "../funding/withdrawals.ts";
import { isRestrictedCountry } from "../jurisdictions/restricted-countries.ts";
import { exclusionOf } from "../responsible-trading/exclusions.ts";
import { tradeHistoryPage, tradeView } from "../trading/trades.ts";

/** The back office's view of users: search, and one user with everything staff look at. */

interface UserSummaryRow {
  id: number;
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  role: Role;
  country: string;
  phone_number: string;
  plan: string;
  created_at: Date;
  email_verified_at: Date | null;
  kyc_verified_at: Date | null;
  real_cents: number | null;
  practice_cents: number | null;
}

const selectSummaries = `
  SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.role, u.country, u.phone_number,
         u.plan, u.created_at, u.email_verified_at, u.kyc_verified_at,
         (SELECT balance_cents FROM ledger_accounts a
           WHERE a.user_id = u.id AND a.code = 'real' AND a.currency = 'USD') AS real_cents,
         (SELECT balance_cents FROM ledger_accounts a
           WHERE a.user_id = u.id AND a.code = 'practice' AND a.currency = 'USD') AS practice_cents
  FROM users u`;

type ClosureStates = Awaited<ReturnType<typeof closureStatesOf>>;

function summary(row: UserSummaryRow, closures: ClosureStates): AdminUserSummary {
  const closure = closures.get(Number(row.id));
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    name: `${row.first_name} ${row.last_name}`.trim(),
    role: row.role,
    country: row.country,
    created_at: row.created_at.toISOString(),
    email_verified_at: row.email_verified_at?.toISOString() ?? null,
    kyc_verified_at: row.kyc_verified_at?.toISOString() ?? null,
    account_balance: dollarsFromCents(row.real_cents ?? 0),
    practice_balance: dollarsFromCents(row.practice_cents ?? 0),
    closure: closure
      ? {
          status: closure.closed_at ? "closed" : "closing",
          requested_at: closure.requested_at.toISOString(),
          closed_at: closure.closed_at?.toISOString() ?? null,
        }
      : null,
  };
}

/** Newest first; `q` matches e-mail, username or name (case-insensitive), or the exact id. */
export async function searchUsers(
  queryable: Queryable,
  q: string | undefined,
  page: number,
  limit: number,
): Promise<{ rows: AdminUserSummary[]; total: number }> {
  const text = q?.trim() ?? "";
  const pattern = `%${escapeLike(text.toLowerCase())}%`;
  const id = /^\d{1,15}$/.test(text) ? Number(text) : null;
  const where = `WHERE ($1 = '' OR lower(u.email) LIKE $2 ESCAPE '\\' OR lower(u.username) LIKE $2 ESCAPE '\\'
                  OR lower(u.first_name || ' ' || u.last_name) LIKE $2 ESCAPE '\\'
                  OR u.id = $3::bigint)`;
  const { rows, total } = await countAndPage<UserSummaryRow>(queryable, {
    countSql: `SELECT COUNT(*)::bigint AS total FROM users u ${where}`,
    rowsSql: `${selectSummaries} ${where} ORDER BY u.created_at DESC, u.id DESC`,
    params: [text, pattern, id],
    page,
    limit,
  });
  const closures = await closureStatesOf(
    queryable,
    rows.map((row) => Number(row.id)),
  );
  return { rows: rows.map((row) => summary(row, closures)), total };
}

export async function userDetail(
  queryable: Queryable,
  userId: number,
  config: Pick<Config, "RESTRICTED_COUNTRIES">,
  now: Date,
): Promise<AdminUserDetail | null> {
  const found = await queryable.query<UserSummaryRow>(`${selectSummaries} WHERE u.id = $1`, [
    userId,
  ]);
  const row = found.rows[0];
  if (!row) return null;
  const rowsMax = admin_user_detail_rows_max;

  const ledger = await queryable.query<{
    entry_id: number;
    kind: string;
    reference: string;
    code: "real" | "practice";
    amount_cents: number;
    created_at: Date;
  }>(
    `SELECT e.id AS entry_id, e.kind, e.reference, a.code, p.amount_cents, e.created_at
     FROM postings p
     JOIN ledger_accounts a ON a.id = p.account_id
     JOIN journal_entries e ON e.id = p.entry_id
     WHERE a.user_id = $1
     ORDER BY e.created_at DESC, e.id DESC, p.id DESC LIMIT $2`,
    [userId, rowsMax],
  );
  const real = await tradeHistoryPage(queryable, userId, false, 1, rowsMax);
  const practice = await tradeHistoryPage(queryable, userId, true, 1, rowsMax);
  const trades = [...real.rows, ...practice.rows]
    .sort((a, b) => b.start_time.getTime() - a.start_time.getTime() || b.id - a.id)
    .slice(0, rowsMax);
  const sessions = await queryable.query<{
    id: number;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
    ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT id, created_at, last_seen_at, expires_at, revoked_at, ip, user_agent FROM sessions
     WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, rowsMax],
  );

  return {
    user: {
      ...summary(row, await closureStatesOf(queryable, [Number(row.id)])),
      phone_number: row.phone_number,
      plan: row.plan,
    },
    restrictions: {
      country: isRestrictedCountry(config, row.country)
        ? staffCountryRestrictedMessage(row.country)
        : null,
      exclusion: await exclusionOf(queryable, userId, now),
    },
    ledger: ledger.rows.map((line) => ({
      entry_id: line.entry_id,
      kind: line.kind,
      reference: line.reference,
      account: line.code,
      amount: dollarsFromCents(line.amount_cents),
      created_at: line.created_at.toISOString(),
    })),
    trades: trades.map(tradeView),
    deposits: (await depositsOfUser(queryable, userId, rowsMax)).map(depositView),
    withdrawals: (await withdrawalsOfUser(queryable, userId, rowsMax)).map(withdrawalView),
    verifications: (await verificationsOfUser(queryable, userId, rowsMax)).map(verificationView),
    sessions: sessions.rows.map((session) => ({
      id: session.id,
      created_at: session.created_at.toISOString(),
      last_seen_at: session.last_seen_at.toISOString(),
      expires_at: session.expires_at.toISOString(),
      revoked_at: session.revoked_at?.toISOString() ?? null,
      ip: session.ip,
      user_agent: session.user_agent,
    })),
  };
}

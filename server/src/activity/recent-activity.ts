import { type ActivityItem, activity_items_max, activity_window_ms } from "@tp/domain/engagement";
import { dollarsFromCents } from "@tp/domain/money";
import type { Queryable } from "../db/database.ts";

/**
 * The last day's real money movements, anonymised (PRODUCT.md D5): confirmed deposits and
 * paid withdrawals, with amount, currency, method name and the minute it happened. Nothing
 * that points at a person (no user, id, reference or hash) is even selected.
 *
 * A read-only projection of the funding module's tables: funding owns and writes them; this
 * reads only the columns above, through the partial indexes of migration 007.
 */
export async function recentActivity(queryable: Queryable, now: Date): Promise<ActivityItem[]> {
  const since = new Date(now.getTime() - activity_window_ms);
  const result = await queryable.query<{
    kind: "deposit" | "withdrawal";
    amount_cents: number;
    currency: string;
    method: string;
    at: Date;
  }>(
    `SELECT kind, amount_cents, currency, method, at FROM (
       (SELECT 'deposit' AS kind, d.amount_cents, d.currency, pm.name AS method, d.reviewed_at AS at
        FROM deposits d JOIN payment_methods pm ON pm.id = d.payment_method_id
        WHERE d.status = 'confirmed' AND d.reviewed_at > $1 AND d.reviewed_at <= $2
        ORDER BY d.reviewed_at DESC LIMIT $3)
       UNION ALL
       (SELECT 'withdrawal' AS kind, w.amount_cents, w.currency, pm.name AS method, w.reviewed_at AS at
        FROM withdrawals w JOIN payment_methods pm ON pm.id = w.payment_method_id
        WHERE w.status = 'paid' AND w.reviewed_at > $1 AND w.reviewed_at <= $2
        ORDER BY w.reviewed_at DESC LIMIT $3)
     ) AS recent
     ORDER BY at DESC LIMIT $3`,
    [since, now, activity_items_max],
  );
  return result.rows
    .filter((row) => row.currency === "USD")
    .map((row) => {
      const minute = new Date(row.at);
      minute.setUTCSeconds(0, 0);
      return {
        kind: row.kind,
        amount: dollarsFromCents(row.amount_cents),
        currency: "USD" as const,
        method: row.method,
        at: minute.toISOString(),
      };
    });
}

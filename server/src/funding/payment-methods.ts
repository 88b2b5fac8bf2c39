import type { AdminPaymentMethod, UpdatePaymentMethodRequest } from "@tp/domain/admin-api";
import type { PaymentMethodFees } from "@tp/domain/fees";
import {
  isPaymentMethodConfigured,
  type PaymentMethodKind,
  type PaymentMethodView,
} from "@tp/domain/funding";
import type { Queryable } from "../db/database.ts";

/**
 * Payment methods (SPEC §3, §9), seeded by migration 004 with fixed ids and kinds and no
 * details; staff fill them in. A method is available to deposits when it is active and
 * configured (SPEC §5, §8).
 */
export interface PaymentMethodRow extends PaymentMethodFees {
  id: string;
  kind: PaymentMethodKind;
  name: string;
  is_active: boolean;
  is_recommended: boolean;
  wallet_address: string | null;
  instructions: string[];
  additional_details: Record<string, string>;
  sort_order: number;
  updated_at: Date;
}

export function isAvailable(method: PaymentMethodRow): boolean {
  return method.is_active && isPaymentMethodConfigured(method);
}

export async function listPaymentMethods(queryable: Queryable): Promise<PaymentMethodRow[]> {
  const result = await queryable.query<PaymentMethodRow>(
    "SELECT * FROM payment_methods ORDER BY sort_order, id",
  );
  return result.rows;
}

export async function findPaymentMethod(
  queryable: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentMethodRow | null> {
  const result = await queryable.query<PaymentMethodRow>(
    `SELECT * FROM payment_methods WHERE id = $1${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id],
  );
  return result.rows[0] ?? null;
}

export function paymentMethodView(method: PaymentMethodRow): PaymentMethodView {
  return {
    id: method.id,
    name: method.name,
    kind: method.kind,
    is_active: method.is_active,
    is_recommended: method.is_recommended,
    is_available: isAvailable(method),
    wallet_address: method.wallet_address,
    additional_details: method.additional_details,
    deposit_fee_fixed_cents: method.deposit_fee_fixed_cents,
    deposit_fee_basis_points: method.deposit_fee_basis_points,
    withdrawal_fee_fixed_cents: method.withdrawal_fee_fixed_cents,
    withdrawal_fee_basis_points: method.withdrawal_fee_basis_points,
  };
}

export function adminPaymentMethodView(method: PaymentMethodRow): AdminPaymentMethod {
  return {
    ...paymentMethodView(method),
    instructions: method.instructions,
    sort_order: method.sort_order,
    updated_at: method.updated_at.toISOString(),
  };
}

/** Applies staff's changes; returns the row before and after (for the audit log). */
export async function updatePaymentMethod(
  transaction: Queryable,
  id: string,
  changes: UpdatePaymentMethodRequest,
  at: Date,
): Promise<{ before: PaymentMethodRow; after: PaymentMethodRow } | null> {
  const before = await findPaymentMethod(transaction, id, { forUpdate: true });
  if (!before) return null;
  const walletAddress =
    changes.wallet_address === undefined
      ? before.wallet_address
      : changes.wallet_address === null || changes.wallet_address === ""
        ? null
        : changes.wallet_address;
  const updated = await transaction.query<PaymentMethodRow>(
    `UPDATE payment_methods SET name = $2, is_active = $3, is_recommended = $4,
       wallet_address = $5, instructions = $6::jsonb, additional_details = $7::jsonb, updated_at = $8,
       deposit_fee_fixed_cents = $9, deposit_fee_basis_points = $10,
       withdrawal_fee_fixed_cents = $11, withdrawal_fee_basis_points = $12
     WHERE id = $1 RETURNING *`,
    [
      id,
      changes.name ?? before.name,
      changes.is_active ?? before.is_active,
      changes.is_recommended ?? before.is_recommended,
      walletAddress,
      JSON.stringify(changes.instructions ?? before.instructions),
      JSON.stringify(changes.additional_details ?? before.additional_details),
      at,
      changes.deposit_fee_fixed_cents ?? before.deposit_fee_fixed_cents,
      changes.deposit_fee_basis_points ?? before.deposit_fee_basis_points,
      changes.withdrawal_fee_fixed_cents ?? before.withdrawal_fee_fixed_cents,
      changes.withdrawal_fee_basis_points ?? before.withdrawal_fee_basis_points,
    ],
  );
  return { before, after: updated.rows[0]! };
}

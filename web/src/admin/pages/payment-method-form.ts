import type { AdminPaymentMethod, UpdatePaymentMethodRequest } from "@tp/domain/admin-api";
import {
  fee_basis_points_max,
  fee_fixed_cents_max,
  feeMessages,
  type PaymentMethodFees,
} from "@tp/domain/fees";
import {
  type PaymentMethodKind,
  payment_method_detail_key_length_max,
  payment_method_details_max,
  payment_method_instructions_max,
  payment_method_name_length_max,
  payment_method_text_length_max,
  usesWalletAddress,
} from "@tp/domain/funding";
import { centsFromDollars, dollarsFromCents } from "@tp/domain/money";
import { refuseUnsafeText } from "@tp/domain/validation";
import { z } from "zod";

/** The details each kind needs to be offered (SPEC §9), pre-filled as empty rows. */
const suggestedDetailKeys: Record<PaymentMethodKind, readonly string[]> = {
  crypto: [],
  e_wallet: [],
  bank: ["bank_name", "account_name", "account_number", "swift_code"],
  money_transfer: ["location"],
};

const textTooLong = `At most ${payment_method_text_length_max} characters`;
const detailKeyPattern = /^[A-Za-z][A-Za-z0-9_ ]*$/;
/** Text traders copy to pay: the server's rule (no invisible or control characters). */
const methodText = z
  .string()
  .trim()
  .max(payment_method_text_length_max, textTooLong)
  .superRefine(refuseUnsafeText("line"));

/**
 * A fee field as staff type it: dollars for the fixed part, percent for the other, each
 * with at most 2 decimals, so both convert exactly to the integer the contract carries
 * (cents; basis points = percent × 100, the same exact conversion). Empty means 0.
 */
function feeText(kind: "fixed" | "percent") {
  const max = kind === "fixed" ? fee_fixed_cents_max : fee_basis_points_max;
  return z
    .string()
    .trim()
    .transform((text, context) => {
      const value = text === "" ? 0 : Number(text);
      const exact = Number.isFinite(value) ? centsFromDollars(value) : null;
      let message: string | null = null;
      if (exact === null) {
        message =
          kind === "fixed"
            ? "Enter an amount with at most 2 decimals"
            : "Enter a percentage with at most 2 decimals";
      } else if (exact < 0) {
        message = kind === "fixed" ? feeMessages.fixedCentsMin : feeMessages.basisPointsMin;
      } else if (exact > max) {
        message = kind === "fixed" ? feeMessages.fixedCentsMax : feeMessages.basisPointsMax;
      }
      if (message) {
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return exact as number;
    });
}

/**
 * The form's own shape (lists of rows for react-hook-form), checked with the contract's
 * limits and messages; `toRequest` turns it into PUT /admin/payment-methods/{id}.
 */
export const methodFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Name is required")
      .max(payment_method_name_length_max, `At most ${payment_method_name_length_max} characters`)
      .superRefine(refuseUnsafeText("line")),
    is_active: z.boolean(),
    is_recommended: z.boolean(),
    wallet_address: methodText,
    instructions: z
      .array(z.object({ text: methodText }))
      .max(payment_method_instructions_max, `At most ${payment_method_instructions_max} lines`),
    details: z.array(
      z.object({
        key: z.string().trim(),
        value: methodText,
      }),
    ),
    deposit_fee_fixed: feeText("fixed"),
    deposit_fee_percent: feeText("percent"),
    withdrawal_fee_fixed: feeText("fixed"),
    withdrawal_fee_percent: feeText("percent"),
  })
  .superRefine((values, context) => {
    const seen = new Set<string>();
    let filled = 0;
    values.details.forEach((detail, index) => {
      if (detail.value.length === 0) return;
      filled += 1;
      const path = ["details", index, "key"];
      if (detail.key.length === 0) {
        context.addIssue({ code: "custom", path, message: "A key is required" });
      } else if (!detailKeyPattern.test(detail.key)) {
        context.addIssue({
          code: "custom",
          path,
          message: "Keys are letters, digits, spaces and underscores",
        });
      } else if (detail.key.length > payment_method_detail_key_length_max) {
        context.addIssue({
          code: "custom",
          path,
          message: `Keys have at most ${payment_method_detail_key_length_max} characters`,
        });
      } else if (seen.has(detail.key)) {
        context.addIssue({ code: "custom", path, message: "This key is already used" });
      }
      seen.add(detail.key);
    });
    if (filled > payment_method_details_max) {
      context.addIssue({
        code: "custom",
        path: ["details"],
        message: `At most ${payment_method_details_max} details`,
      });
    }
  });
export type MethodFormInput = z.input<typeof methodFormSchema>;
export type MethodFormValues = z.output<typeof methodFormSchema>;

export function formValuesOf(method: AdminPaymentMethod): MethodFormInput {
  const details = Object.entries(method.additional_details).map(([key, value]) => ({
    key,
    value,
  }));
  for (const key of suggestedDetailKeys[method.kind]) {
    if (!(key in method.additional_details)) details.push({ key, value: "" });
  }
  return {
    name: method.name,
    is_active: method.is_active,
    is_recommended: method.is_recommended,
    wallet_address: method.wallet_address ?? "",
    instructions: method.instructions.map((text) => ({ text })),
    details,
    // Basis points read as percent by the cents rule: 150 → "1.5".
    deposit_fee_fixed: String(dollarsFromCents(method.deposit_fee_fixed_cents)),
    deposit_fee_percent: String(dollarsFromCents(method.deposit_fee_basis_points)),
    withdrawal_fee_fixed: String(dollarsFromCents(method.withdrawal_fee_fixed_cents)),
    withdrawal_fee_percent: String(dollarsFromCents(method.withdrawal_fee_basis_points)),
  };
}

/**
 * Empty instruction lines and details without a value are left out (a cleared field goes).
 * Fees go only when they differ from `current`, so a proposal names the fee it changes.
 */
export function toRequest(
  kind: PaymentMethodKind,
  values: MethodFormValues,
  current: PaymentMethodFees,
): UpdatePaymentMethodRequest {
  const fees: PaymentMethodFees = {
    deposit_fee_fixed_cents: values.deposit_fee_fixed,
    deposit_fee_basis_points: values.deposit_fee_percent,
    withdrawal_fee_fixed_cents: values.withdrawal_fee_fixed,
    withdrawal_fee_basis_points: values.withdrawal_fee_percent,
  };
  const changedFees = Object.fromEntries(
    Object.entries(fees).filter(
      ([key, value]) => current[key as keyof PaymentMethodFees] !== value,
    ),
  ) as Partial<PaymentMethodFees>;
  const additional_details: Record<string, string> = {};
  for (const detail of values.details) {
    if (detail.value.length > 0) additional_details[detail.key] = detail.value;
  }
  return {
    name: values.name,
    is_active: values.is_active,
    is_recommended: values.is_recommended,
    ...(usesWalletAddress(kind) ? { wallet_address: values.wallet_address || null } : {}),
    instructions: values.instructions.map((line) => line.text).filter((text) => text.length > 0),
    additional_details,
    ...changedFees,
  };
}

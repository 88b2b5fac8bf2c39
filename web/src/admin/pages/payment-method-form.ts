import type { AdminPaymentMethod, UpdatePaymentMethodRequest } from "@tp/domain/admin-api";
import {
  type PaymentMethodKind,
  payment_method_detail_key_length_max,
  payment_method_details_max,
  payment_method_instructions_max,
  payment_method_name_length_max,
  payment_method_text_length_max,
  usesWalletAddress,
} from "@tp/domain/funding";
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
      .max(payment_method_name_length_max, `At most ${payment_method_name_length_max} characters`),
    is_active: z.boolean(),
    is_recommended: z.boolean(),
    wallet_address: z.string().trim().max(payment_method_text_length_max, textTooLong),
    instructions: z
      .array(z.object({ text: z.string().trim().max(payment_method_text_length_max, textTooLong) }))
      .max(payment_method_instructions_max, `At most ${payment_method_instructions_max} lines`),
    details: z.array(
      z.object({
        key: z.string().trim(),
        value: z.string().trim().max(payment_method_text_length_max, textTooLong),
      }),
    ),
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
  };
}

/** Empty instruction lines and details without a value are left out (a cleared field goes). */
export function toRequest(
  kind: PaymentMethodKind,
  values: MethodFormValues,
): UpdatePaymentMethodRequest {
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
  };
}

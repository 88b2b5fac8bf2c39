import { z } from "zod";
import { roleSchema, tradeViewSchema } from "./api.ts";
import { feeBasisPointsSchema, feeFixedCentsSchema, paymentMethodFeesSchema } from "./fees.ts";
import {
  depositStatuses,
  depositViewSchema,
  payment_method_detail_key_length_max,
  payment_method_details_max,
  payment_method_instructions_max,
  payment_method_name_length_max,
  payment_method_text_length_max,
  paymentMethodKinds,
  verificationStatuses,
  verificationViewSchema,
  withdrawalStatuses,
  withdrawalViewSchema,
} from "./funding.ts";
import { exclusionSchema } from "./trader-limits.ts";
import { refuseUnsafeText, storableIsoDateTimeSchema } from "./validation.ts";

/**
 * The back office's API (PRODUCT.md D7) under /api/v1/admin: request and reply shapes as zod
 * schemas, shared by the server's routes and the /admin pages.
 */

const dollars = z.number();
const timestamp = z.string();

export const adminMessages = {
  depositApproved: "Deposit approved: the real balance has been credited",
  depositRejected: "Deposit rejected",
  depositNotUnderReview: "This deposit is not under review",
  withdrawalPaid: "Withdrawal marked as paid",
  withdrawalRejected: "Withdrawal rejected: the hold has been released",
  withdrawalNotPending: "This withdrawal is no longer pending",
  verificationApproved: "Identity documents approved",
  verificationRejected: "Identity documents rejected",
  verificationNotPending: "These documents are no longer pending review",
  paymentMethodUpdated: "Payment method updated",
  nothingToChange: "Nothing to change",
  sessionRevoked: "Session revoked",
  sessionsRevoked: "All sessions revoked",
  noReceipt: "This deposit has no receipt",
  depositFirstApproval:
    "First approval recorded: a second reviewer must approve before the balance is credited",
  withdrawalFirstApproval: "First approval recorded: a second reviewer must approve and pay it out",
  sameReviewerTwice: "You gave the first approval: a different reviewer must give the second",
  paymentMethodChangeProposed: "Change proposed: it takes effect when a second admin confirms it",
  paymentMethodChangeConfirmed: "Change confirmed: the payment method is updated",
  paymentMethodChangeDiscarded: "Proposed change discarded",
  paymentMethodChangeNotPending: "This change is no longer pending",
  payoutReferenceRequired: "A payout reference is required",
  payoutAfterSecondApproval:
    "Nothing is paid before the second approval: approve without a payout reference; the second reviewer pays and records it",
  ownChangeConfirm: "You proposed this change: a different admin must confirm it",
} as const;

/** Who a queue item belongs to (the issue: "every queue item carries the trader's id, name and e-mail"). */
export const adminTraderRefSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
});
export type AdminTraderRef = z.infer<typeof adminTraderRefSchema>;

/** The member of staff who decided, when someone has. */
export const adminReviewerSchema = z.object({ id: z.number().int(), email: z.string() }).nullable();

/**
 * Four eyes on a deposit or withdrawal: whether it needs two approvals (its amount is above
 * FOUR_EYES_THRESHOLD_DOLLARS) and, once given, who gave the first and when.
 */
export const adminFourEyesSchema = z.object({
  needs_second_approval: z.boolean(),
  first_approved_by: adminReviewerSchema,
  first_approved_at: timestamp.nullable(),
});
export type AdminFourEyes = z.infer<typeof adminFourEyesSchema>;

export const adminPaginationSchema = z.object({
  last_page: z.number().int(),
  current_page: z.number().int(),
  total: z.number().int(),
});

export const admin_page_size_max = 100;

const page = z.coerce
  .number({ error: "page must be a whole number from 1" })
  .int("page must be a whole number from 1")
  .min(1, "page must be a whole number from 1")
  .max(1_000_000, "page is too large")
  .default(1);
const limit = z.coerce
  .number({ error: `limit must be a whole number from 1 to ${admin_page_size_max}` })
  .int(`limit must be a whole number from 1 to ${admin_page_size_max}`)
  .min(1, `limit must be a whole number from 1 to ${admin_page_size_max}`)
  .max(admin_page_size_max, `limit must be a whole number from 1 to ${admin_page_size_max}`)
  .default(25);

export const adminPageQuerySchema = z.object({ page, limit });

// Queues --------------------------------------------------------------------------------

export const adminDepositQuerySchema = z.object({
  status: z.enum(depositStatuses, { error: "Unknown deposit status" }).optional(),
  page,
  limit,
});
export const adminDepositViewSchema = depositViewSchema.extend({
  trader: adminTraderRefSchema,
  reviewed_by: adminReviewerSchema,
  receipt_content_type: z.string().nullable(),
  receipt_size_bytes: z.number().int().nullable(),
  four_eyes: adminFourEyesSchema,
});
export type AdminDepositView = z.infer<typeof adminDepositViewSchema>;

export const adminWithdrawalQuerySchema = z.object({
  status: z.enum(withdrawalStatuses, { error: "Unknown withdrawal status" }).optional(),
  page,
  limit,
});
export const adminWithdrawalViewSchema = withdrawalViewSchema.extend({
  trader: adminTraderRefSchema,
  reviewed_by: adminReviewerSchema,
  four_eyes: adminFourEyesSchema,
});
export type AdminWithdrawalView = z.infer<typeof adminWithdrawalViewSchema>;

export const adminVerificationQuerySchema = z.object({
  status: z.enum(verificationStatuses, { error: "Unknown verification status" }).optional(),
  page,
  limit,
});
export const adminVerificationViewSchema = verificationViewSchema.extend({
  trader: adminTraderRefSchema,
  reviewed_by: adminReviewerSchema,
  /** The trader's e-mail state and identity state now, for the reviewer's context. */
  email_verified_at: timestamp.nullable(),
  kyc_verified_at: timestamp.nullable(),
});
export type AdminVerificationView = z.infer<typeof adminVerificationViewSchema>;

export function adminListDataSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ data: z.array(item), pagination: adminPaginationSchema });
}

// Users ---------------------------------------------------------------------------------

export const adminUserQuerySchema = z.object({
  /** Matches e-mail, username, first or last name (case-insensitive), or the exact id. */
  q: z.string().trim().max(100, "The search text is too long").optional(),
  page,
  limit,
});

export const adminUserSummarySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  name: z.string(),
  role: roleSchema,
  country: z.string(),
  created_at: timestamp,
  email_verified_at: timestamp.nullable(),
  kyc_verified_at: timestamp.nullable(),
  account_balance: dollars,
  practice_balance: dollars,
  /**
   * The account's closure (issue 14 item 7), null when none was asked: closing (trading and
   * deposits stopped, waiting for trades and payouts) or closed.
   */
  closure: z
    .object({
      status: z.enum(["closing", "closed"]),
      requested_at: timestamp,
      closed_at: timestamp.nullable(),
    })
    .nullable(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminLedgerLineSchema = z.object({
  entry_id: z.number().int(),
  kind: z.string(),
  reference: z.string(),
  account: z.enum(["real", "practice"]),
  /** Signed: positive raised the balance. */
  amount: dollars,
  created_at: timestamp,
});

export const adminSessionSchema = z.object({
  id: z.number().int(),
  created_at: timestamp,
  last_seen_at: timestamp,
  expires_at: timestamp,
  revoked_at: timestamp.nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});

/** Each list holds the newest `admin_user_detail_rows_max` rows. */
export const admin_user_detail_rows_max = 50;

/** The staff screen's words for a trader whose declared country is on RESTRICTED_COUNTRIES. */
export function staffCountryRestrictedMessage(country: string): string {
  return `Real money blocked: ${country} is restricted`;
}

export const adminUserDetailSchema = z.object({
  user: adminUserSummarySchema.extend({ phone_number: z.string(), plan: z.string() }),
  /**
   * What stops the trader's real money now: their declared country's restriction (the
   * sentence staff read, null when none) and the time-out, self-exclusion or closure in
   * force (null when none).
   */
  restrictions: z.object({
    country: z.string().nullable(),
    exclusion: exclusionSchema.nullable(),
  }),
  ledger: z.array(adminLedgerLineSchema),
  trades: z.array(tradeViewSchema),
  deposits: z.array(depositViewSchema),
  withdrawals: z.array(withdrawalViewSchema),
  verifications: z.array(verificationViewSchema),
  sessions: z.array(adminSessionSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

// Payment methods -----------------------------------------------------------------------

export const adminPaymentMethodSchema = paymentMethodFeesSchema.extend({
  id: z.string(),
  name: z.string(),
  kind: z.enum(paymentMethodKinds),
  is_active: z.boolean(),
  is_recommended: z.boolean(),
  is_available: z.boolean(),
  wallet_address: z.string().nullable(),
  instructions: z.array(z.string()),
  additional_details: z.record(z.string(), z.string()),
  sort_order: z.number().int(),
  updated_at: timestamp,
});
export type AdminPaymentMethod = z.infer<typeof adminPaymentMethodSchema>;

const methodText = z
  .string({ error: "Must be text" })
  .trim()
  .max(payment_method_text_length_max, `At most ${payment_method_text_length_max} characters`)
  // Traders copy these to pay: nothing invisible or direction-changing may hide in them.
  .superRefine(refuseUnsafeText("line"));

/**
 * PUT /admin/payment-methods/{id}: any of these; additional_details replaces the whole map.
 * A body with none of them is refused with "Nothing to change" (`hasPaymentMethodChanges`).
 */
export const updatePaymentMethodSchema = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(payment_method_name_length_max, `At most ${payment_method_name_length_max} characters`)
      .superRefine(refuseUnsafeText("line"))
      .optional(),
    is_active: z.boolean({ error: "Must be true or false" }).optional(),
    is_recommended: z.boolean({ error: "Must be true or false" }).optional(),
    /** Empty or null clears it. */
    wallet_address: methodText.nullable().optional(),
    instructions: z
      .array(methodText.min(1, "An instruction line cannot be empty"), {
        error: "Must be a list of lines",
      })
      .max(payment_method_instructions_max, `At most ${payment_method_instructions_max} lines`)
      .optional(),
    additional_details: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z][A-Za-z0-9_ ]*$/, "Keys are letters, digits, spaces and underscores")
          .max(
            payment_method_detail_key_length_max,
            `Keys have at most ${payment_method_detail_key_length_max} characters`,
          ),
        methodText,
        { error: "Must be an object of text values" },
      )
      .refine((value) => Object.keys(value).length <= payment_method_details_max, {
        message: `At most ${payment_method_details_max} details`,
      })
      .optional(),
    /** Fees (fees.ts): whole cents and whole basis points; 0 and 0 is no fee. */
    deposit_fee_fixed_cents: feeFixedCentsSchema.optional(),
    deposit_fee_basis_points: feeBasisPointsSchema.optional(),
    withdrawal_fee_fixed_cents: feeFixedCentsSchema.optional(),
    withdrawal_fee_basis_points: feeBasisPointsSchema.optional(),
  })
  .strict();
export type UpdatePaymentMethodRequest = z.output<typeof updatePaymentMethodSchema>;

export function hasPaymentMethodChanges(changes: UpdatePaymentMethodRequest): boolean {
  return Object.values(changes).some((field) => field !== undefined);
}

/**
 * A payment-method change one admin proposed (PUT /admin/payment-methods/{id}); it takes
 * effect only when a second admin confirms it.
 */
export const paymentMethodChangeSchema = z.object({
  id: z.number().int(),
  payment_method_id: z.string(),
  payment_method_name: z.string(),
  /** The proposed fields only, as sent. */
  changes: z.record(z.string(), z.unknown()),
  status: z.enum(["pending", "confirmed", "discarded"]),
  proposed_by: z.object({ id: z.number().int(), email: z.string() }),
  proposed_at: timestamp,
  decided_by: adminReviewerSchema,
  decided_at: timestamp.nullable(),
});
export type PaymentMethodChange = z.infer<typeof paymentMethodChangeSchema>;

// Audit log -----------------------------------------------------------------------------

export const auditActions = [
  "admin.created",
  "staff.created",
  "deposit.first_approved",
  "deposit.approved",
  "deposit.rejected",
  "withdrawal.first_approved",
  "withdrawal.paid",
  "withdrawal.rejected",
  "verification.approved",
  "verification.rejected",
  "payment_method.updated",
  "payment_method.change_proposed",
  "payment_method.change_discarded",
  "session.revoked",
  "sessions.revoked",
  "notification.broadcast",
  "export.downloaded",
] as const;
export type AuditAction = (typeof auditActions)[number];

export const adminAuditQuerySchema = z.object({
  /** The actor's user id, or (part of) their e-mail. */
  actor: z.string().trim().max(254, "The actor is too long").optional(),
  action: z.enum(auditActions, { error: "Unknown action" }).optional(),
  /** A target type ("deposit") or one target ("deposit:12"). */
  target: z
    .string()
    .trim()
    .regex(/^[a-z_]+(:[A-Za-z0-9_.@-]+)?$/, "A target is a type, or type:id, such as deposit:12")
    .optional(),
  from: storableIsoDateTimeSchema("from must be an ISO date-time").optional(),
  to: storableIsoDateTimeSchema("to must be an ISO date-time").optional(),
  page,
  limit,
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  /** Null for the command line and the first-start bootstrap. */
  actor: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  actor_label: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  created_at: timestamp,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

// Reconciliation --------------------------------------------------------------------------

const countAndAmount = z.object({ count: z.number().int(), amount: dollars });

/** GET /admin/ledger/check and `npm run ledger:check`. */
export const ledgerReportSchema = z.object({
  ok: z.boolean(),
  violations: z.array(z.string()),
  checked_at: timestamp,
  currency: z.string(),
  /** Sum of balances per account kind (trader real, trader practice, each system account kind). */
  balances_by_kind: z.record(z.string(), dollars),
  held_withdrawals: countAndAmount,
  confirmed_deposits: countAndAmount,
  paid_withdrawals: countAndAmount,
  /** The house's net result from trades: positive when traders lost more than they won. */
  trading_results: z.object({ real: dollars, practice: dollars }),
});
export type LedgerReport = z.infer<typeof ledgerReportSchema>;

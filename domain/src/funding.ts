import { z } from "zod";
import { paymentMethodFeesSchema } from "./fees.ts";
import { centsFromDollars, formatUsdFromCents } from "./money.ts";
import { refuseUnsafeText, textProblem } from "./validation.ts";

/**
 * Funding (SPEC §2 "Funding flow" / "Withdrawal", §3, §4, §5, §8, §9; PRODUCT.md D4, D9):
 * payment methods and their kinds, the deposit / withdrawal / identity-document states,
 * the request schemas with their messages and the reply shapes. The server validates with
 * these schemas and the web forms use the same ones, so both say the same thing.
 */

/** Texts of SPEC §8 (verbatim) and the server's own funding replies. */
export const fundingMessages = {
  // SPEC §8 "Deposit"
  invalidPaymentMethod: "Invalid payment method",
  methodNotAvailable: "This payment method is not available",
  invalidDepositResponse: "Invalid deposit response",
  walletNotAvailable: "Wallet address not available",
  walletFailed: "Failed to get wallet address",
  methodCurrentlyUnavailable: "Payment method currently unavailable",
  depositFailed: "Deposit failed",
  cancelFailed: "Failed to cancel deposit",
  receiptFailed: "Failed to upload receipt",
  depositSubmitted: "Deposit submitted for review",
  // SPEC §5 "Payment method" (shown on the method list)
  methodUnavailableNotice:
    "Payment Method Unavailable: This payment method is currently unavailable.",
  // Issue 13 item 2: no method at all is usable (a new platform before the operator sets one up)
  noDepositMethods: "No deposit methods are available yet",
  noDepositMethodsReason:
    "The platform has not set up a way to pay in yet. Please check back later or contact support; your practice account is ready to use meanwhile.",
  noWithdrawalMethods: "No withdrawal methods are available yet",
  noWithdrawalMethodsReason:
    "The platform has not set up a way to pay out yet. Your balance is safe; please check back later or contact support.",
  // SPEC §8 "Empty or other"
  addressCopied: "Address copied!",
  copiedToClipboard: "Copied to clipboard!",
  // SPEC §8 "Withdrawal"
  invalidWithdrawalMethod: "Invalid withdrawal method",
  withdrawalFailed: "Withdrawal failed",
  // SPEC §8 "Verification", §5 "ID verification"
  verificationFailed: "Upload failed",
  verificationUploaded: "Verification documents uploaded successfully",
  acceptTermsFirst: "Please accept the terms first",
  // SPEC §8 "Transactions"
  transactionsFailed: "Error loading transactions",

  // The server's own replies (the spec leaves them open; PRODUCT.md D4, D11).
  amountRequired: "Amount is required",
  validAmount: "Please enter a valid amount",
  amountDecimals: "The amount can have at most 2 decimals",
  amountMinimum: "The minimum amount is $1.00",
  amountMaximum: `The maximum amount is ${formatUsdFromCents(100_000_000)}`,
  detailsAmountMismatch: "The amount in the withdrawal details does not match the amount",
  expectedFee: "The expected fee is an amount in dollars, from $0.00, with at most 2 decimals",
  walletAddressRequired: "Wallet address is required",
  walletAddressInvalid: "Please enter a valid wallet address",
  receiverNameRequired: "Receiver name is required",
  receiverAddressRequired: "Receiver address is required",
  bankNameRequired: "Bank name is required",
  accountNameRequired: "Account name is required",
  accountNumberRequired: "Account number is required",
  routingNumberRequired: "Routing number is required",
  fieldTooLong: "This field is too long",
  withdrawalDetailsRequired: "Withdrawal details are required",
  depositCreated: "Deposit created. Make the payment, then upload the receipt.",
  depositCancelled: "Deposit cancelled",
  depositNotAwaitingPayment: "This deposit is no longer awaiting payment",
  depositExpired: "This deposit expired unpaid. Start a new one if you still want to deposit.",
  transactionHashRequired: "Transaction hash is required",
  transactionHashMismatch: "The transaction hash does not match this deposit",
  receiptRequired: "Please choose the receipt file",
  receiptType: "The receipt must be an image (JPEG, PNG or WebP) or a PDF",
  fileRequired: "Please choose a file",
  identityFileType: "The file must be a JPG, JPEG, PNG or PDF",
  fileTooLarge: "The file is larger than 10 MB",
  sendMultipart: "Send the form as multipart/form-data",
  fileMissing: "This file is no longer available",
  idTypeInvalid: "Please select a valid ID type",
  identityAlreadyPending: "Your documents are already under review",
  identityAlreadyVerified: "Your identity is already verified",
  withdrawalRequested: "Withdrawal request submitted. It is normally processed within 24-48 hours.",
  withdrawalCancelled: "Withdrawal cancelled",
  withdrawalNotPending: "This withdrawal is no longer pending",
  withdrawalConfirmLinkInvalid:
    "This confirmation link is invalid or has expired. Request the withdrawal again if you still want it.",
  withdrawalConfirmed:
    "Withdrawal confirmed. It is now with our team and normally processed within 24-48 hours.",
  withdrawalAlreadyConfirmed: "This withdrawal is already confirmed",
  withdrawalConfirmByEmail:
    "We have e-mailed you a link: open it to confirm this withdrawal. Until then it is not sent for processing.",
  insufficientBalance: "Insufficient balance",
  emailNotVerified:
    "Please verify your email address before requesting a withdrawal. Check your inbox for the verification link.",
  identityNotVerified:
    "Please verify your identity before requesting a withdrawal: upload an ID document on the Security page.",
} as const;

const m = fundingMessages;

// ---------------------------------------------------------------------------------------
// Payment methods (SPEC §3, §9)

/** Every payment method id, in the order of the funding list (SPEC §2 "Funding flow"). */
export const paymentMethodIds = [
  "bitcoin",
  "litecoin",
  "ethereum",
  "perfect-money",
  "bitcoin-cash",
  "usdt",
  "bank-transfer",
  "western-union",
] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];

/**
 * crypto: a wallet address and instruction lines; bank: bank_name, account_name,
 * account_number, swift_code; money_transfer: free key/value pairs and a location;
 * e_wallet (perfect-money, which SPEC §9 does not classify): an account id shown like a
 * wallet address, with instruction lines.
 */
export const paymentMethodKinds = ["crypto", "bank", "money_transfer", "e_wallet"] as const;
export type PaymentMethodKind = (typeof paymentMethodKinds)[number];

/** SPEC §9: the kind of each method is fixed by its id. */
export const paymentMethodKindById: Record<PaymentMethodId, PaymentMethodKind> = {
  bitcoin: "crypto",
  ethereum: "crypto",
  litecoin: "crypto",
  "bitcoin-cash": "crypto",
  usdt: "crypto",
  "bank-transfer": "bank",
  "western-union": "money_transfer",
  "perfect-money": "e_wallet",
};

export function isPaymentMethodId(value: unknown): value is PaymentMethodId {
  return typeof value === "string" && (paymentMethodIds as readonly string[]).includes(value);
}

/** Kinds paid to an address the trader copies (WALLET_DETAILS); the rest use BANK_DETAILS. */
export function usesWalletAddress(kind: PaymentMethodKind): boolean {
  return kind === "crypto" || kind === "e_wallet";
}

/** The deposit step after SELECT_METHOD for a method of this kind (SPEC §4 "Deposit flow"). */
export function depositDetailsStep(kind: PaymentMethodKind): "WALLET_DETAILS" | "BANK_DETAILS" {
  return usesWalletAddress(kind) ? "WALLET_DETAILS" : "BANK_DETAILS";
}

/**
 * Whether a method has what a deposit needs (SPEC §8 "This payment method is not
 * available": crypto without wallet address, bank without bank_name, money transfer
 * without location).
 */
export function isPaymentMethodConfigured(method: {
  kind: PaymentMethodKind;
  wallet_address: string | null;
  additional_details: Record<string, string>;
}): boolean {
  const filled = (value: string | null | undefined) =>
    typeof value === "string" && value.trim().length > 0;
  switch (method.kind) {
    case "crypto":
    case "e_wallet":
      return filled(method.wallet_address);
    case "bank":
      return filled(method.additional_details.bank_name);
    case "money_transfer":
      return filled(method.additional_details.location);
  }
}

/** Limits on what staff may store on a method. */
export const payment_method_name_length_max = 60;
export const payment_method_text_length_max = 300;
export const payment_method_instructions_max = 20;
export const payment_method_details_max = 20;
export const payment_method_detail_key_length_max = 40;

// ---------------------------------------------------------------------------------------
// States (SPEC §4, PRODUCT.md D4, D7)

/**
 * awaiting_payment → under_review → confirmed | rejected; awaiting_payment → cancelled (by
 * the trader) | expired (unpaid after DEPOSIT_PAYMENT_WINDOW_HOURS).
 */
export const depositStatuses = [
  "awaiting_payment",
  "under_review",
  "confirmed",
  "rejected",
  "cancelled",
  "expired",
] as const;
export type DepositStatus = (typeof depositStatuses)[number];

/**
 * A trader may have this many deposits awaiting payment at once. The cap never traps: the
 * message says where to continue or cancel one, and unpaid ones expire by themselves.
 */
export const awaiting_deposits_max = 10;
export const tooManyAwaitingDepositsMessage = `You have ${awaiting_deposits_max} deposits awaiting payment. Continue (upload the payment proof) or cancel one in your Transaction History; unpaid deposits also expire by themselves.`;

/**
 * How long staff normally take with a confirmed withdrawal ("normally processed within
 * 24-48 hours"): the timeline's expected time of the decision.
 */
export const withdrawal_processing_hours_max = 48;

/** pending → paid | rejected (hold released); pending → cancelled by the trader. */
export const withdrawalStatuses = ["pending", "paid", "rejected", "cancelled"] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

/** Identity documents: pending → approved (sets kyc_verified_at) | rejected. */
export const verificationStatuses = ["pending", "approved", "rejected"] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];

export const idTypes = ["passport", "national_id", "drivers_license"] as const;
export type IdType = (typeof idTypes)[number];
export const idTypeLabels: Record<IdType, string> = {
  passport: "Passport",
  national_id: "National ID",
  drivers_license: "Driver's License",
};

/**
 * SPEC §2 "History pages": a transaction row is green when confirmed, yellow when pending,
 * red otherwise. A paid withdrawal is the withdrawal's "confirmed"; a deposit awaiting
 * payment or under review is still pending.
 */
export function transactionStatusTone(
  status: DepositStatus | WithdrawalStatus,
): "confirmed" | "pending" | "failed" {
  switch (status) {
    case "confirmed":
    case "paid":
      return "confirmed";
    case "awaiting_payment":
    case "under_review":
    case "pending":
      return "pending";
    default:
      return "failed";
  }
}

// ---------------------------------------------------------------------------------------
// Requests

/** SPEC §5, §9: funding and withdrawal minimum 1 USD; the maximum is our limit. */
export const funding_amount_cents_min = 100;
export const funding_amount_cents_max = 100_000_000;
/** Longest free-text field of a withdrawal's details. */
export const withdrawal_detail_length_max = 200;
/** Longest rejection reason or payout reference staff may write. */
export const review_text_length_max = 500;

/**
 * An amount in dollars: one message, the first that applies. A single check rather than a
 * chain of aborting ones, so the withdrawal form's other fields are still checked with it.
 */
export const fundingAmountSchema = z
  .number({
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ""
        ? m.amountRequired
        : m.validAmount,
  })
  .superRefine((amount, context) => {
    const cents = centsFromDollars(amount);
    let message: string | null = null;
    if (!Number.isFinite(amount) || amount <= 0) message = m.validAmount;
    else if (cents === null) message = m.amountDecimals;
    else if (cents < funding_amount_cents_min) message = m.amountMinimum;
    else if (cents > funding_amount_cents_max) message = m.amountMaximum;
    if (message) context.addIssue({ code: "custom", message });
  });

/**
 * `expected_fee` on POST /deposits and /withdrawals: the fee in dollars the form showed before
 * the trader committed. Optional (API clients may leave it out); when sent and no longer the
 * method's fee, the request is refused with FEE_CHANGED and nothing is stored.
 */
export const expectedFeeSchema = z.number({ error: m.expectedFee }).superRefine((fee, context) => {
  const cents = centsFromDollars(fee);
  if (cents === null || cents < 0 || cents > funding_amount_cents_max) {
    context.addIssue({ code: "custom", message: m.expectedFee });
  }
});

/** POST /deposits. */
export const createDepositSchema = z.object({
  expected_fee: expectedFeeSchema.optional(),
  payment_method_id: z
    .string({ error: m.invalidPaymentMethod })
    .min(1, { message: m.invalidPaymentMethod })
    .max(64, { message: m.invalidPaymentMethod }),
  amount: fundingAmountSchema,
});
export type CreateDepositRequest = z.output<typeof createDepositSchema>;

/** The receipt form's text field (the file travels beside it in the multipart body). */
export const transaction_hash_length_max = 100;

/** The details a withdrawal needs by the method's kind (SPEC §3 "Withdrawal"). */
export const withdrawalDetailFields: Record<PaymentMethodKind, readonly string[]> = {
  crypto: ["wallet_address"],
  e_wallet: ["wallet_address"],
  money_transfer: ["receiver_name", "receiver_address"],
  bank: ["bank_name", "account_name", "account_number", "routing_number"],
};

const requiredDetailMessages: Record<string, string> = {
  wallet_address: m.walletAddressRequired,
  receiver_name: m.receiverNameRequired,
  receiver_address: m.receiverAddressRequired,
  bank_name: m.bankNameRequired,
  account_name: m.accountNameRequired,
  account_number: m.accountNumberRequired,
  routing_number: m.routingNumberRequired,
};

/** Printable, no spaces: what any of the supported wallets' addresses look like. */
const walletAddressPattern = /^[A-Za-z0-9:._-]{8,128}$/;

/** The trimmed text of a detail field, and the message when it is missing or malformed. */
function checkDetail(field: string, raw: unknown): { text: string; message: string | null } {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text.length === 0) return { text, message: requiredDetailMessages[field]! };
  if (text.length > withdrawal_detail_length_max) return { text, message: m.fieldTooLong };
  // Staff read these to pay by hand: nothing invisible or direction-changing may hide in them.
  const problem = textProblem(text, "line");
  if (problem) return { text, message: problem };
  if (field === "wallet_address" && !walletAddressPattern.test(text)) {
    return { text, message: m.walletAddressInvalid };
  }
  return { text, message: null };
}

/**
 * POST /withdrawals. The details are checked against the kind of `payment_method_id` (even
 * while the amount is invalid, so a form shows every problem at once); only the kind's
 * fields are kept (trimmed), with `amount`, which must equal the amount when it is also
 * sent inside the details, as the spec's form does.
 */
export const createWithdrawalSchema = z
  .object({
    payment_method_id: z
      .string({ error: m.invalidWithdrawalMethod })
      .refine(isPaymentMethodId, { message: m.invalidWithdrawalMethod }),
    amount: fundingAmountSchema,
    expected_fee: expectedFeeSchema.optional(),
    withdrawal_details: z.record(z.string(), z.unknown(), { error: m.withdrawalDetailsRequired }),
  })
  .superRefine(
    (value, context) => {
      const kind = paymentMethodKindById[value.payment_method_id as PaymentMethodId];
      const sentAmount = value.withdrawal_details.amount;
      if (sentAmount !== undefined && sentAmount !== null && sentAmount !== "") {
        const sent = typeof sentAmount === "string" ? Number(sentAmount) : sentAmount;
        const expected = typeof value.amount === "number" ? centsFromDollars(value.amount) : null;
        if (
          typeof sent !== "number" ||
          (expected !== null && centsFromDollars(sent) !== expected)
        ) {
          context.addIssue({
            code: "custom",
            path: ["withdrawal_details", "amount"],
            message: m.detailsAmountMismatch,
          });
        }
      }
      for (const field of withdrawalDetailFields[kind]) {
        const { message } = checkDetail(field, value.withdrawal_details[field]);
        if (message) {
          context.addIssue({ code: "custom", path: ["withdrawal_details", field], message });
        }
      }
    },
    {
      when(payload) {
        const value = payload.value as {
          payment_method_id?: unknown;
          withdrawal_details?: unknown;
        };
        return (
          isPaymentMethodId(value?.payment_method_id) &&
          typeof value.withdrawal_details === "object" &&
          value.withdrawal_details !== null &&
          !Array.isArray(value.withdrawal_details)
        );
      },
    },
  )
  .transform((value) => {
    const kind = paymentMethodKindById[value.payment_method_id as PaymentMethodId];
    const details: Record<string, string | number> = { amount: value.amount };
    for (const field of withdrawalDetailFields[kind]) {
      details[field] = checkDetail(field, value.withdrawal_details[field]).text;
    }
    return {
      payment_method_id: value.payment_method_id as PaymentMethodId,
      amount: value.amount,
      ...(value.expected_fee === undefined ? {} : { expected_fee: value.expected_fee }),
      withdrawal_details: details,
    };
  });
export type CreateWithdrawalInput = z.input<typeof createWithdrawalSchema>;
export type CreateWithdrawalRequest = z.output<typeof createWithdrawalSchema>;

/**
 * The text fields of POST /upload-verification (multipart, so they arrive as strings).
 * accept_terms is sent as 1 or 0 (SPEC §3); the ID type is optional (SPEC §5: "ID type
 * selection is not enforced") but must be one of the three when sent.
 */
export const verificationFieldsSchema = z.object({
  id_type: z
    .preprocess(
      (value) => (value === "" || value === null ? undefined : value),
      z.enum(idTypes, { error: m.idTypeInvalid }).optional(),
    )
    .transform((value) => value ?? null),
  accept_terms: z
    .unknown()
    .refine((value) => value === "1" || value === 1 || value === true || value === "true", {
      message: m.acceptTermsFirst,
    }),
});
export type VerificationFields = z.output<typeof verificationFieldsSchema>;

/** Reject with a reason (deposits, withdrawals, identity documents). */
export const rejectSchema = z.object({
  reason: z
    .string({ error: "A reason is required" })
    .trim()
    .min(1, { message: "A reason is required" })
    .max(review_text_length_max, { message: "The reason is too long" })
    // The trader reads it: it may span lines, but nothing invisible may hide in it.
    .superRefine(refuseUnsafeText("multiline")),
});
export type RejectRequest = z.output<typeof rejectSchema>;

/**
 * Approve a withdrawal: it has been paid out under this reference. Above the four-eyes
 * threshold the first approval carries no reference (nothing is paid yet); the second
 * reviewer pays and gives it.
 */
export const approveWithdrawalSchema = z.object({
  payout_reference: z
    .string({ error: "A payout reference is required" })
    .trim()
    .min(1, { message: "A payout reference is required" })
    .max(review_text_length_max, { message: "The payout reference is too long" })
    .superRefine(refuseUnsafeText("line"))
    .optional(),
});
export type ApproveWithdrawalRequest = z.output<typeof approveWithdrawalSchema>;

// ---------------------------------------------------------------------------------------
// Replies

const dollars = z.number();
const timestamp = z.string();

/**
 * GET /payment-methods: one method as a trader sees it, with its deposit and withdrawal fee
 * (fees.ts: the forms compute the fee shown with the server's own function).
 */
export const paymentMethodViewSchema = paymentMethodFeesSchema.extend({
  id: z.string(),
  name: z.string(),
  kind: z.enum(paymentMethodKinds),
  is_active: z.boolean(),
  is_recommended: z.boolean(),
  /** Active and configured: false shows "Currently unavailable" and cannot be chosen. */
  is_available: z.boolean(),
  wallet_address: z.string().nullable(),
  /** Bank: bank_name, account_name, account_number, swift_code; money transfer: free pairs and location. */
  additional_details: z.record(z.string(), z.string()),
});
export type PaymentMethodView = z.infer<typeof paymentMethodViewSchema>;

export const paymentMethodListDataSchema = z.array(paymentMethodViewSchema);

/**
 * The live price a crypto deposit's amount in the coin is worked out from (issue 13): a
 * real feed's newest tick, never a simulated one. Prices are quoted in USDT per coin.
 */
export const coinPriceSchema = z.object({
  /** Catalogue symbol, e.g. BTCUSDT. */
  symbol: z.string(),
  coin: z.string(),
  quote_currency: z.literal("USDT"),
  price: z.number(),
  at: timestamp,
  /** The feed it came from, e.g. "binance". */
  source: z.string(),
});
export type CoinPrice = z.infer<typeof coinPriceSchema>;

/** GET /payment-methods/{id}/wallet. */
export const walletDataSchema = z.object({
  payment_method_id: z.string(),
  name: z.string(),
  wallet_address: z.string(),
  instructions: z.array(z.string()),
  /** The coin's live price, or null when only a simulated (or no, or a stale) price exists. */
  coin_price: coinPriceSchema.nullable(),
});
export type WalletData = z.infer<typeof walletDataSchema>;

export const depositViewSchema = z.object({
  id: z.number().int(),
  amount: dollars,
  payment_method_id: z.string(),
  method: z.string(),
  status: z.enum(depositStatuses),
  /** The fee, fixed when the deposit was created (fees.ts: taken out of the amount). */
  fee: dollars,
  /** What is credited to the real balance on approval: amount − fee. */
  net_amount: dollars,
  /** The server-made reference the trader puts in the payment memo. */
  transaction_hash: z.string(),
  created_at: timestamp,
  /** While awaiting payment: when it expires unpaid (DEPOSIT_PAYMENT_WINDOW_HOURS). */
  payment_expires_at: timestamp,
  has_receipt: z.boolean(),
  receipt_uploaded_at: timestamp.nullable(),
  reviewed_at: timestamp.nullable(),
  rejection_reason: z.string().nullable(),
});
export type DepositView = z.infer<typeof depositViewSchema>;

/** POST /deposits → 201. */
export const createDepositDataSchema = z.object({
  deposit_id: z.number().int(),
  transaction_hash: z.string(),
  deposit: depositViewSchema,
});
export type CreateDepositData = z.infer<typeof createDepositDataSchema>;

export const depositDataSchema = z.object({ deposit: depositViewSchema });

/**
 * A withdrawal's timeline (issue 13): what happened, each with its time, and the step
 * expected next with the time it is expected by. `processed` is the one step that is not
 * yet known to be paid or rejected.
 */
export const withdrawalTimelineSteps = [
  "requested",
  "confirmed",
  "under_review",
  "processed",
  "paid",
  "rejected",
  "cancelled",
] as const;
export type WithdrawalTimelineStep = (typeof withdrawalTimelineSteps)[number];

export const withdrawalTimelineEntrySchema = z.object({
  step: z.enum(withdrawalTimelineSteps),
  /** When it happened; null for the step still expected. */
  at: timestamp.nullable(),
  /** For the step still expected: the time it is expected by. */
  expected_by: timestamp.nullable(),
  /** The reason of a rejection, the payout reference, who cancelled. */
  note: z.string().nullable(),
});
export type WithdrawalTimelineEntry = z.infer<typeof withdrawalTimelineEntrySchema>;

export const withdrawalTimelineLabels: Record<WithdrawalTimelineStep, string> = {
  requested: "Requested",
  confirmed: "Confirmed by e-mail",
  under_review: "Under review",
  processed: "Paid or rejected",
  paid: "Paid",
  rejected: "Rejected",
  cancelled: "Cancelled",
};

export const withdrawalViewSchema = z.object({
  id: z.number().int(),
  amount: dollars,
  payment_method_id: z.string(),
  method: z.string(),
  status: z.enum(withdrawalStatuses),
  /** The fee, fixed when the withdrawal was requested (fees.ts: taken out of the amount). */
  fee: dollars,
  /** What is paid out: amount − fee (the whole amount leaves the balance). */
  net_amount: dollars,
  transaction_hash: z.string(),
  withdrawal_details: z.record(z.string(), z.union([z.string(), z.number()])),
  created_at: timestamp,
  reviewed_at: timestamp.nullable(),
  rejection_reason: z.string().nullable(),
  payout_reference: z.string().nullable(),
  /** Null while it waits for the trader's e-mailed link (issue 12); staff see it only after. */
  email_confirmed_at: timestamp.nullable(),
  timeline: z.array(withdrawalTimelineEntrySchema),
});
export type WithdrawalView = z.infer<typeof withdrawalViewSchema>;

/** POST /withdrawals/confirm: the token from the e-mailed link. */
export const confirmWithdrawalSchema = z.object({
  token: z.string().min(1, { error: "The confirmation link has no token" }).max(200),
});
export type ConfirmWithdrawalRequest = z.output<typeof confirmWithdrawalSchema>;

/** POST /withdrawals → 201. */
export const createWithdrawalDataSchema = z.object({
  withdrawal_id: z.number().int(),
  transaction_hash: z.string(),
  withdrawal: withdrawalViewSchema,
  /** The real balance left available after the hold. */
  account_balance: dollars,
});
export type CreateWithdrawalData = z.infer<typeof createWithdrawalDataSchema>;

export const withdrawalDataSchema = z.object({ withdrawal: withdrawalViewSchema });

export const verificationViewSchema = z.object({
  id: z.number().int(),
  id_type: z.enum(idTypes).nullable(),
  status: z.enum(verificationStatuses),
  content_type: z.string(),
  size_bytes: z.number().int(),
  created_at: timestamp,
  reviewed_at: timestamp.nullable(),
  rejection_reason: z.string().nullable(),
});
export type VerificationView = z.infer<typeof verificationViewSchema>;

export const verificationDataSchema = z.object({ verification: verificationViewSchema });

/** GET /verifications: the trader's own documents, newest first, and the account's state. */
export const verificationListDataSchema = z.object({
  kyc_verified_at: timestamp.nullable(),
  data: z.array(verificationViewSchema),
});

/** GET /transaction-history row (SPEC §3 "Transaction row"). */
export const transactionRowSchema = z.object({
  /** The deposit's or withdrawal's id (unique together with `type`). */
  id: z.number().int(),
  timestamp,
  type: z.enum(["deposit", "withdrawal"]),
  /** The payment method's name. */
  method: z.string(),
  payment_method_id: z.string(),
  amount: dollars,
  /** The fee fixed when the request was made; 0 when the method has none. */
  fee: dollars,
  /** amount − fee: credited for a deposit, paid out for a withdrawal. */
  net_amount: dollars,
  status: z.union([z.enum(depositStatuses), z.enum(withdrawalStatuses)]),
  /** The deposit's or withdrawal's transaction_hash. */
  transactionId: z.string(),
  /** Rejection reason or payout reference, when there is one. */
  note: z.string().nullable(),
});
export type TransactionRow = z.infer<typeof transactionRowSchema>;

export const transactionHistoryDataSchema = z.object({
  data: z.array(transactionRowSchema),
  pagination: z.object({
    last_page: z.number().int(),
    current_page: z.number().int(),
    total: z.number().int(),
  }),
});
export type TransactionHistoryData = z.infer<typeof transactionHistoryDataSchema>;

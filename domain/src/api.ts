import { z } from "zod";
import { errorCodes } from "./error-codes.ts";
import { roles } from "./roles.ts";

/**
 * Reply shapes of /api/v1, as zod schemas: the server declares them on its routes (which
 * also strips anything not listed, such as hashes) and the OpenAPI document is made from
 * them; the web client reads the inferred types.
 */
export const apiFailureSchema = z.object({
  status: z.literal("error"),
  message: z.string(),
  code: z.enum(errorCodes).optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiFailure = z.infer<typeof apiFailureSchema>;

export const apiMessageSchema = z.object({
  status: z.literal("success"),
  message: z.string(),
});

export function apiSuccessSchema<Data extends z.ZodType>(data: Data) {
  return z.object({
    status: z.literal("success"),
    message: z.string().optional(),
    data,
  });
}

export interface ApiSuccess<T = undefined> {
  status: "success";
  message?: string;
  data?: T;
}

export const roleSchema = z.enum(roles);
export { isStaffRole, type Role, roleAtLeast, type StaffRole, staffRoles } from "./roles.ts";

/** Dollars on the wire: a number with at most 2 decimals (cents inside the server). */
const dollarsSchema = z.number();

/** `account` of GET /user (SPEC §3 "User"). */
export const userAccountViewSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  phone_number: z.string(),
  country: z.string(),
  account_balance: dollarsSchema,
  practice_balance: dollarsSchema,
  kyc_verified_at: z.string().nullable(),
  plan: z.string(),
});
export type UserAccountView = z.infer<typeof userAccountViewSchema>;

export const userViewSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  email_verified_at: z.string().nullable(),
  role: roleSchema,
  account: userAccountViewSchema,
});
export type UserView = z.infer<typeof userViewSchema>;

/** Signed in: the user and a bearer token (SPEC shape). */
export const signedInDataSchema = z.object({ user: userViewSchema, token: z.string() });
export type SignedInData = z.infer<typeof signedInDataSchema>;

/** The password was right; a second factor is due (POST /login/second-factor or /login/passkey). */
export const secondFactorStepSchema = z.object({
  next_step: z.literal("second_factor"),
  sign_in_token: z.string(),
  methods: z.array(z.enum(["totp", "recovery_code", "passkey"])),
});
export type SecondFactorStep = z.infer<typeof secondFactorStepSchema>;

/** A staff member without 2FA: set it up now (POST /login/enrol) or get no session. */
export const enrolTotpStepSchema = z.object({
  next_step: z.literal("enrol_totp"),
  sign_in_token: z.string(),
  otpauth_uri: z.string(),
  secret: z.string(),
});
export type EnrolTotpStep = z.infer<typeof enrolTotpStepSchema>;

/** POST /login answers one of these (issue 12's login contract). */
export const loginDataSchema = z.union([
  signedInDataSchema,
  secondFactorStepSchema,
  enrolTotpStepSchema,
]);
export type LoginData = z.infer<typeof loginDataSchema>;

/** POST /login/enrol: signed in, with the recovery codes shown this once. */
export const enrolledDataSchema = signedInDataSchema.extend({
  recovery_codes: z.array(z.string()),
});
export type EnrolledData = z.infer<typeof enrolledDataSchema>;

export const userDataSchema = z.object({ user: userViewSchema });

export const practiceBalanceDataSchema = z.object({ practice_balance: dollarsSchema });

/** A trade as the API shows it (SPEC §3 "Trade", with the audit fields of PRODUCT.md D1). */
export const tradeViewSchema = z.object({
  id: z.number().int(),
  asset: z.string(),
  type: z.enum(["call", "put"]),
  amount: dollarsSchema,
  duration: z.number().int(),
  is_practice: z.boolean(),
  /** Accepted: when its entry price and expiry were fixed. */
  start_time: z.string(),
  /** When its request reached the platform (null for trades placed before this was kept). */
  received_at: z.string().nullable(),
  /** The rulebook version it was placed under (/rules); null before the rulebook. */
  rule_version: z.number().int().nullable(),
  expires_at: z.string(),
  entry_price: z.number(),
  entry_at: z.string(),
  feed: z.string(),
  exit_price: z.number().nullable(),
  exit_at: z.string().nullable(),
  payout_percent: z.number().int(),
  /** Potential profit: amount × payout% (what a win adds to the stake). */
  profit: dollarsSchema,
  /** Null while open; +profit when won, −amount when lost, 0 on a tie. */
  profit_loss: dollarsSchema.nullable(),
  status: z.enum(["open", "won", "lost", "tie"]),
  settled_at: z.string().nullable(),
});
export type TradeView = z.infer<typeof tradeViewSchema>;

export const paginationSchema = z.object({
  last_page: z.number().int(),
  current_page: z.number().int(),
  total: z.number().int(),
});

export const tradeHistoryDataSchema = z.object({
  data: z.array(tradeViewSchema),
  pagination: paginationSchema,
});

export const priceTickSchema = z.object({
  price: z.number(),
  at: z.string(),
});

export const tradeAuditDataSchema = z.object({
  trade: tradeViewSchema,
  audit: z.object({
    entry_ticks: z.array(priceTickSchema),
    exit_ticks: z.array(priceTickSchema),
    settlement_lag_ms: z.number().int().nullable(),
    note: z.string().nullable(),
    /** Why the stake was refunded without an exit price: nothing recorded, or the feed was down. */
    refund_reason: z.enum(["no_price", "feed_down"]).nullable(),
  }),
});

/**
 * GET /trading-conditions: what every page must tell the trader about how trades are priced
 * (PRODUCT.md D2: a banner while real balances trade on simulated prices).
 */
export const tradingConditionsSchema = z.object({
  real_trading_on_simulated_prices: z.boolean(),
  /**
   * The practice balance Top-up restores (PRACTICE_BALANCE_DOLLARS): the web disables
   * Top-up, saying why, while the balance is at or above it.
   */
  practice_top_up_level: dollarsSchema,
});
export type TradingConditions = z.infer<typeof tradingConditionsSchema>;

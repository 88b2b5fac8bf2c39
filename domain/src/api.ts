import type { ErrorCode } from "./error-codes.ts";
import type { FieldErrors } from "./validation.ts";

/** Every reply of /api/v1 is one of these two envelopes. */
export interface ApiSuccess<T = undefined> {
  status: "success";
  message?: string;
  data?: T;
}

export interface ApiFailure {
  status: "error";
  message: string;
  code?: ErrorCode;
  errors?: FieldErrors;
}

export type Role = "trader" | "admin";

/** `account` of GET /user (SPEC §3 "User"); balances are dollars with 2 decimals. */
export interface UserAccountView {
  first_name: string;
  last_name: string;
  phone_number: string;
  country: string;
  account_balance: number;
  practice_balance: number;
  kyc_verified_at: string | null;
  plan: string;
}

export interface UserView {
  id: number;
  email: string;
  username: string;
  email_verified_at: string | null;
  role: Role;
  account: UserAccountView;
}

export interface LoginData {
  user: UserView;
  token: string;
}

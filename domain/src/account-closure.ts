import { z } from "zod";
import { formatUsdFromCents } from "./money.ts";
import { password_units_max } from "./validation.ts";

/**
 * Account closure (issue 14 item 7): the request the Settings page sends, the state it
 * shows, and the messages the server and the page share.
 */

export const accountClosureMessages = {
  passwordRequired: "Enter your password to close your account",
  passwordWrong: "The password is not correct",
  requested:
    "Your account will be closed once your open trades have settled and your pending deposits and withdrawals are finished. Trading and deposits have stopped",
  alreadyRequested: "Your account is already being closed",
  accountClosed: "This account is closed",
  closedConfirmationSubject: "Your account is closed",
} as const;

export function closureBalanceRemainingMessage(real_balance_cents: number): string {
  return `Withdraw your real balance of ${formatUsdFromCents(real_balance_cents)} first: a closed account cannot hold money. Your practice balance is simply forfeited`;
}

export const requestAccountClosureSchema = z.strictObject({
  password: z
    .string({ error: accountClosureMessages.passwordRequired })
    .min(1, accountClosureMessages.passwordRequired)
    .max(password_units_max, accountClosureMessages.passwordWrong),
});
export type RequestAccountClosure = z.infer<typeof requestAccountClosureSchema>;

/** What still holds a requested closure back; each is shown to the trader as it is. */
export const closureWaitSchema = z.enum([
  "open_trades",
  "pending_deposits",
  "pending_withdrawals",
  "real_balance",
]);
export type ClosureWait = z.infer<typeof closureWaitSchema>;

export const closureWaitText: Record<ClosureWait, string> = {
  open_trades: "Your open trades must settle",
  pending_deposits: "Your deposits under review must be decided",
  pending_withdrawals: "Your pending withdrawals must be paid or cancelled",
  real_balance: "Your real balance must be withdrawn (a win may have added to it)",
};

export const accountClosureSchema = z.object({
  status: z.enum(["open", "closing", "closed"]),
  requested_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  /** While closing: what it waits for (empty: the next pass of the worker closes it). */
  waiting_for: z.array(closureWaitSchema),
  /** How long the identity and records are kept after closing (RECORD_RETENTION_YEARS). */
  record_retention_years: z.number().int(),
});
export type AccountClosure = z.infer<typeof accountClosureSchema>;

export const accountClosureDataSchema = z.object({ closure: accountClosureSchema });

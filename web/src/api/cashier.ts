import {
  type DepositView,
  depositDataSchema,
  type WithdrawalView,
  withdrawalDataSchema,
} from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

/** GET /deposits/{id}: one of the trader's deposits, in its current state. */
export async function fetchDeposit(depositId: number, signal?: AbortSignal): Promise<DepositView> {
  const reply = await apiRequest<unknown>(`/deposits/${depositId}`, { signal });
  const parsed = depositDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The deposit reply does not match its schema");
  return parsed.data.deposit;
}

export const depositQueryKey = (depositId: number) => ["deposit", depositId] as const;

/** GET /withdrawals/{id}: one of the trader's withdrawals with its timeline. */
export async function fetchWithdrawal(
  withdrawalId: number,
  signal?: AbortSignal,
): Promise<WithdrawalView> {
  const reply = await apiRequest<unknown>(`/withdrawals/${withdrawalId}`, { signal });
  const parsed = withdrawalDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The withdrawal reply does not match its schema");
  return parsed.data.withdrawal;
}

export const withdrawalQueryKey = (withdrawalId: number) => ["withdrawal", withdrawalId] as const;

/** DELETE /withdrawals/{id}: cancels the trader's pending withdrawal (idempotent). */
export async function cancelWithdrawal(
  withdrawalId: number,
  idempotencyKey: string,
): Promise<WithdrawalView> {
  const reply = await apiRequest<unknown>(`/withdrawals/${withdrawalId}`, {
    method: "DELETE",
    headers: { "Idempotency-Key": idempotencyKey },
  });
  const parsed = withdrawalDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The withdrawal reply does not match its schema");
  return parsed.data.withdrawal;
}

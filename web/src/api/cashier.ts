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

/** Every deposit's query: staff decided on one, and which one the stream does not say. */
export const depositRootKey = ["deposit"] as const;
export const depositQueryKey = (depositId: number) => [...depositRootKey, depositId] as const;

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

export const withdrawalRootKey = ["withdrawal"] as const;
export const withdrawalQueryKey = (withdrawalId: number) =>
  [...withdrawalRootKey, withdrawalId] as const;

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

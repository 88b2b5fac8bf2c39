import { type CreateWithdrawalRequest, createWithdrawalDataSchema } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

export interface CreatedWithdrawal {
  withdrawalId: number;
  transactionHash: string;
  /** The real balance left available after the hold, when the reply says. */
  accountBalance: number | null;
  message: string | null;
}

/**
 * POST /withdrawals with an Idempotency-Key (PRODUCT.md D4, D9): the request is stored and
 * the amount held when this answers, and a retried Confirm stores it once.
 */
export async function createWithdrawal(
  request: CreateWithdrawalRequest,
  idempotencyKey: string,
): Promise<CreatedWithdrawal> {
  const reply = await apiRequest<unknown>("/withdrawals", {
    method: "POST",
    body: request,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  const parsed = createWithdrawalDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The withdrawal reply does not match its schema");
  return {
    withdrawalId: parsed.data.withdrawal_id,
    transactionHash: parsed.data.transaction_hash,
    accountBalance: parsed.data.account_balance,
    message: reply.message ?? null,
  };
}

import type { CreateDepositRequest } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

export interface CreatedDeposit {
  depositId: number;
  /** The server-made reference the trader puts in the payment memo. */
  transactionHash: string;
}

/**
 * POST /deposits with an Idempotency-Key (PRODUCT.md D9): a retried request opens one
 * deposit. Null when the reply carries no deposit_id (SPEC §8 "Invalid deposit response").
 */
export async function createDeposit(
  request: CreateDepositRequest,
  idempotencyKey: string,
): Promise<CreatedDeposit | null> {
  const reply = await apiRequest<{ deposit_id?: unknown; transaction_hash?: unknown }>(
    "/deposits",
    { method: "POST", body: request, headers: { "Idempotency-Key": idempotencyKey } },
  );
  const depositId = reply.data?.deposit_id;
  const transactionHash = reply.data?.transaction_hash;
  if (typeof depositId !== "number" || !Number.isSafeInteger(depositId)) return null;
  return {
    depositId,
    transactionHash: typeof transactionHash === "string" ? transactionHash : "",
  };
}

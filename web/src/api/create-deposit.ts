import type { CreateDepositRequest } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

export interface CreatedDeposit {
  depositId: number;
  /** The server-made reference the trader puts in the payment memo. */
  transactionHash: string;
  /** The fee the server fixed on the deposit and what it credits (dollars), when it says. */
  fee?: number | null;
  netAmount?: number | null;
}

/**
 * POST /deposits with an Idempotency-Key (PRODUCT.md D9): a retried request opens one
 * deposit. Null when the reply carries no deposit_id (SPEC §8 "Invalid deposit response").
 */
export async function createDeposit(
  request: CreateDepositRequest,
  idempotencyKey: string,
): Promise<CreatedDeposit | null> {
  const reply = await apiRequest<{
    deposit_id?: unknown;
    transaction_hash?: unknown;
    deposit?: { fee?: unknown; net_amount?: unknown };
  }>("/deposits", {
    method: "POST",
    body: request,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  const depositId = reply.data?.deposit_id;
  const transactionHash = reply.data?.transaction_hash;
  if (typeof depositId !== "number" || !Number.isSafeInteger(depositId)) return null;
  const fee = reply.data?.deposit?.fee;
  const netAmount = reply.data?.deposit?.net_amount;
  return {
    depositId,
    transactionHash: typeof transactionHash === "string" ? transactionHash : "",
    fee: typeof fee === "number" ? fee : null,
    netAmount: typeof netAmount === "number" ? netAmount : null,
  };
}

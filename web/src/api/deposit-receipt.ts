import { apiRequest } from "./client.ts";

/**
 * POST /deposits/{id}/receipt as multipart/form-data: the receipt file and the deposit's
 * transaction hash. The deposit then waits for staff review.
 */
export async function uploadReceipt(
  depositId: number,
  receipt: File,
  transactionHash: string,
): Promise<string | null> {
  const form = new FormData();
  form.append("transaction_hash", transactionHash);
  form.append("receipt", receipt, receipt.name);
  const reply = await apiRequest(`/deposits/${depositId}/receipt`, { method: "POST", body: form });
  return reply.message ?? null;
}

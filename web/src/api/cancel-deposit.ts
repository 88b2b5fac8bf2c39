import { apiRequest } from "./client.ts";

/** DELETE /deposits/{id}: the trader's own deposit, while it awaits payment. */
export async function cancelDeposit(depositId: number, idempotencyKey: string): Promise<void> {
  await apiRequest(`/deposits/${depositId}`, {
    method: "DELETE",
    headers: { "Idempotency-Key": idempotencyKey },
  });
}

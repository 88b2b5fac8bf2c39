import { useMutation } from "@tanstack/react-query";
import type { ConfirmWithdrawalRequest, WithdrawalView } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";

/** POST /withdrawals/confirm with the token of the e-mailed link (issue 12). */
export async function confirmWithdrawal(body: ConfirmWithdrawalRequest) {
  return apiRequest<{ withdrawal: WithdrawalView }>("/withdrawals/confirm", {
    method: "POST",
    body,
  });
}

export function useConfirmWithdrawalMutation() {
  return useMutation({ mutationFn: confirmWithdrawal });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "./client.ts";
import { userQueryKey } from "./user.ts";

/** POST /practice-balance/top-up: resets the practice balance (PRODUCT.md D11). */
export async function topUpPracticeBalance() {
  return apiRequest<{ practice_balance: number }>("/practice-balance/top-up", { method: "POST" });
}

export function usePracticeTopUpMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: topUpPracticeBalance,
    // SPEC §4: practice top-up refreshes user data.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  });
}

import { useMutation } from "@tanstack/react-query";
import type { ResetPasswordRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** POST /reset-password with the link's e-mail and token and the new password. */
export async function resetPassword(body: ResetPasswordRequest) {
  return apiRequest("/reset-password", { method: "POST", body });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: resetPassword });
}

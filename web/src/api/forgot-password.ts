import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** POST /forgot-password: the reply is neutral whether or not the address has an account. */
export async function forgotPassword(body: EmailOnlyRequest) {
  return apiRequest("/forgot-password", { method: "POST", body });
}

export function useForgotPasswordMutation() {
  return useMutation({ mutationFn: forgotPassword });
}

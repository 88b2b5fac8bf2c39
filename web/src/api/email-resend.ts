import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** POST /email/resend with the address stored at registration. */
export async function resendVerificationEmail(body: EmailOnlyRequest) {
  return apiRequest("/email/resend", { method: "POST", body });
}

export function useResendVerificationEmailMutation() {
  return useMutation({ mutationFn: resendVerificationEmail });
}

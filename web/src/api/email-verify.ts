import { useMutation } from "@tanstack/react-query";
import type { VerifyEmailRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** POST /email/verify with the e-mail and token of the link the server sent. */
export async function verifyEmail(body: VerifyEmailRequest) {
  return apiRequest("/email/verify", { method: "POST", body });
}

export function useVerifyEmailMutation() {
  return useMutation({ mutationFn: verifyEmail });
}

import { useMutation } from "@tanstack/react-query";
import type { UpdatePasswordRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** PUT /update-password with the current password and the new one twice. */
export async function updatePassword(body: UpdatePasswordRequest) {
  return apiRequest("/update-password", { method: "PUT", body });
}

export function useUpdatePasswordMutation() {
  return useMutation({ mutationFn: updatePassword });
}

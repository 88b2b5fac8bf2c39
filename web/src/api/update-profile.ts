import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateProfileRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";
import { userQueryKey } from "./user.ts";

/** PUT /update-profile: names and phone; country is sent as it is (it cannot change). */
export async function updateProfile(body: UpdateProfileRequest) {
  return apiRequest("/update-profile", { method: "PUT", body });
}

export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  });
}

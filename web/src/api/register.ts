import { useMutation } from "@tanstack/react-query";
import type { UserView } from "@tp/domain/api";
import type { RegisterRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** POST /register → 201 with the new user; no token (the trader signs in after verifying). */
export async function register(body: RegisterRequest) {
  return apiRequest<{ user: UserView }>("/register", { method: "POST", body });
}

export function useRegisterMutation() {
  return useMutation({ mutationFn: register });
}

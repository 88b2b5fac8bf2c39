import { useMutation } from "@tanstack/react-query";
import type { LoginData } from "@tp/domain/api";
import { uiMessages } from "@tp/domain/messages";
import type { LoginRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

export interface LoginResult extends LoginData {
  message: string | null;
}

/** A login reply without user or token: told apart by its type, never by its text. */
export class LoginResponseInvalid extends Error {
  constructor() {
    super(uiMessages.loginInvalidResponse);
    this.name = "LoginResponseInvalid";
  }
}

/**
 * POST /login. SPEC §5: an "error" reply throws its message (ApiError); a reply without
 * user or token fails with "Invalid response format from login".
 */
export async function login(body: LoginRequest): Promise<LoginResult> {
  const reply = await apiRequest<Partial<LoginData>>("/login", { method: "POST", body });
  const user = reply.data?.user;
  const token = reply.data?.token;
  if (!user || typeof token !== "string" || token.length === 0) {
    throw new LoginResponseInvalid();
  }
  return { user, token, message: reply.message ?? null };
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}

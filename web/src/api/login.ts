import { useMutation } from "@tanstack/react-query";
import type { EnrolledData, LoginData, SignedInData, UserView } from "@tp/domain/api";
import { uiMessages } from "@tp/domain/messages";
import type { SecondFactorMethod, SignInSecondFactorRequest } from "@tp/domain/two-factor";
import type { LoginRequest } from "@tp/domain/validation";
import { apiRequest } from "./client.ts";

/** What POST /login answered (issue 12's login contract): signed in, or the next step. */
export type LoginResult =
  | { kind: "signed_in"; user: UserView; token: string; message: string | null }
  | { kind: "second_factor"; signInToken: string; methods: SecondFactorMethod[] }
  | { kind: "enrol_totp"; signInToken: string; otpauthUri: string; secret: string };

/** A login reply without user or token: told apart by its type, never by its text. */
export class LoginResponseInvalid extends Error {
  constructor() {
    super(uiMessages.loginInvalidResponse);
    this.name = "LoginResponseInvalid";
  }
}

type LoginReply = Partial<SignedInData> & {
  next_step?: string;
  sign_in_token?: string;
  methods?: SecondFactorMethod[];
  otpauth_uri?: string;
  secret?: string;
};

function signedIn(data: LoginReply | undefined, message: string | null) {
  const user = data?.user;
  const token = data?.token;
  if (!user || typeof token !== "string" || token.length === 0) {
    throw new LoginResponseInvalid();
  }
  return { kind: "signed_in" as const, user, token, message };
}

/**
 * POST /login. SPEC §5: an "error" reply throws its message (ApiError); a reply that is
 * neither a sign-in nor a known next step fails with "Invalid response format from login".
 */
export async function login(body: LoginRequest): Promise<LoginResult> {
  const reply = await apiRequest<LoginData>("/login", { method: "POST", body });
  const data = reply.data as LoginReply | undefined;
  if (data?.next_step === "second_factor" && data.sign_in_token) {
    return {
      kind: "second_factor",
      signInToken: data.sign_in_token,
      methods: data.methods ?? ["totp", "recovery_code"],
    };
  }
  if (data?.next_step === "enrol_totp" && data.sign_in_token && data.otpauth_uri && data.secret) {
    return {
      kind: "enrol_totp",
      signInToken: data.sign_in_token,
      otpauthUri: data.otpauth_uri,
      secret: data.secret,
    };
  }
  return signedIn(data, reply.message ?? null);
}

/** POST /login/second-factor: a TOTP code or a recovery code finishes the sign-in. */
export async function loginSecondFactor(body: SignInSecondFactorRequest) {
  const reply = await apiRequest<SignedInData>("/login/second-factor", { method: "POST", body });
  return signedIn(reply.data, reply.message ?? null);
}

/** POST /login/enrol: a staff member's first code; signed in, with the recovery codes. */
export async function loginEnrol(body: SignInSecondFactorRequest) {
  const reply = await apiRequest<EnrolledData>("/login/enrol", { method: "POST", body });
  const result = signedIn(reply.data, reply.message ?? null);
  return { ...result, recoveryCodes: reply.data?.recovery_codes ?? [] };
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}

import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { type SignedInData, signedInDataSchema } from "@tp/domain/api";
import {
  type PasskeyView,
  passkeyAuthenticationOptionsDataSchema,
  passkeyListDataSchema,
  passkeyRegistrationOptionsDataSchema,
} from "@tp/domain/passkey-api";
import type { z } from "zod";
import { ApiError, apiRequest } from "./client.ts";

/**
 * Passkeys (WebAuthn): each ceremony is the server's options, the browser's authenticator
 * (@simplewebauthn/browser), and the server's verification of its answer.
 */

/** The reply's data, checked against its schema (a reply without it is not ours). */
function dataOf<Schema extends z.ZodType>(schema: Schema, data: unknown, what: string) {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new Error(`The ${what} reply does not match its schema`);
  return parsed.data as z.infer<Schema>;
}

export const passkeysQueryKey = ["passkeys"] as const;

/** GET /passkeys: this account's passkeys. */
export async function fetchPasskeys(signal?: AbortSignal): Promise<PasskeyView[]> {
  const reply = await apiRequest<unknown>("/passkeys", { signal });
  const parsed = passkeyListDataSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The passkeys reply does not match its schema");
  return parsed.data.passkeys;
}

export function passkeysQueryOptions() {
  return queryOptions({
    queryKey: passkeysQueryKey,
    queryFn: ({ signal }) => fetchPasskeys(signal),
  });
}

/** Creates a passkey on this device and stores it (needs a fresh step-up). */
export async function addPasskey(name: string): Promise<{ message: string | null }> {
  const options = await apiRequest<unknown>("/passkeys/registration/options", {
    method: "POST",
    body: {},
  });
  const data = dataOf(passkeyRegistrationOptionsDataSchema, options.data, "passkey options");
  const response = await startRegistration({
    optionsJSON: data.options as PublicKeyCredentialCreationOptionsJSON,
  });
  const reply = await apiRequest("/passkeys/registration", {
    method: "POST",
    body: { challenge_token: data.challenge_token, name, response },
  });
  return { message: reply.message ?? null };
}

export async function removePasskey(id: number): Promise<{ message: string | null }> {
  const reply = await apiRequest(`/passkeys/${id}`, { method: "DELETE" });
  return { message: reply.message ?? null };
}

/** Confirms it is you with one of this account's passkeys (step-up). */
export async function stepUpWithPasskey(): Promise<void> {
  const reply = await apiRequest<unknown>("/step-up/passkey/options", {
    method: "POST",
    body: {},
  });
  const options = dataOf(passkeyAuthenticationOptionsDataSchema, reply.data, "passkey options");
  const response = await startAuthentication({
    optionsJSON: options.options as PublicKeyCredentialRequestOptionsJSON,
  });
  await apiRequest("/step-up/passkey", {
    method: "POST",
    body: { challenge_token: options.challenge_token, response },
  });
}

/**
 * Runs a change of the account's keys; when the server asks for a fresh second factor and
 * the account has a passkey, confirms with it and tries once more.
 */
export async function withPasskeyStepUp<T>(hasPasskey: boolean, run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (!(hasPasskey && error instanceof ApiError && error.code === "STEP_UP_REQUIRED")) {
      throw error;
    }
    await stepUpWithPasskey();
    return run();
  }
}

export function useAddPasskeyMutation(hasPasskey: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => withPasskeyStepUp(hasPasskey, () => addPasskey(name)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}

export function useRemovePasskeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => withPasskeyStepUp(true, () => removePasskey(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}

/**
 * Signs in with a passkey: any passkey of this site, or (with the token of a sign-in that
 * passed its password) that account's, as its second factor.
 */
export async function signInWithPasskey(
  signInToken?: string,
): Promise<SignedInData & { message: string | null }> {
  const optionsReply = await apiRequest<unknown>("/login/passkey/options", {
    method: "POST",
    body: signInToken === undefined ? {} : { sign_in_token: signInToken },
  });
  const options = dataOf(
    passkeyAuthenticationOptionsDataSchema,
    optionsReply.data,
    "passkey options",
  );
  const response = await startAuthentication({
    optionsJSON: options.options as PublicKeyCredentialRequestOptionsJSON,
  });
  const reply = await apiRequest<unknown>("/login/passkey", {
    method: "POST",
    body: {
      challenge_token: options.challenge_token,
      response,
      ...(signInToken === undefined ? {} : { sign_in_token: signInToken }),
    },
  });
  const data = dataOf(signedInDataSchema, reply.data, "passkey sign-in");
  return { user: data.user, token: data.token, message: reply.message ?? null };
}

export function usePasskeySignInMutation() {
  return useMutation({ mutationFn: (signInToken?: string) => signInWithPasskey(signInToken) });
}

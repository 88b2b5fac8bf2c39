import { z } from "zod";

/**
 * Passkeys (WebAuthn, issue 12): the request and reply shapes of /api/v1/passkeys,
 * /login/passkey and /step-up/passkey. The ceremony's own JSON (options out, the
 * authenticator's response in) follows @simplewebauthn's JSON types, bounded here so no
 * field can carry an unbounded payload into parsing or storage.
 */

/** Longest name a trader may give a passkey ("Laptop", "YubiKey 5C", "Phone"). */
export const passkey_name_length_max = 60;
/** A credential id is at most 1023 bytes (WebAuthn §5.8.3): 1364 base64url characters. */
const credential_id_length_max = 1364;
/** clientDataJSON, authenticatorData, signature: a few hundred bytes in practice. */
const small_part_length_max = 8_192;
/** An attestation object may carry a certificate chain. */
const attestation_length_max = 65_536;
/** Opaque ceremony tokens are 43 characters; anything longer is not ours. */
const challenge_token_length_max = 128;

const base64url = (length_max: number) =>
  z
    .string()
    .min(1)
    .max(length_max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

export const challengeTokenSchema = z.string().min(1).max(challenge_token_length_max);

/** Characters a name never needs: controls, and bidi marks that reorder what staff see. */
function hasForbiddenCharacter(value: string): boolean {
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
    if (code === 0x200e || code === 0x200f) return true;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  }
  return false;
}

export const passkeyNameSchema = z
  .string({ error: "Give the passkey a name" })
  .trim()
  .min(1, "Give the passkey a name")
  .max(passkey_name_length_max, `A passkey name has at most ${passkey_name_length_max} characters`)
  .refine((value) => !hasForbiddenCharacter(value), "The name contains characters not allowed")
  // A lone UTF-16 surrogate (\p{Cs} under the u flag matches only unpaired ones).
  .refine((value) => !/\p{Cs}/u.test(value), "The name contains characters not allowed");

const clientExtensionResultsSchema = z.record(z.string().max(64), z.unknown());

/** What `startRegistration` of @simplewebauthn/browser gives (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object({
  id: base64url(credential_id_length_max),
  rawId: base64url(credential_id_length_max),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(small_part_length_max),
    attestationObject: base64url(attestation_length_max),
    authenticatorData: base64url(small_part_length_max).optional(),
    transports: z.array(z.string().max(32)).max(16).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(small_part_length_max).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: clientExtensionResultsSchema,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** What `startAuthentication` of @simplewebauthn/browser gives (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object({
  id: base64url(credential_id_length_max),
  rawId: base64url(credential_id_length_max),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(small_part_length_max),
    authenticatorData: base64url(small_part_length_max),
    signature: base64url(small_part_length_max),
    userHandle: base64url(small_part_length_max).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: clientExtensionResultsSchema,
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

export const passkeyRegistrationRequestSchema = z.object({
  challenge_token: challengeTokenSchema,
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
export type PasskeyRegistrationRequest = z.infer<typeof passkeyRegistrationRequestSchema>;

export const passkeyRenameRequestSchema = z.object({ name: passkeyNameSchema });

/** POST /login/passkey/options: no token for a passwordless sign-in, or the pending sign-in. */
// A request without a body reaches validation as null (Fastify's empty body).
export const passkeySignInOptionsRequestSchema = z
  .object({ sign_in_token: challengeTokenSchema.optional() })
  .nullish();

export const passkeySignInRequestSchema = z.object({
  challenge_token: challengeTokenSchema,
  /** The pending sign-in of POST /login when the passkey is its second factor. */
  sign_in_token: challengeTokenSchema.optional(),
  response: authenticationResponseSchema,
});
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequestSchema>;

export const passkeyStepUpRequestSchema = z.object({
  challenge_token: challengeTokenSchema,
  response: authenticationResponseSchema,
});
export type PasskeyStepUpRequest = z.infer<typeof passkeyStepUpRequestSchema>;

const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.literal("public-key"),
  transports: z.array(z.string()).optional(),
});

/** PublicKeyCredentialCreationOptionsJSON, as `startRegistration({ optionsJSON })` takes it. */
export const registrationOptionsSchema = z.object({
  challenge: z.string(),
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      residentKey: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  attestation: z.string().optional(),
  hints: z.array(z.string()).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});
export type RegistrationOptions = z.infer<typeof registrationOptionsSchema>;

/** PublicKeyCredentialRequestOptionsJSON, as `startAuthentication({ optionsJSON })` takes it. */
export const authenticationOptionsSchema = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  userVerification: z.string().optional(),
  hints: z.array(z.string()).optional(),
});
export type AuthenticationOptions = z.infer<typeof authenticationOptionsSchema>;

export const passkeyRegistrationOptionsDataSchema = z.object({
  challenge_token: z.string(),
  options: registrationOptionsSchema,
});
export type PasskeyRegistrationOptionsData = z.infer<typeof passkeyRegistrationOptionsDataSchema>;

export const passkeyAuthenticationOptionsDataSchema = z.object({
  challenge_token: z.string(),
  options: authenticationOptionsSchema,
});
export type PasskeyAuthenticationOptionsData = z.infer<
  typeof passkeyAuthenticationOptionsDataSchema
>;

export const passkeyViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyViewSchema>;

export const passkeyListDataSchema = z.object({ passkeys: z.array(passkeyViewSchema) });
export const passkeyDataSchema = z.object({ passkey: passkeyViewSchema });

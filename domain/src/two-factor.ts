import { z } from "zod";
import { twoFactorMessages } from "./two-factor-messages.ts";

/**
 * Two-factor authentication and step-up (issue 12): request and reply shapes shared by the
 * server's routes, the OpenAPI document and the web app, and their texts.
 */

export { twoFactorMessages } from "./two-factor-messages.ts";

/** A TOTP code (6 digits) or a recovery code; spaces and dashes are the reader's, not ours. */
export const second_factor_code_length_max = 64;
/** Sign-in tokens are 43 base64url characters; anything much longer is not ours. */
export const sign_in_token_length_max = 128;
export const recovery_codes_count = 10;

const codeSchema = z
  .string({ error: twoFactorMessages.codeRequired })
  .trim()
  .min(1, { error: twoFactorMessages.codeRequired })
  .max(second_factor_code_length_max, { error: twoFactorMessages.codeInvalid });

const signInTokenSchema = z
  .string({ error: twoFactorMessages.signInTokenRequired })
  .min(1, { error: twoFactorMessages.signInTokenRequired })
  .max(sign_in_token_length_max, { error: twoFactorMessages.signInExpired });

export const secondFactorCodeSchema = z.object({ code: codeSchema });
export type SecondFactorCodeRequest = z.output<typeof secondFactorCodeSchema>;

export const signInSecondFactorSchema = z.object({
  sign_in_token: signInTokenSchema,
  code: codeSchema,
});
export type SignInSecondFactorRequest = z.output<typeof signInSecondFactorSchema>;

/** POST /step-up: a code when 2FA is on, the password only when it is off. */
export const stepUpSchema = z
  .object({
    code: codeSchema.optional(),
    password: z.string().min(1).max(128).optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.password === undefined), {
    error: "Give either a code or the password",
    path: ["code"],
  });
export type StepUpRequest = z.output<typeof stepUpSchema>;

export const secondFactorMethodSchema = z.enum(["totp", "recovery_code", "passkey"]);
export type SecondFactorMethod = z.infer<typeof secondFactorMethodSchema>;

export const twoFactorStatusSchema = z.object({
  /** A confirmed TOTP: sign-in and step-up ask for a code. */
  enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

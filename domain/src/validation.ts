import { z } from "zod";
import { isCountry } from "./countries.ts";

/**
 * Validation shared by the server and the web forms, with the exact messages of SPEC §5.
 * The server answers 422 with these messages per field; the forms show the same ones.
 */
export const validationMessages = {
  nameInvalid: "Only letters and spaces allowed, between 2-30 characters",
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  emailInvalid: "Please enter a valid email address",
  emailRequired: "Email is required",
  passwordInvalid: "Password must be at least 8 characters with uppercase, lowercase and number",
  passwordRequired: "Password is required",
  passwordsMismatch: "Passwords do not match",
  phoneInvalid: "Please enter a valid phone number",
  phoneRequired: "Phone number is required",
  countryRequired: "Please select a country",
  currentPasswordRequired: "Current password is required",
  newPasswordRequired: "New password is required",
  acceptTermsRequired: "You must be 18 or older and accept the terms",
  tokenRequired: "Token is required",
  referralCodeInvalid: "Invalid referral code",
  countryUnchangeable: "Country cannot be changed",
} as const;

const m = validationMessages;

/** Letters (any script) and spaces, 2-30 characters (SPEC §5, §9). */
export const namePattern = /^[\p{L} ]{2,30}$/u;
/** Something@something.tld, no spaces; the real check is the verification e-mail. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** At least 8 letters/digits with a lowercase, an uppercase and a digit (SPEC §5). */
export const passwordPattern = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,}$/;
/** Optional plus, then 10 or more digits, spaces or hyphens (SPEC §5). */
export const phonePattern = /^\+?[\d\s-]{10,}$/;

/** Limits on free text, so no field can carry an unbounded payload into hashing or storage. */
export const email_length_max = 254;
export const password_length_max = 128;
export const phone_length_max = 30;
export const token_length_max = 200;

/**
 * A required text field: a missing, null or empty value gets `required`, anything else that
 * is not a string matching `pattern` within `lengthMax` gets `invalid`. One message per field,
 * the first that applies, as the forms show them.
 */
function requiredText(required: string, invalid: string, pattern: RegExp, lengthMax: number) {
  return textField(required, invalid).superRefine((value, context) => {
    if (value.length === 0) {
      context.addIssue({ code: "custom", message: required });
    } else if (value.length > lengthMax || !pattern.test(value)) {
      context.addIssue({ code: "custom", message: invalid });
    }
  });
}

function textField(required: string, invalid: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : invalid),
  });
}

/** A required field with no format of its own (current password, tokens). */
function requiredString(required: string, lengthMax: number, tooLong = required) {
  return z.string({ error: required }).superRefine((value, context) => {
    if (value.length === 0) context.addIssue({ code: "custom", message: required });
    else if (value.length > lengthMax) context.addIssue({ code: "custom", message: tooLong });
  });
}

export const firstNameSchema = requiredText(m.firstNameRequired, m.nameInvalid, namePattern, 30);
export const lastNameSchema = requiredText(m.lastNameRequired, m.nameInvalid, namePattern, 30);
/**
 * E-mail addresses are compared case-insensitively: trimmed, then stored and looked up in
 * lower case.
 */
export const emailSchema = textField(m.emailRequired, m.emailInvalid)
  .trim()
  .toLowerCase()
  .superRefine((value, context) => {
    if (value.length === 0) context.addIssue({ code: "custom", message: m.emailRequired });
    else if (value.length > email_length_max || !emailPattern.test(value)) {
      context.addIssue({ code: "custom", message: m.emailInvalid });
    }
  });
export const passwordSchema = requiredText(
  m.passwordRequired,
  m.passwordInvalid,
  passwordPattern,
  password_length_max,
);
export const newPasswordSchema = requiredText(
  m.newPasswordRequired,
  m.passwordInvalid,
  passwordPattern,
  password_length_max,
);
export const phoneSchema = requiredText(
  m.phoneRequired,
  m.phoneInvalid,
  phonePattern,
  phone_length_max,
);
export const countrySchema = z
  .string({ error: m.countryRequired })
  .refine((value) => isCountry(value), { message: m.countryRequired });

/**
 * Confirmation must equal the password; the message lands on the confirmation field. It is
 * checked even while other fields are invalid (zod would skip an object-level check then),
 * so a form shows every problem at once.
 */
const confirmationCheck = {
  message: m.passwordsMismatch,
  path: ["password_confirmation"],
  when(payload: { value: unknown }) {
    const value = payload.value as { password?: unknown; password_confirmation?: unknown };
    return typeof value.password === "string" && typeof value.password_confirmation === "string";
  },
};

function passwordsMatch(value: { password: string; password_confirmation: string }): boolean {
  return value.password === value.password_confirmation;
}

const passwordConfirmationSchema = z.string({ error: m.passwordsMismatch });

export const registerSchema = z
  .object({
    first_name: firstNameSchema,
    last_name: lastNameSchema,
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: passwordConfirmationSchema,
    country: countrySchema,
    phone_number: phoneSchema,
    referral_code: z
      .string({ error: m.referralCodeInvalid })
      .max(32, { message: m.referralCodeInvalid })
      .nullish()
      .transform((value) => (value ? value.trim() : null)),
    accept_terms: z.literal(true, { error: m.acceptTermsRequired }),
  })
  .refine(passwordsMatch, confirmationCheck);
export type RegisterInput = z.input<typeof registerSchema>;
export type RegisterRequest = z.output<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: requiredString(m.passwordRequired, password_length_max, m.passwordInvalid),
});
export type LoginRequest = z.output<typeof loginSchema>;

export const emailOnlySchema = z.object({ email: emailSchema });
export type EmailOnlyRequest = z.output<typeof emailOnlySchema>;

export const verifyEmailSchema = z.object({
  email: emailSchema,
  token: requiredString(m.tokenRequired, token_length_max),
});
export type VerifyEmailRequest = z.output<typeof verifyEmailSchema>;

export const resetPasswordSchema = z
  .object({
    email: emailSchema,
    token: requiredString(m.tokenRequired, token_length_max),
    password: passwordSchema,
    password_confirmation: passwordConfirmationSchema,
  })
  .refine(passwordsMatch, confirmationCheck);
export type ResetPasswordRequest = z.output<typeof resetPasswordSchema>;

/** Personal data: only names and phone are editable; country is sent by the spec's form. */
export const updateProfileSchema = z.object({
  first_name: firstNameSchema,
  last_name: lastNameSchema,
  phone_number: phoneSchema,
  country: z.string({ error: m.countryRequired }).optional(),
});
export type UpdateProfileRequest = z.output<typeof updateProfileSchema>;

export const updatePasswordSchema = z
  .object({
    current_password: requiredString(m.currentPasswordRequired, password_length_max),
    password: newPasswordSchema,
    password_confirmation: passwordConfirmationSchema,
  })
  .refine(passwordsMatch, confirmationCheck);
export type UpdatePasswordRequest = z.output<typeof updatePasswordSchema>;

/** Field → messages, the shape of `errors` in a 422 reply and of the forms' error state. */
export type FieldErrors = Record<string, string[]>;

export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "_";
    const list = errors[field] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    errors[field] = list;
  }
  return errors;
}

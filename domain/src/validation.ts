import { z } from "zod";
import { isCountry } from "./countries.ts";
import { inputMessages } from "./messages.ts";

/**
 * What a text field may hold. Every text field, whatever it is: no NUL (PostgreSQL text
 * cannot hold it) and no unpaired UTF-16 surrogate (not a character: jsonb refuses it, text
 * would silently store U+FFFD). `line`, for text a person reads where nothing invisible is
 * ever legitimate (names, payout details, reasons, titles): also no bidi embedding, override
 * or isolate and no C0/C1 control character. `multiline` is `line` that may also hold tabs
 * and line breaks (a broadcast's message, a reason). Nothing is replaced: it is refused.
 */
export type TextRule = "any" | "line" | "multiline";

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const unpairedSurrogatePattern =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** U+202A–U+202E (embeddings, overrides) and U+2066–U+2069 (isolates). */
const bidiControlPattern = /[\u202A-\u202E\u2066-\u2069]/;
/** C0 controls, DEL and C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const controlPattern = /[\u0000-\u001F\u007F-\u009F]/;
/** The same without tab, line feed and carriage return. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const controlOtherThanLineBreakPattern = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The message for the first thing `rule` refuses in `value`, or null when it is acceptable. */
export function textProblem(value: string, rule: TextRule): string | null {
  if (value.includes("\u0000")) return inputMessages.textNul;
  if (unpairedSurrogatePattern.test(value)) return inputMessages.textUnpairedSurrogate;
  if (rule === "any") return null;
  if (bidiControlPattern.test(value)) return inputMessages.textBidiControl;
  const control = rule === "line" ? controlPattern : controlOtherThanLineBreakPattern;
  if (control.test(value)) return inputMessages.textControl;
  return null;
}

/** A zod check for a string schema: `.superRefine(refuseUnsafeText("line"))`. */
export function refuseUnsafeText(rule: TextRule) {
  return (value: string, context: z.RefinementCtx) => {
    const problem = textProblem(value, rule);
    if (problem) context.addIssue({ code: "custom", message: problem });
  };
}

/**
 * The instants PostgreSQL's timestamptz and JavaScript's Date both hold and print the same
 * way: the years 1 to 9999 (PostgreSQL has no year 0, which JavaScript calls 1 BC, and
 * JavaScript prints years past 9999 with a sign PostgreSQL does not read).
 */
export const storable_date_ms_min = Date.parse("0001-01-01T00:00:00.000Z");
export const storable_date_ms_max = Date.parse("9999-12-31T23:59:59.999Z");

export function isStorableDate(date: Date): boolean {
  const ms = date.getTime();
  return ms >= storable_date_ms_min && ms <= storable_date_ms_max;
}

/** A date from a query string (coerced), within the storable years. */
export const storableDateSchema = z.coerce
  .date()
  .refine(isStorableDate, inputMessages.dateOutOfRange);

/** An optional ISO date-time with an offset, within the storable years, kept as text. */
export function storableIsoDateTimeSchema(invalid: string) {
  return z.iso
    .datetime({ offset: true, error: invalid })
    .refine((value) => isStorableDate(new Date(value)), inputMessages.dateOutOfRange);
}

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
  passwordTooLong: "Password must be at most 128 characters",
  passwordCharactersInvalid: "Password must not contain control characters",
  passwordTooCommon: "This password is too common. Choose another.",
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
/**
 * At least 8 characters with a lowercase, an uppercase and a digit (SPEC §5), in any script
 * (ASVS V6): symbols, spaces and non-Latin letters are allowed. Counted in code points, so
 * "Ünïcødé1" is 8 characters. Control characters are refused separately with their own message.
 */
export const passwordPattern = /^(?=.*\p{Ll})(?=.*\p{Lu})(?=.*\p{Nd}).{8,}$/su;
/** Control characters (C0, DEL, C1) and lone surrogates: never typed, so never in a password. */
const passwordForbiddenCharacter = /[\p{Cc}\p{Cs}]/u;
/** Optional plus, then 10 or more digits, spaces or hyphens (SPEC §5). */
export const phonePattern = /^\+?[\d\s-]{10,}$/;

/** Limits on free text, so no field can carry an unbounded payload into hashing or storage. */
export const email_length_max = 254;
/** In characters (code points): ASVS V6 asks for at least 64 to be allowed. */
export const password_length_max = 128;
/**
 * In UTF-16 units, for fields that only compare a password (sign-in, current password): room
 * for 128 characters outside the BMP, and still a bound on what reaches the hasher.
 */
export const password_units_max = 2 * password_length_max;
export const phone_length_max = 30;
export const token_length_max = 200;

/**
 * A required text field: a missing, null or empty value gets `required`, anything else that
 * is not a string matching `pattern` within `lengthMax` gets `invalid`. One message per field,
 * the first that applies, as the forms show them.
 */
function requiredText(
  required: string,
  invalid: string,
  pattern: RegExp,
  lengthMax: number,
  rule: TextRule,
) {
  return textField(required, invalid).superRefine((value, context) => {
    const problem = textProblem(value, rule);
    if (value.length === 0) {
      context.addIssue({ code: "custom", message: required });
    } else if (problem) {
      context.addIssue({ code: "custom", message: problem });
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
    const problem = textProblem(value, "any");
    if (value.length === 0) context.addIssue({ code: "custom", message: required });
    else if (problem) context.addIssue({ code: "custom", message: problem });
    else if (value.length > lengthMax) context.addIssue({ code: "custom", message: tooLong });
  });
}

export const firstNameSchema = requiredText(
  m.firstNameRequired,
  m.nameInvalid,
  namePattern,
  30,
  "line",
);
export const lastNameSchema = requiredText(
  m.lastNameRequired,
  m.nameInvalid,
  namePattern,
  30,
  "line",
);
/**
 * E-mail addresses are compared case-insensitively: trimmed, then stored and looked up in
 * lower case.
 */
export const emailSchema = textField(m.emailRequired, m.emailInvalid)
  .trim()
  .toLowerCase()
  .superRefine((value, context) => {
    const problem = textProblem(value, "line");
    if (value.length === 0) context.addIssue({ code: "custom", message: m.emailRequired });
    else if (problem) context.addIssue({ code: "custom", message: problem });
    else if (value.length > email_length_max || !emailPattern.test(value)) {
      context.addIssue({ code: "custom", message: m.emailInvalid });
    }
  });
/**
 * The password rule's message for `value`, or null when it holds. Each message says what is
 * actually wrong: a long passphrase without a digit gets the SPEC's rule, not "too long".
 * Whether the password is too common is checked on the server only (the list is large).
 */
export function passwordRuleMessage(value: string): string | null {
  if (passwordForbiddenCharacter.test(value)) return m.passwordCharactersInvalid;
  if ([...value].length > password_length_max) return m.passwordTooLong;
  if (!passwordPattern.test(value)) return m.passwordInvalid;
  return null;
}

function newPasswordField(required: string) {
  return textField(required, m.passwordInvalid).superRefine((value, context) => {
    const message = value.length === 0 ? required : passwordRuleMessage(value);
    if (message) context.addIssue({ code: "custom", message });
  });
}

export const passwordSchema = newPasswordField(m.passwordRequired);
export const newPasswordSchema = newPasswordField(m.newPasswordRequired);
export const phoneSchema = requiredText(
  m.phoneRequired,
  m.phoneInvalid,
  phonePattern,
  phone_length_max,
  "line",
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
      .superRefine(refuseUnsafeText("line"))
      .nullish()
      .transform((value) => (value ? value.trim() : null)),
    accept_terms: z.literal(true, { error: m.acceptTermsRequired }),
  })
  .refine(passwordsMatch, confirmationCheck);
export type RegisterInput = z.input<typeof registerSchema>;
export type RegisterRequest = z.output<typeof registerSchema>;

/**
 * A solved ALTCHA proof of work (the widget's base64 payload), asked for once an account has
 * seen too many attempts (CHALLENGE_REQUIRED). Bounded: it is decoded before it is checked.
 */
export const altcha_payload_length_max = 4_000;
const altchaSchema = z.string().max(altcha_payload_length_max).optional();

export const loginSchema = z.object({
  email: emailSchema,
  password: requiredString(m.passwordRequired, password_units_max, m.passwordInvalid),
  altcha: altchaSchema,
});
export type LoginRequest = z.output<typeof loginSchema>;

export const emailOnlySchema = z.object({ email: emailSchema, altcha: altchaSchema });
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
  country: z.string({ error: m.countryRequired }).superRefine(refuseUnsafeText("line")).optional(),
});
export type UpdateProfileRequest = z.output<typeof updateProfileSchema>;

export const updatePasswordSchema = z
  .object({
    current_password: requiredString(m.currentPasswordRequired, password_units_max),
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

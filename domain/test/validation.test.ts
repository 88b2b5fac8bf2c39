import { describe, expect, it } from "vitest";
import { countries, DEFAULT_COUNTRY } from "../src/countries.ts";
import { inputMessages } from "../src/messages.ts";
import {
  fieldErrorsFrom,
  isStorableDate,
  loginSchema,
  validationMessages as m,
  registerSchema,
  resetPasswordSchema,
  storableDateSchema,
  textProblem,
  updatePasswordSchema,
  updateProfileSchema,
} from "../src/validation.ts";

const valid = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.test",
  password: "Secret123",
  password_confirmation: "Secret123",
  country: "United States",
  phone_number: "+1 202-555-0100",
  referral_code: "",
  accept_terms: true,
};

function errorsOf(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  // biome-ignore lint/suspicious/noExplicitAny: zod's error type is generic here
  return result.success ? {} : fieldErrorsFrom(result.error as any);
}

describe("SPEC §5 messages, verbatim", () => {
  it("has the spec's exact texts", () => {
    expect(m).toMatchObject({
      nameInvalid: "Only letters and spaces allowed, between 2-30 characters",
      firstNameRequired: "First name is required",
      lastNameRequired: "Last name is required",
      emailInvalid: "Please enter a valid email address",
      emailRequired: "Email is required",
      passwordInvalid:
        "Password must be at least 8 characters with uppercase, lowercase and number",
      passwordRequired: "Password is required",
      passwordsMismatch: "Passwords do not match",
      phoneInvalid: "Please enter a valid phone number",
      phoneRequired: "Phone number is required",
      countryRequired: "Please select a country",
      currentPasswordRequired: "Current password is required",
      newPasswordRequired: "New password is required",
    });
  });
});

describe("registration", () => {
  it("accepts a valid sign-up and normalises the e-mail", () => {
    const result = registerSchema.parse({ ...valid, email: "  Ada@Example.TEST " });
    expect(result.email).toBe("ada@example.test");
    expect(result.referral_code).toBeNull();
  });

  it.each([
    ["A", m.nameInvalid],
    ["A".repeat(31), m.nameInvalid],
    ["Ad4", m.nameInvalid],
    ["Ada-Mae", m.nameInvalid],
    ["", m.firstNameRequired],
    [undefined, m.firstNameRequired],
  ])("first name %j → %s", (first_name, message) => {
    expect(errorsOf(registerSchema, { ...valid, first_name })).toEqual({ first_name: [message] });
  });

  it.each([["Mary Ann"], ["José"], ["Zoë"], ["Ab"], ["A".repeat(30)]])(
    "first name %j is fine",
    (first_name) => {
      expect(errorsOf(registerSchema, { ...valid, first_name })).toEqual({});
    },
  );

  it("last name has its own required message", () => {
    expect(errorsOf(registerSchema, { ...valid, last_name: "" })).toEqual({
      last_name: [m.lastNameRequired],
    });
  });

  it.each([
    ["plainaddress", m.emailInvalid],
    ["a@b", m.emailInvalid],
    ["a b@c.de", m.emailInvalid],
    ["", m.emailRequired],
  ])("e-mail %j → %s", (email, message) => {
    expect(errorsOf(registerSchema, { ...valid, email })).toEqual({ email: [message] });
  });

  it.each([
    ["Short1A", m.passwordInvalid],
    ["alllower1", m.passwordInvalid],
    ["ALLUPPER1", m.passwordInvalid],
    ["NoDigitsHere", m.passwordInvalid],
    ["correct horse battery staple", m.passwordInvalid],
    ["Tab\tinside1", m.passwordCharactersInvalid],
    [`Aa1${"x".repeat(126)}`, m.passwordTooLong],
    ["", m.passwordRequired],
  ])("password %j → %s", (password, message) => {
    const errors = errorsOf(registerSchema, {
      ...valid,
      password,
      password_confirmation: password,
    });
    expect(errors).toEqual({ password: [message] });
  });

  // ASVS V6: any printable character, spaces and any script; 128 characters (code points).
  it.each([
    "Passw0rd!",
    "Tr0ub4dor&3xtra",
    "Correct horse battery staple 9",
    "Пароль2026ок",
    "Ωmega straße 7Ä",
    `Aa1${"x".repeat(125)}`,
    `Aa1${"😀".repeat(125)}`,
  ])("password %j passes the rule", (password) => {
    expect(
      errorsOf(registerSchema, { ...valid, password, password_confirmation: password }),
    ).toEqual({});
  });

  it("a mismatch lands on the confirmation", () => {
    expect(errorsOf(registerSchema, { ...valid, password_confirmation: "Secret124" })).toEqual({
      password_confirmation: [m.passwordsMismatch],
    });
  });

  it.each([
    ["123456789", m.phoneInvalid],
    ["+1 (202) 555-0100", m.phoneInvalid],
    ["phone number", m.phoneInvalid],
    ["", m.phoneRequired],
  ])("phone %j → %s", (phone_number, message) => {
    expect(errorsOf(registerSchema, { ...valid, phone_number })).toEqual({
      phone_number: [message],
    });
  });

  it.each([["1234567890"], ["+44 20 7946 0958"], ["202-555-0100"]])(
    "phone %j is fine",
    (phone_number) => {
      expect(errorsOf(registerSchema, { ...valid, phone_number })).toEqual({});
    },
  );

  it("country must come from the list; the default is United States", () => {
    expect(DEFAULT_COUNTRY).toBe("United States");
    expect(countries.length).toBeGreaterThan(190);
    expect(errorsOf(registerSchema, { ...valid, country: "" })).toEqual({
      country: [m.countryRequired],
    });
    expect(errorsOf(registerSchema, { ...valid, country: "Narnia" })).toEqual({
      country: [m.countryRequired],
    });
  });

  it("requires the 18+ and terms checkbox", () => {
    expect(errorsOf(registerSchema, { ...valid, accept_terms: false })).toEqual({
      accept_terms: ["You must be 18 or older and accept the terms"],
    });
  });
});

describe("other forms", () => {
  it("login needs an e-mail and a password but does not apply the password rule", () => {
    expect(errorsOf(loginSchema, { email: "", password: "" })).toEqual({
      email: [m.emailRequired],
      password: [m.passwordRequired],
    });
    expect(errorsOf(loginSchema, { email: "a@b.co", password: "weak" })).toEqual({});
  });

  it("change password: current, new (rule) and confirmation", () => {
    expect(
      errorsOf(updatePasswordSchema, {
        current_password: "",
        password: "",
        password_confirmation: "",
      }),
    ).toEqual({
      current_password: [m.currentPasswordRequired],
      password: [m.newPasswordRequired],
    });
    expect(
      errorsOf(updatePasswordSchema, {
        current_password: "x",
        password: "weakpass",
        password_confirmation: "weakpass",
      }),
    ).toEqual({ password: [m.passwordInvalid] });
    expect(
      errorsOf(updatePasswordSchema, {
        current_password: "x",
        password: "Strong123",
        password_confirmation: "Strong12",
      }),
    ).toEqual({ password_confirmation: [m.passwordsMismatch] });
  });

  it("reset password: the password rule and the match", () => {
    expect(
      errorsOf(resetPasswordSchema, {
        email: "a@b.co",
        token: "t",
        password: "Strong123",
        password_confirmation: "x",
      }),
    ).toEqual({ password_confirmation: [m.passwordsMismatch] });
    expect(
      errorsOf(resetPasswordSchema, {
        email: "a@b.co",
        token: "t",
        password: "weak",
        password_confirmation: "weak",
      }),
    ).toEqual({ password: [m.passwordInvalid] });
  });

  it("personal data: names and phone with the same rules", () => {
    expect(
      errorsOf(updateProfileSchema, { first_name: "A", last_name: "", phone_number: "" }),
    ).toEqual({
      first_name: [m.nameInvalid],
      last_name: [m.lastNameRequired],
      phone_number: [m.phoneRequired],
    });
  });
});

describe("password confirmation alongside other errors", () => {
  it("shows the mismatch even when other fields are invalid", () => {
    expect(
      errorsOf(registerSchema, { ...valid, first_name: "", password_confirmation: "Secret124" }),
    ).toEqual({
      first_name: [m.firstNameRequired],
      password_confirmation: [m.passwordsMismatch],
    });
    expect(
      errorsOf(updatePasswordSchema, {
        current_password: "",
        password: "Strong123",
        password_confirmation: "x",
      }),
    ).toEqual({
      current_password: [m.currentPasswordRequired],
      password_confirmation: [m.passwordsMismatch],
    });
  });
});

describe("the text rule every field obeys (issue 12)", () => {
  it("refuses NUL and unpaired surrogates everywhere, keeps real characters", () => {
    expect(textProblem("a\u0000b", "any")).toBe(inputMessages.textNul);
    expect(textProblem("a\uD800b", "any")).toBe(inputMessages.textUnpairedSurrogate);
    expect(textProblem("a\uDC00", "any")).toBe(inputMessages.textUnpairedSurrogate);
    expect(textProblem("\uDC00\uD800", "any")).toBe(inputMessages.textUnpairedSurrogate);
    // A pair is one real character (an emoji); bidi and tabs are not refused by "any".
    expect(textProblem("ok \uD83D\uDE00 \u202E\t", "any")).toBeNull();
  });

  it("refuses bidi controls and control characters in text people read", () => {
    for (const bidi of ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2069"]) {
      expect(textProblem(`pay ${bidi}me`, "line")).toBe(inputMessages.textBidiControl);
      expect(textProblem(`pay ${bidi}me`, "multiline")).toBe(inputMessages.textBidiControl);
    }
    for (const control of ["\u0007", "\u001B", "\u007F", "\u0085", "\u009F", "\t", "\n"]) {
      expect(textProblem(`a${control}b`, "line"), JSON.stringify(control)).toBe(
        inputMessages.textControl,
      );
    }
    expect(textProblem("line one\r\n\tline two", "multiline")).toBeNull();
    expect(textProblem("a\u001Bb", "multiline")).toBe(inputMessages.textControl);
    expect(textProblem("Zoë Ñandú 李", "line")).toBeNull();
  });

  it("the forms' schemas apply it with one message per field", () => {
    expect(errorsOf(registerSchema, { ...valid, first_name: "Ad\u202Ea" }).first_name).toEqual([
      inputMessages.textBidiControl,
    ]);
    expect(errorsOf(loginSchema, { email: "a\u0000@b.co", password: "x" }).email).toEqual([
      inputMessages.textNul,
    ]);
    expect(errorsOf(loginSchema, { email: "a@b.co", password: "Se\uD800cret1" }).password).toEqual([
      inputMessages.textUnpairedSurrogate,
    ]);
  });

  it("dates stay within the years PostgreSQL and JavaScript both store", () => {
    expect(isStorableDate(new Date("0001-01-01T00:00:00Z"))).toBe(true);
    expect(isStorableDate(new Date("9999-12-31T23:59:59.999Z"))).toBe(true);
    expect(isStorableDate(new Date("0000-12-31T23:59:59.999Z"))).toBe(false);
    expect(isStorableDate(new Date("+010000-01-01T00:00:00Z"))).toBe(false);
    expect(isStorableDate(new Date(Number.NaN))).toBe(false);
    expect(storableDateSchema.safeParse("-004714-01-01").success).toBe(false);
  });
});

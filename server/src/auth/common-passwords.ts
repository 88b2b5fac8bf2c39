import { validationMessages } from "@tp/domain/validation";
import { dictionary } from "@zxcvbn-ts/language-common";
import { validationError } from "../http/errors.ts";

/**
 * Passwords refused because attackers try them first (ASVS V6.2.4): the ~49,000 most common
 * and breached passwords of zxcvbn-ts's common list, shipped with the app (no outside call).
 * Compared case-insensitively, so "Password1" is refused as "password1" is. Built on first use
 * and kept for the life of the process; the web form does not carry the list and shows the
 * server's field error instead.
 */
let commonPasswords: ReadonlySet<string> | null = null;

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary["passwords-common"].map((entry) => entry.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}

/** Throws the 422 for `field` when the new password is in the list. */
export function refuseCommonPassword(password: string, field = "password"): void {
  if (isCommonPassword(password)) {
    throw validationError({ [field]: [validationMessages.passwordTooCommon] });
  }
}

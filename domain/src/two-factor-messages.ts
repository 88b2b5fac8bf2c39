/**
 * The texts of two-factor sign-in and step-up, without zod: the step-up dialog is part of
 * the app shell, whose first load carries no schema library (two-factor.ts re-exports them).
 */
export const twoFactorMessages = {
  codeRequired: "Enter the code from your authenticator app or a recovery code",
  codeInvalid:
    "This code is not valid. Enter the current code from your authenticator app or an unused recovery code.",
  signInTokenRequired: "Sign in again: this step has no sign-in token",
  signInExpired: "This sign-in step has expired or was already used. Sign in again.",
  enrolmentStarted: "Scan the QR code with your authenticator app, then enter the code it shows",
  enabled: "Two-factor authentication is on. Keep your recovery codes somewhere safe.",
  disabled: "Two-factor authentication is off",
  notEnabled: "Two-factor authentication is not on",
  alreadyEnabled: "Two-factor authentication is already on",
  noEnrolment: "Start setting up two-factor authentication first",
  recoveryCodesRegenerated: "New recovery codes made; the old ones no longer work",
  steppedUp: "Confirmed. You can continue.",
  stepUpNeedsCode: "Two-factor authentication is on: confirm with a code, not the password",
  stepUpNeedsPassword: "Enter your password",
  passwordWrong: "The password is not correct",
  secondFactorNeeded: "Enter the code from your authenticator app",
  enrolmentNeeded: "Staff accounts need two-factor authentication: set it up to continue",
  signedInWithCode: "Login successful!",
} as const;

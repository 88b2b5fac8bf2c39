/**
 * User-facing texts, verbatim from SPEC §8 where the spec names them. Server replies and web
 * toasts both read from here, so one string has one home.
 */
export const uiMessages = {
  registerSuccess: "Registration successful!",
  registerFailed: "Registration failed",
  registerCheckFields: "Please check all required fields",
  loginSuccess: "Login successful!",
  loginFailed: "Login failed",
  loginInvalidResponse: "Invalid response format from login",
  resetSuccess: "Password reset successfully!",
  resetFailed: "Reset failed",
  resetInvalidLink: "Invalid reset link",
  resendSuccess: "Verification email has been resent",
  personalDataSuccess: "Personal data updated successfully",
  personalDataFailed: "Update failed",
  passwordSuccess: "Password updated successfully",
  passwordFailed: "Failed to update password",
  sessionsSuccess: "Logged out from all sessions except current",
  sessionsFailed: "Failed to log out from all sessions",
  sessionEnded: "Session ended",
  sessionEndFailed: "Failed to end the session",
  sessionsLoadFailed: "Could not load your sessions",
  signInHistoryLoadFailed: "Could not load your sign-in history",
  topUpSuccess: "Practice balance topped up successfully!",
  topUpFailed: "Failed to top up practice balance",
  pageNotFound: "Page Not Found",
} as const;

/**
 * Loading, empty and failed (issue 13): what a list or panel says when its read fails, the
 * status indicator's reasons, and the account-status and top-up explanations.
 */
export const stateMessages = {
  unreachable: "The server could not be reached. Check your connection, then try again.",
  timedOut: "The server took too long to answer. Try again in a moment.",
  serverFailed: (status: number) =>
    `The server had a problem (HTTP ${status}). Try again in a moment.`,
  unexpectedReply: (status: number) => `The server gave an unexpected answer (HTTP ${status}).`,
  refreshFailed: "Could not refresh: what you see may be out of date.",
  apiFailing: "Requests to the platform are failing",
  apiUnreachable: "The platform cannot be reached",
  inactiveExplained: "Inactive — verify your identity",
  activeExplained: "Active — identity verified",
  topUpAtLevel: (level: string) =>
    `Your practice balance is at its top-up level (${level}). Top-up refills it once it falls below.`,
} as const;

/** Texts of the server's own replies (the spec leaves them open; PRODUCT.md D11). */
export const serverMessages = {
  registered: "Registration successful! Please check your email to verify your account.",
  loginInvalid: "Invalid email or password",
  loggedIn: "Login successful!",
  loggedOut: "Logged out",
  sessionsRevoked: "Logged out from all sessions except current",
  sessionEnded: "Session ended",
  emailAlreadyTaken: "This email is already registered",
  verificationSent: "Verification email has been resent",
  verificationResendNeutral:
    "If that address belongs to an unverified account, a verification email has been sent",
  emailVerified: "Email verified successfully",
  emailAlreadyVerified: "Email is already verified",
  verificationLinkInvalid: "This verification link is invalid or has expired",
  forgotPasswordNeutral:
    "If an account exists for that address, a password reset link has been sent",
  resetLinkInvalid: "This reset link is invalid or has expired",
  passwordReset: "Password reset successfully!",
  profileUpdated: "Personal data updated successfully",
  passwordUpdated: "Password updated successfully",
  currentPasswordWrong: "Current password is incorrect",
  topUpDone: "Practice balance topped up successfully!",
  topUpNotNeeded: "Practice balance is already at or above the top-up level",
  notSignedIn: "Unauthenticated",
  forbidden: "You are not allowed to do this",
  staffNotTrader:
    "Staff accounts cannot trade or move money. Use a separate trader account of your own.",
  stepUpRequired:
    "Confirm it is you: enter a code from your authenticator app, use a passkey, or (without two-factor authentication) your password.",
  authChallengeInvalid: "This step has expired or was already used. Please start again.",
  passkeyAdded: "Passkey added",
  passkeyRenamed: "Passkey renamed",
  passkeyRemoved: "Passkey removed",
  passkeyInvalid: "This passkey could not be verified. Try again or use another way to sign in.",
  passkeyAlreadyRegistered: "This passkey is already registered",
  passkeyNoneRegistered: "This account has no passkey",
  passkeySteppedUp: "Confirmed with your passkey",
  notFound: "Not found",
  routeNotFound: "Route not found",
  malformedJson: "The request body is not valid JSON",
  malformedRequest: "The request is malformed",
  bodyTooLarge: "The request body is too large",
  unsupportedMediaType: "Unsupported media type: send application/json",
  validationFailed: "The given data was invalid",
  rateLimited: "Too many attempts. Please wait a moment and try again.",
  challengeRequired:
    "Too many attempts for this account. Complete the verification below, then try again.",
  internal: "Internal Server Error",
  notReadyStarting: "Not ready: the server is still starting",
  notReadyDraining: "Not ready: the server is shutting down",
  notReadyDatabase: "Not ready: the database is unreachable",
  notReadyBus: "Not ready: Redis (the event bus) is unreachable",
} as const;

/**
 * Texts of the input rules every field obeys (domain/src/validation.ts `textProblem`, dates
 * PostgreSQL can store, a body that must be an object). Each names what is wrong, never
 * silently fixes it.
 */
export const inputMessages = {
  textNul: "Contains a NUL character (U+0000), which is not allowed",
  textUnpairedSurrogate:
    "Contains a broken character (an unpaired UTF-16 surrogate), which is not allowed",
  textBidiControl:
    "Contains an invisible text-direction character (U+202A to U+202E or U+2066 to U+2069), which is not allowed",
  textControl:
    "Contains a control character (such as a tab, line break or escape), which is not allowed here",
  dateOutOfRange: "Must be a date between the years 1 and 9999",
  bodyNotObject: "The request body must be a JSON object",
  nestedTooDeep: "The request is nested too deeply",
} as const;

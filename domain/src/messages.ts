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
  topUpSuccess: "Practice balance topped up successfully!",
  topUpFailed: "Failed to top up practice balance",
  pageNotFound: "Page Not Found",
} as const;

/** Texts of the server's own replies (the spec leaves them open; PRODUCT.md D11). */
export const serverMessages = {
  registered: "Registration successful! Please check your email to verify your account.",
  loginInvalid: "Invalid email or password",
  loggedIn: "Login successful!",
  loggedOut: "Logged out",
  sessionsRevoked: "Logged out from all sessions except current",
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
  notFound: "Not found",
  routeNotFound: "Route not found",
  malformedJson: "The request body is not valid JSON",
  malformedRequest: "The request is malformed",
  bodyTooLarge: "The request body is too large",
  unsupportedMediaType: "Unsupported media type: send application/json",
  validationFailed: "The given data was invalid",
  rateLimited: "Too many attempts. Please wait a moment and try again.",
  internal: "Internal Server Error",
} as const;

/** The API base path (SPEC §7: a versioned base path, /api/v1 on {host}). */
export const API_BASE_PATH = "/api/v1";

/** Query parameters of the links the server e-mails; the web pages read the same names. */
export const verifyEmailPagePath = "/account/verify-email";
export const resetPasswordPagePath = "/account/reset-password";

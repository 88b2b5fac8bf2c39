/** The API base path (SPEC §7: a versioned base path, /api/v1 on {host}). */
export const API_BASE_PATH = "/api/v1";

/** Query parameters of the links the server e-mails; the web pages read the same names. */
export const verifyEmailPagePath = "/account/verify-email";
export const resetPasswordPagePath = "/account/reset-password";
/** The Security page (sessions, sign-in history): linked from the new-device e-mail. */
export const securityPagePath = "/user/security";
/** The page a withdrawal's confirmation link opens (issue 12): it posts the token. */
export const confirmWithdrawalPagePath = "/account/confirm-withdrawal";

/**
 * The public pages a search engine may list (GET /sitemap.xml): the marketing, legal and
 * account-entry pages. Not the signed-in area, the back office, nor the pages a link in an
 * e-mail opens with a one-time token.
 */
export const indexablePagePaths = [
  "/",
  "/about",
  "/contact",
  "/market-status",
  "/risk-disclosure",
  "/rules",
  "/legal-documents",
  "/privacy-policy",
  "/terms-of-service",
  "/confirmation",
  "/financial-statement",
  "/account/sign-up",
  "/account/sign-in",
] as const;

/** Paths robots.txt asks crawlers to keep out of: signed-in pages, the API, token links. */
export const crawlerDisallowedPaths = [
  "/user/",
  "/api/",
  verifyEmailPagePath,
  resetPasswordPagePath,
  confirmWithdrawalPagePath,
] as const;

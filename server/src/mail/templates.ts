import {
  confirmWithdrawalPagePath,
  resetPasswordPagePath,
  securityPagePath,
  verifyEmailPagePath,
} from "@tp/domain/paths";
import type { Email } from "./outbox.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function linkEmail(
  to: string,
  subject: string,
  lines: string[],
  label: string,
  url: string,
): Email {
  const text = `${lines.join("\n\n")}\n\n${label}: ${url}\n`;
  const html = `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p><p>${escapeHtml(url)}</p>`;
  return { to, subject, text, html };
}

function pageUrl(publicUrl: string, pagePath: string, token: string, email: string): string {
  const url = new URL(pagePath, `${publicUrl}/`);
  url.searchParams.set("token", token);
  url.searchParams.set("email", email);
  return url.toString();
}

export function verificationEmail(options: {
  publicUrl: string;
  siteName: string;
  to: string;
  firstName: string;
  token: string;
}): Email {
  return linkEmail(
    options.to,
    `Verify your e-mail address for ${options.siteName}`,
    [
      `Hello ${options.firstName},`,
      `Please confirm that this is your e-mail address by opening the link below. It works for 48 hours.`,
      "If you did not sign up, you can ignore this message.",
    ],
    "Verify e-mail address",
    pageUrl(options.publicUrl, verifyEmailPagePath, options.token, options.to),
  );
}

export function passwordResetEmail(options: {
  publicUrl: string;
  siteName: string;
  to: string;
  token: string;
}): Email {
  return linkEmail(
    options.to,
    `Reset your ${options.siteName} password`,
    [
      "Someone asked to reset the password of your account.",
      "Open the link below to choose a new password. It works once, for 60 minutes, and signs out every device.",
      "If it was not you, ignore this message: your password stays as it is.",
    ],
    "Reset password",
    pageUrl(options.publicUrl, resetPasswordPagePath, options.token, options.to),
  );
}

/** Sent instead of a second account, so sign-up does not reveal which addresses exist. */
export function alreadyRegisteredEmail(options: {
  publicUrl: string;
  siteName: string;
  to: string;
}): Email {
  return linkEmail(
    options.to,
    `You already have a ${options.siteName} account`,
    [
      "Someone tried to sign up with this e-mail address, which already has an account.",
      "If it was you, sign in, or reset your password if you have forgotten it.",
      "If it was not you, you can ignore this message.",
    ],
    "Sign in",
    new URL("/account/sign-in", `${options.publicUrl}/`).toString(),
  );
}

/**
 * A sign-in from a device this account had not signed in from before (issue 12, item 4):
 * the owner learns of it at once, and can end that session from the Security page.
 */
export function newDeviceSignInEmail(options: {
  publicUrl: string;
  siteName: string;
  to: string;
  at: Date;
  browser: string;
  ip: string;
}): Email {
  return linkEmail(
    options.to,
    `New sign-in to your ${options.siteName} account`,
    [
      `Your account was signed in to from a device or network it had not used before: ${options.browser}, IP address ${options.ip}, at ${options.at.toISOString().replace("T", " ").slice(0, 16)} UTC.`,
      "If it was you, there is nothing to do.",
      "If it was not you, open the Security page to end that session, then change your password.",
    ],
    "Review your sessions",
    new URL(securityPagePath, `${options.publicUrl}/`).toString(),
  );
}

/**
 * Sent on every withdrawal request (issue 12): what, how much, where to; the link confirms
 * it (single use) and only then do staff see it. The reference is in the subject so each
 * request's message is told apart.
 */
export function withdrawalConfirmationEmail(options: {
  publicUrl: string;
  siteName: string;
  to: string;
  token: string;
  reference: string;
  amount: string;
  /** The fee fixed on the request and what is paid out, when there is a fee. */
  fee: { fee: string; paidOut: string } | null;
  method: string;
  validHours: number;
}): Email {
  const fee = options.fee
    ? ` After the ${options.fee.fee} fee, ${options.fee.paidOut} is paid out to you.`
    : " There is no fee: the whole amount is paid out to you.";
  return linkEmail(
    options.to,
    `Confirm your withdrawal ${options.reference} of ${options.amount}`,
    [
      `A withdrawal of ${options.amount} via ${options.method} (${options.reference}) was requested from your ${options.siteName} account.${fee}`,
      `Open the link below to confirm it. It works once, for ${options.validHours} hours; unconfirmed, the withdrawal is cancelled and the amount returns to your balance.`,
      "If it was not you, do not open the link: cancel the withdrawal, change your password and turn on two-factor authentication.",
    ],
    "Confirm withdrawal",
    pageUrl(options.publicUrl, confirmWithdrawalPagePath, options.token, options.to),
  );
}

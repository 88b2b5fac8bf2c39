import { accountClosureMessages } from "@tp/domain/account-closure";
import type { Email } from "../mail/outbox.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The one e-mail a closed account gets: the confirmation, saying what was kept and why. */
export function accountClosedEmail(options: {
  to: string;
  siteName: string;
  firstName: string;
  retentionYears: number;
}): Email {
  const lines = [
    `Hello ${options.firstName},`,
    `Your ${options.siteName} account is closed. You can no longer sign in, and this is the last e-mail we send you.`,
    "We have erased your password, two-factor settings, passkeys, browsers' notification subscriptions, notifications and the network addresses of your sign-ins.",
    `The law on the prevention of money laundering requires us to keep your name, country, e-mail address, identity documents, trades, deposits, withdrawals and account entries for ${options.retentionYears} years. After that they are erased too.`,
  ];
  return {
    to: options.to,
    subject: `${accountClosureMessages.closedConfirmationSubject} (${options.siteName})`,
    text: `${lines.join("\n\n")}\n`,
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""),
  };
}

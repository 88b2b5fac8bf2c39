import type { UserView } from "@tp/domain/api";
import { stateMessages } from "@tp/domain/messages";
import { Link } from "react-router";
import { paths } from "../paths.ts";

export type AccountStatus = "Active" | "Inactive";

/** SPEC §4: Active when account.kyc_verified_at is set, otherwise Inactive. */
export function accountStatusOf(user: UserView): AccountStatus {
  return user.account.kyc_verified_at ? "Active" : "Inactive";
}

/**
 * Where an Inactive account is made Active: the Security page's ID verification section
 * (staff approving the identity documents sets kyc_verified_at; funding does not).
 */
export const identityVerificationLink = `${paths.user.security}#verification-title`;

const tones: Record<AccountStatus, string> = {
  Active: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300",
  Inactive: "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300",
};

export function AccountStatusBadge({ user }: { user: UserView }) {
  const status = accountStatusOf(user);
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${tones[status]}`}
    >
      <span
        aria-hidden="true"
        className={`size-1.5 rounded-full ${status === "Active" ? "bg-emerald-500" : "bg-amber-500"}`}
      />
      {status}
    </span>
  );
}

/**
 * The account status that explains itself (issue 13): Active says the identity is verified;
 * Inactive says what to do ("Inactive — verify your identity") and links to where it is done.
 * `compact` keeps the badge alone on screen (a narrow top bar) and the explanation for
 * screen readers and the tooltip.
 */
export function AccountStatusExplained({
  user,
  compact = false,
}: {
  user: UserView;
  compact?: boolean;
}) {
  const status = accountStatusOf(user);
  if (status === "Active") {
    return (
      <span title={stateMessages.activeExplained}>
        <AccountStatusBadge user={user} />
        <span className="sr-only"> — identity verified</span>
      </span>
    );
  }
  return (
    <Link
      to={identityVerificationLink}
      title={stateMessages.inactiveExplained}
      className="group inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded"
    >
      {/* The name is the link's own text ("Inactive Verify your identity"): a label that
          differs from what is shown fails label-in-name. Narrow top bars hide the words from
          sight only, so the name stays whole. */}
      <AccountStatusBadge user={user} />{" "}
      <span
        className={`text-xs font-semibold underline-offset-2 group-hover:underline ${
          compact ? "sr-only xl:not-sr-only" : ""
        }`}
      >
        Verify your identity
      </span>
    </Link>
  );
}

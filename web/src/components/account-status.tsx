import type { UserView } from "@tp/domain/api";

export type AccountStatus = "Active" | "Inactive";

/** SPEC §4: Active when account.kyc_verified_at is set, otherwise Inactive. */
export function accountStatusOf(user: UserView): AccountStatus {
  return user.account.kyc_verified_at ? "Active" : "Inactive";
}

export function AccountStatusBadge({ user }: { user: UserView }) {
  const status = accountStatusOf(user);
  const tone =
    status === "Active"
      ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300"
      : "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300";
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}
    >
      <span
        aria-hidden="true"
        className={`size-1.5 rounded-full ${status === "Active" ? "bg-emerald-500" : "bg-amber-500"}`}
      />
      {status}
    </span>
  );
}

import type { DepositStatus, VerificationStatus, WithdrawalStatus } from "@tp/domain/funding";

/** How the back office writes dates, statuses and ids. */

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

/** "15 Jan 2026, 12:00" in the browser's zone; "—" for none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

type AnyStatus = DepositStatus | WithdrawalStatus | VerificationStatus;

const statusLabels: Record<AnyStatus, string> = {
  awaiting_payment: "Awaiting payment",
  under_review: "Under review",
  confirmed: "Confirmed",
  rejected: "Rejected",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
  pending: "Pending",
  paid: "Paid",
  approved: "Approved",
};

export function statusLabel(status: string): string {
  return statusLabels[status as AnyStatus] ?? status.replaceAll("_", " ");
}

const tones = {
  waiting: "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300",
  done: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300",
  refused: "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300",
  neutral: "bg-slate-200 text-slate-700 dark:bg-slate-500/20 dark:text-slate-300",
} as const;

export function statusTone(status: string): string {
  switch (status) {
    case "under_review":
    case "pending":
      return tones.waiting;
    case "confirmed":
    case "paid":
    case "approved":
      return tones.done;
    case "rejected":
      return tones.refused;
    default:
      return tones.neutral;
  }
}

/** "Ada Lovelace" or, for a trader without names, their e-mail. */
export function displayName(name: string, email: string): string {
  return name.trim().length > 0 ? name : email;
}

/** "bank_name" → "Bank name". */
export function humanizeKey(key: string): string {
  const words = key.replaceAll("_", " ").trim();
  return words.length > 0 ? words[0]!.toUpperCase() + words.slice(1) : key;
}

export function adminUserPath(id: number): string {
  return `/admin/users/${id}`;
}

import { type TransactionRow, transactionStatusTone } from "@tp/domain/funding";

/**
 * SPEC §2 "History pages": confirmed green, pending yellow, anything else red. The tone
 * comes from the domain (a paid withdrawal is confirmed; a deposit awaiting payment or
 * under review is pending).
 */
const toneClasses = {
  confirmed: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300",
  pending: "bg-yellow-100 text-yellow-800 dark:bg-yellow-500/15 dark:text-yellow-300",
  failed: "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300",
} as const;

export function transactionStatusClass(status: TransactionRow["status"]): string {
  return toneClasses[transactionStatusTone(status)];
}

const statusLabels: Record<TransactionRow["status"], string> = {
  awaiting_payment: "awaiting payment",
  under_review: "under review",
  confirmed: "confirmed",
  rejected: "rejected",
  cancelled: "cancelled",
  expired: "expired unpaid",
  pending: "pending",
  paid: "paid",
};

export function transactionStatusLabel(status: TransactionRow["status"]): string {
  return statusLabels[status] ?? status;
}

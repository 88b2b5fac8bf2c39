import {
  amountNotAboveFeeMessage,
  describeFee,
  type FeeBreakdown,
  type FeeSchedule,
  feeBreakdown,
  feeScheduleOf,
  hasFee,
} from "@tp/domain/fees";
import type { PaymentMethodView } from "@tp/domain/funding";
import { centsFromDollars, formatUsd, formatUsdFromCents } from "@tp/domain/money";
import { type Control, type FieldValues, type Path, useWatch } from "react-hook-form";
import { DetailRow } from "./detail-row.tsx";

/**
 * Fees on screen (issue 13 item 3; fees.ts): the amount, the fee and what arrives, computed
 * with the server's own function before the trader commits. The fee is always taken out of
 * the amount: a deposit credits amount − fee, a withdrawal takes the whole amount from the
 * balance and pays out amount − fee.
 */
export type FeeDirection = "deposit" | "withdrawal";

const netLabels: Record<FeeDirection, string> = {
  deposit: "Credited to your real balance",
  withdrawal: "Paid out to you",
};

const ruleText: Record<FeeDirection, string> = {
  deposit: "The fee is taken out of the amount you send.",
  withdrawal: "The fee is taken out of the amount withdrawn.",
};

/** The breakdown of a typed amount in dollars, or why there is none. */
export function feeOfDollars(
  amount: number | null | undefined,
  schedule: FeeSchedule,
): { breakdown: FeeBreakdown } | { problem: string } | null {
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0) return null;
  const cents = centsFromDollars(amount);
  if (cents === null) return null;
  const breakdown = feeBreakdown(cents, schedule);
  return breakdown ? { breakdown } : { problem: amountNotAboveFeeMessage(cents, schedule) };
}

/** The method's fee for one direction in words: "No fees" or "$2.00 + 1.5%". */
export function methodFeeText(method: PaymentMethodView, direction: FeeDirection): string {
  const schedule = feeScheduleOf(method, direction);
  return hasFee(schedule) ? `Fee: ${describeFee(schedule)}` : "No fees";
}

/**
 * Beside the amount field: the fee and what arrives as the trader types, or the method's
 * fee in words while the amount is empty.
 */
export function FeePreview({
  method,
  direction,
  amount,
}: {
  method: PaymentMethodView;
  direction: FeeDirection;
  amount: number | null | undefined;
}) {
  const schedule = feeScheduleOf(method, direction);
  const result = feeOfDollars(amount, schedule);
  return (
    <div
      data-testid="fee-preview"
      aria-live="polite"
      className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:bg-navy-950 dark:text-slate-300"
    >
      {!hasFee(schedule) ? (
        <p>
          <span className="font-semibold">No fees</span>
          {result && "breakdown" in result
            ? ` · ${netLabels[direction]}: ${formatUsdFromCents(result.breakdown.net_cents)}`
            : ` · ${direction === "deposit" ? "the whole amount is credited" : "the whole amount is paid out"}`}
        </p>
      ) : result && "breakdown" in result ? (
        <p>
          Fee{" "}
          <span className="font-semibold">{formatUsdFromCents(result.breakdown.fee_cents)}</span> (
          {describeFee(schedule)}) · {netLabels[direction]}:{" "}
          <span className="font-semibold">{formatUsdFromCents(result.breakdown.net_cents)}</span>
        </p>
      ) : result ? (
        <p className="text-red-700 dark:text-red-400">{result.problem}</p>
      ) : (
        <p>
          Fee: <span className="font-semibold">{describeFee(schedule)}</span>. {ruleText[direction]}
        </p>
      )}
    </div>
  );
}

/**
 * The preview of a form's `amount` field: it alone re-renders as the trader types (the form
 * around it does not).
 */
export function AmountFeePreview<Values extends FieldValues>({
  control,
  method,
  direction,
}: {
  control: Control<Values>;
  method: PaymentMethodView;
  direction: FeeDirection;
}) {
  const amount: unknown = useWatch({ control, name: "amount" as Path<Values> });
  return (
    <FeePreview
      method={method}
      direction={direction}
      amount={typeof amount === "number" ? amount : null}
    />
  );
}

/** Rows of a confirmation or payment-details list: amount, fee, what arrives (in dollars). */
export function FeeRows({
  direction,
  amount,
  fee,
  netAmount,
  amountLabel = "Amount",
}: {
  direction: FeeDirection;
  amount: number;
  fee: number;
  netAmount: number;
  amountLabel?: string;
}) {
  return (
    <>
      <DetailRow label={amountLabel} value={formatUsd(amount)} />
      <DetailRow label="Fee" value={fee > 0 ? formatUsd(fee) : "No fees"} />
      {/* Without a fee, what arrives is the amount: said once. */}
      {fee > 0 ? <DetailRow label={netLabels[direction]} value={formatUsd(netAmount)} /> : null}
    </>
  );
}

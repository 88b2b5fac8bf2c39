import { z } from "zod";
import { assertCents, type Cents, formatUsdFromCents } from "./money.ts";

/**
 * Fees as configuration (issue 13 item 3; PRODUCT.md D11 "Fees: none unless configured").
 * Each payment method has a fee for deposits and one for withdrawals: a fixed part in cents
 * plus a percentage in basis points (1 bp = 0.01 %), both integers, both 0 by default.
 *
 * The fee is always taken out of the amount the trader enters, both ways:
 * - a deposit of $150.00 with a $2.00 fee: the trader sends $150.00, $148.00 is credited;
 * - a withdrawal of $100.00 with a $1.00 fee: $100.00 leaves the balance, $99.00 is paid out.
 *
 * This one function computes it for the server (which snapshots it on the deposit or
 * withdrawal row when it is created) and for the web forms (which show it before the
 * trader commits), so the figures shown are the figures posted.
 */
export interface FeeSchedule {
  fixed_cents: Cents;
  basis_points: number;
}

export const no_fee: FeeSchedule = { fixed_cents: 0, basis_points: 0 };

/** 100 % in basis points. */
export const basis_points_per_whole = 10_000;
/** Largest fixed fee staff may set: $1,000.00. */
export const fee_fixed_cents_max = 100_000;
/** Largest percentage staff may set: 50 % (a fee is never the whole amount). */
export const fee_basis_points_max = 5_000;

export const feeMessages = {
  fixedCents: "The fixed fee is a whole number of cents",
  fixedCentsMin: "The fixed fee cannot be negative",
  fixedCentsMax: `The fixed fee is at most ${formatUsdFromCents(fee_fixed_cents_max)}`,
  basisPoints: "The percentage fee is a whole number of basis points (100 = 1%)",
  basisPointsMin: "The percentage fee cannot be negative",
  basisPointsMax: `The percentage fee is at most ${fee_basis_points_max / 100}%`,
} as const;

/**
 * The fee on `amountCents`: the fixed part plus the percentage, the percentage rounded half
 * up to the cent (0.5 cent and above rounds up; everything is integer arithmetic, no float
 * touches the money). The result may reach or pass the amount: `feeBreakdown` refuses that.
 */
export function feeCents(amountCents: Cents, schedule: FeeSchedule): Cents {
  assertCents(amountCents);
  assertCents(schedule.fixed_cents);
  assertCents(schedule.basis_points);
  if (amountCents < 0 || schedule.fixed_cents < 0 || schedule.basis_points < 0) {
    throw new RangeError("amounts and fees are not negative");
  }
  // amount ≤ 10^8 cents and bp ≤ 10^4 in practice: the product stays far below 2^53.
  const scaled = amountCents * schedule.basis_points;
  assertCents(scaled);
  const half = basis_points_per_whole / 2;
  const percentage = Math.floor((scaled + half) / basis_points_per_whole);
  return schedule.fixed_cents + percentage;
}

export interface FeeBreakdown {
  amount_cents: Cents;
  fee_cents: Cents;
  /** What arrives: credited for a deposit, paid out for a withdrawal (amount − fee). */
  net_cents: Cents;
}

/**
 * The amount, its fee and what is left, or null when the fee would take the whole amount
 * (fee ≥ amount): such a request is refused with `amountNotAboveFeeMessage`.
 */
export function feeBreakdown(amountCents: Cents, schedule: FeeSchedule): FeeBreakdown | null {
  const fee = feeCents(amountCents, schedule);
  if (fee >= amountCents) return null;
  return { amount_cents: amountCents, fee_cents: fee, net_cents: amountCents - fee };
}

/**
 * The refusal when the fee a form showed (`expected_fee`) is not the method's fee any more:
 * staff changed it between the form and Confirm. The trader is charged only a fee they saw.
 */
export function feeChangedMessage(methodName: string, shownCents: Cents, nowCents: Cents): string {
  return `The fee for ${methodName} changed from ${formatUsdFromCents(shownCents)} to ${formatUsdFromCents(nowCents)} since you saw it. Nothing was charged: check the new amounts and confirm again.`;
}

export function amountNotAboveFeeMessage(amountCents: Cents, schedule: FeeSchedule): string {
  return `The amount must be more than its fee (${formatUsdFromCents(feeCents(amountCents, schedule))})`;
}

export function hasFee(schedule: FeeSchedule): boolean {
  return schedule.fixed_cents > 0 || schedule.basis_points > 0;
}

/** "2.5%" from 250 basis points; "0.01%" from 1. */
export function formatBasisPoints(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;
}

/** "No fees", "$2.00", "1.5%" or "$2.00 + 1.5%": the schedule in words, as the forms show it. */
export function describeFee(schedule: FeeSchedule): string {
  const parts: string[] = [];
  if (schedule.fixed_cents > 0) parts.push(formatUsdFromCents(schedule.fixed_cents));
  if (schedule.basis_points > 0) parts.push(formatBasisPoints(schedule.basis_points));
  return parts.length === 0 ? "No fees" : parts.join(" + ");
}

/** The fee columns of a payment method, as stored and as every API view carries them. */
export interface PaymentMethodFees {
  deposit_fee_fixed_cents: Cents;
  deposit_fee_basis_points: number;
  withdrawal_fee_fixed_cents: Cents;
  withdrawal_fee_basis_points: number;
}

export function feeScheduleOf(
  method: PaymentMethodFees,
  direction: "deposit" | "withdrawal",
): FeeSchedule {
  return direction === "deposit"
    ? {
        fixed_cents: method.deposit_fee_fixed_cents,
        basis_points: method.deposit_fee_basis_points,
      }
    : {
        fixed_cents: method.withdrawal_fee_fixed_cents,
        basis_points: method.withdrawal_fee_basis_points,
      };
}

/** A whole number from 0 to `max`: one message, the first that applies. */
function wholeFeeSchema(max: number, messages: { type: string; min: string; max: string }) {
  return z.number({ error: messages.type }).superRefine((value, context) => {
    let message: string | null = null;
    if (value < 0) message = messages.min;
    else if (value > max) message = messages.max;
    else if (!Number.isInteger(value)) message = messages.type;
    if (message) context.addIssue({ code: "custom", message });
  });
}

/** A fixed fee as staff set it: whole cents, 0 to fee_fixed_cents_max. */
export const feeFixedCentsSchema = wholeFeeSchema(fee_fixed_cents_max, {
  type: feeMessages.fixedCents,
  min: feeMessages.fixedCentsMin,
  max: feeMessages.fixedCentsMax,
});

/** A percentage fee as staff set it: whole basis points, 0 to fee_basis_points_max. */
export const feeBasisPointsSchema = wholeFeeSchema(fee_basis_points_max, {
  type: feeMessages.basisPoints,
  min: feeMessages.basisPointsMin,
  max: feeMessages.basisPointsMax,
});

/** The four fee fields of a payment method in replies (integers). */
export const paymentMethodFeesSchema = z.object({
  deposit_fee_fixed_cents: z.number().int(),
  deposit_fee_basis_points: z.number().int(),
  withdrawal_fee_fixed_cents: z.number().int(),
  withdrawal_fee_basis_points: z.number().int(),
});

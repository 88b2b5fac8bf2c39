import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  amountNotAboveFeeMessage,
  describeFee,
  type FeeSchedule,
  fee_basis_points_max,
  fee_fixed_cents_max,
  feeBasisPointsSchema,
  feeBreakdown,
  feeCents,
  feeFixedCentsSchema,
  feeMessages,
  no_fee,
} from "../src/fees.ts";
import { funding_amount_cents_max, funding_amount_cents_min } from "../src/funding.ts";

const fee = (fixed_cents: number, basis_points: number): FeeSchedule => ({
  fixed_cents,
  basis_points,
});

describe("feeCents", () => {
  it("is nothing when no fee is configured, whatever the amount", () => {
    expect(feeCents(0, no_fee)).toBe(0);
    expect(feeCents(funding_amount_cents_min, no_fee)).toBe(0);
    expect(feeCents(funding_amount_cents_max, no_fee)).toBe(0);
  });

  it("adds the fixed part to the percentage", () => {
    // $150.00 at $2.00 + 1.5 %: 200 + 225 = 425 cents.
    expect(feeCents(15_000, fee(200, 150))).toBe(425);
    expect(feeCents(15_000, fee(200, 0))).toBe(200);
    expect(feeCents(15_000, fee(0, 150))).toBe(225);
  });

  it("rounds the percentage half up to the cent", () => {
    // 1 % of $1.50 is 1.5 cents → 2; of $1.49 is 1.49 → 1; of $1.51 is 1.51 → 2.
    expect(feeCents(150, fee(0, 100))).toBe(2);
    expect(feeCents(149, fee(0, 100))).toBe(1);
    expect(feeCents(151, fee(0, 100))).toBe(2);
    // 2.5 % of $1.00 is exactly 2.5 cents → 3 (half up, not to even).
    expect(feeCents(100, fee(0, 250))).toBe(3);
    // 0.01 % of $49.99 is 0.4999 cents → 0; of $50.00 is 0.5 → 1.
    expect(feeCents(4_999, fee(0, 1))).toBe(0);
    expect(feeCents(5_000, fee(0, 1))).toBe(1);
  });

  it("matches the exact rational value rounded half up, for every amount and rate", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: funding_amount_cents_max }),
        fc.integer({ min: 0, max: fee_fixed_cents_max }),
        fc.integer({ min: 0, max: fee_basis_points_max }),
        (amount, fixed, bp) => {
          const exact = (BigInt(amount) * BigInt(bp) * 2n + 10_000n) / 20_000n;
          expect(feeCents(amount, fee(fixed, bp))).toBe(fixed + Number(exact));
        },
      ),
    );
  });

  it("refuses negative and non-integer inputs as programmer errors", () => {
    expect(() => feeCents(-1, no_fee)).toThrow(RangeError);
    expect(() => feeCents(100, fee(-1, 0))).toThrow(RangeError);
    expect(() => feeCents(100.5, no_fee)).toThrow(RangeError);
    expect(() => feeCents(100, fee(0, 1.5))).toThrow(RangeError);
  });
});

describe("feeBreakdown", () => {
  it("leaves amount − fee: what a deposit credits and a withdrawal pays out", () => {
    expect(feeBreakdown(15_000, fee(200, 0))).toEqual({
      amount_cents: 15_000,
      fee_cents: 200,
      net_cents: 14_800,
    });
    expect(feeBreakdown(funding_amount_cents_min, no_fee)).toEqual({
      amount_cents: 100,
      fee_cents: 0,
      net_cents: 100,
    });
  });

  it("refuses a fee that would take the whole amount or more", () => {
    // The minimum amount, $1.00, with a $1.00 fixed fee: nothing would arrive.
    expect(feeBreakdown(funding_amount_cents_min, fee(100, 0))).toBeNull();
    expect(feeBreakdown(funding_amount_cents_min, fee(200, 0))).toBeNull();
    // One cent above the fee is allowed.
    expect(feeBreakdown(101, fee(100, 0))?.net_cents).toBe(1);
    expect(amountNotAboveFeeMessage(100, fee(100, 0))).toBe(
      "The amount must be more than its fee ($1.00)",
    );
  });

  it("never returns a fee at or above the amount, nor a net at or below zero", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: funding_amount_cents_max }),
        fc.integer({ min: 0, max: fee_fixed_cents_max }),
        fc.integer({ min: 0, max: fee_basis_points_max }),
        (amount, fixed, bp) => {
          const result = feeBreakdown(amount, fee(fixed, bp));
          if (result === null) {
            expect(feeCents(amount, fee(fixed, bp))).toBeGreaterThanOrEqual(amount);
          } else {
            expect(result.fee_cents).toBeLessThan(amount);
            expect(result.net_cents).toBeGreaterThan(0);
            expect(result.fee_cents + result.net_cents).toBe(amount);
          }
        },
      ),
    );
  });
});

describe("describeFee", () => {
  it("says what the trader pays in words", () => {
    expect(describeFee(no_fee)).toBe("No fees");
    expect(describeFee(fee(200, 0))).toBe("$2.00");
    expect(describeFee(fee(0, 150))).toBe("1.5%");
    expect(describeFee(fee(250, 1))).toBe("$2.50 + 0.01%");
  });
});

describe("fee schemas (staff input)", () => {
  it("accepts whole, in-range values only, with a message for each problem", () => {
    expect(feeFixedCentsSchema.parse(0)).toBe(0);
    expect(feeFixedCentsSchema.parse(fee_fixed_cents_max)).toBe(fee_fixed_cents_max);
    expect(feeBasisPointsSchema.parse(fee_basis_points_max)).toBe(fee_basis_points_max);
    const message = (result: { error?: { issues: Array<{ message: string }> } }) =>
      result.error?.issues[0]?.message;
    expect(message(feeFixedCentsSchema.safeParse(-1))).toBe(feeMessages.fixedCentsMin);
    expect(message(feeFixedCentsSchema.safeParse(1.5))).toBe(feeMessages.fixedCents);
    expect(message(feeFixedCentsSchema.safeParse("100"))).toBe(feeMessages.fixedCents);
    expect(message(feeFixedCentsSchema.safeParse(fee_fixed_cents_max + 1))).toBe(
      feeMessages.fixedCentsMax,
    );
    expect(message(feeBasisPointsSchema.safeParse(-5))).toBe(feeMessages.basisPointsMin);
    expect(message(feeBasisPointsSchema.safeParse(2.5))).toBe(feeMessages.basisPoints);
    expect(message(feeBasisPointsSchema.safeParse(fee_basis_points_max + 1))).toBe(
      feeMessages.basisPointsMax,
    );
    expect(message(feeBasisPointsSchema.safeParse(Number.NaN))).toBe(feeMessages.basisPoints);
    // One message each: the first that applies.
    expect(feeBasisPointsSchema.safeParse(1e308).error?.issues).toHaveLength(1);
    expect(message(feeBasisPointsSchema.safeParse(1e308))).toBe(feeMessages.basisPointsMax);
    expect(message(feeFixedCentsSchema.safeParse(-0.5))).toBe(feeMessages.fixedCentsMin);
  });
});

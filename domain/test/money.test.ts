import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertCents,
  centsFromDollars,
  dollarsFromCents,
  formatUsd,
  formatUsdFromCents,
} from "../src/money.ts";

describe("money", () => {
  it("converts dollars with up to 2 decimals to exact cents", () => {
    expect(centsFromDollars(0.1)).toBe(10);
    expect(centsFromDollars(0.29)).toBe(29);
    expect(centsFromDollars(100.5)).toBe(10050);
    expect(centsFromDollars(-12.3)).toBe(-1230);
    expect(centsFromDollars(9_999_999_999_999.99)).toBe(999_999_999_999_999);
    expect(centsFromDollars(10000)).toBe(1_000_000);
    expect(centsFromDollars(-0)).toBe(0);
    expect(Object.is(centsFromDollars(-0), -0)).toBe(false);
  });

  it("refuses more than 2 decimals and non-finite numbers instead of rounding money away", () => {
    expect(centsFromDollars(1.001)).toBeNull();
    expect(centsFromDollars(0.125)).toBeNull();
    expect(centsFromDollars(Number.NaN)).toBeNull();
    expect(centsFromDollars(Number.POSITIVE_INFINITY)).toBeNull();
    expect(centsFromDollars(2 ** 53)).toBeNull();
    expect(centsFromDollars(1e-7)).toBeNull();
    expect(centsFromDollars(1e21)).toBeNull();
  });

  it("round-trips every safe cents value through dollars", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (cents) => {
        expect(centsFromDollars(dollarsFromCents(cents))).toBe(cents === 0 ? 0 : cents);
      }),
    );
  });

  it("guards the safe-integer edge", () => {
    expect(assertCents(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => assertCents(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => assertCents(1.5)).toThrow(RangeError);
  });

  it("formats en-US USD with 2 decimals", () => {
    expect(formatUsdFromCents(1_000_000)).toBe("$10,000.00");
    expect(formatUsdFromCents(5)).toBe("$0.05");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
  });
});

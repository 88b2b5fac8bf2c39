import { describe, expect, it } from "vitest";
import {
  bollingerBands,
  exponentialMovingAverage,
  relativeStrengthIndex,
  type Series,
  simpleMovingAverage,
} from "../src/routes/dashboard/indicators.ts";

/** Compares series value by value: null where the window is not full, else to 9 places. */
function expectSeries(actual: Series, expected: Series): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, index) => {
    if (value === null) expect(actual[index], `index ${index}`).toBeNull();
    else expect(actual[index], `index ${index}`).toBeCloseTo(value, 9);
  });
}

describe("chart indicators, against values worked out by hand", () => {
  it("simple moving average: the mean of the last `period` closes", () => {
    // (1+2+3)/3, (2+3+4)/3, (3+4+8)/3
    expectSeries(simpleMovingAverage([1, 2, 3, 4, 8], 3), [null, null, 2, 3, 5]);
    expectSeries(simpleMovingAverage([5, 7], 3), [null, null]);
  });

  it("exponential moving average: seeded with the SMA, then weight 2/(period+1)", () => {
    // period 2 → weight 2/3; seed (2+4)/2 = 3; 6·⅔+3·⅓ = 5; 8·⅔+5·⅓ = 7; 4·⅔+7·⅓ = 5
    expectSeries(exponentialMovingAverage([2, 4, 6, 8, 4], 2), [null, 3, 5, 7, 5]);
    expectSeries(exponentialMovingAverage([1], 2), [null]);
  });

  it("Bollinger bands: SMA ± k population standard deviations", () => {
    // The textbook window 2,4,4,4,5,5,7,9: mean 5, population deviation 2 → 5 ± 2·2.
    const textbook = bollingerBands([2, 4, 4, 4, 5, 5, 7, 9], 8, 2);
    expectSeries(textbook.middle, [null, null, null, null, null, null, null, 5]);
    expectSeries(textbook.upper, [null, null, null, null, null, null, null, 9]);
    expectSeries(textbook.lower, [null, null, null, null, null, null, null, 1]);
    // Period 2: [2,4] mean 3 deviation 1; [4,4] deviation 0; [4,7] mean 5.5 deviation 1.5.
    const short = bollingerBands([2, 4, 4, 7], 2, 1.5);
    expectSeries(short.middle, [null, 3, 4, 5.5]);
    expectSeries(short.upper, [null, 4.5, 4, 7.75]);
    expectSeries(short.lower, [null, 1.5, 4, 3.25]);
  });

  it("RSI with Wilder's smoothing", () => {
    // Changes +1 −1 +2 +1 −2. First averages over 3 changes: gain (1+0+2)/3 = 1,
    // loss (0+1+0)/3 = ⅓ → RS 3 → RSI 75. Then gain (1·2+1)/3 = 1, loss (⅓·2+0)/3 = 2/9
    // → RS 4.5 → 100 − 100/5.5. Then gain (1·2+0)/3 = ⅔, loss (2/9·2+2)/3 = 22/27
    // → RS 9/11 → 100 − 100·11/20 = 45.
    expectSeries(relativeStrengthIndex([10, 11, 10, 12, 13, 11], 3), [
      null,
      null,
      null,
      75,
      100 - 100 / 5.5,
      45,
    ]);
  });

  it("RSI at the edges: 100 when nothing fell, 50 when nothing moved, null when too short", () => {
    expectSeries(relativeStrengthIndex([1, 2, 3, 4], 2), [null, null, 100, 100]);
    expectSeries(relativeStrengthIndex([3, 3, 3], 2), [null, null, 50]);
    expectSeries(relativeStrengthIndex([3, 4], 2), [null, null]);
  });
});

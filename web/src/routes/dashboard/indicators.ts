/**
 * The chart's indicators as pure functions of the bars' closes. Each returns one value per
 * input value, aligned by index, null where the window is not yet full (the chart draws
 * nothing there). They run again whenever a live tick changes the last bar: O(n) each,
 * for at most a few thousand bars.
 */

export type Series = (number | null)[];

/** Simple moving average: the mean of the last `period` values. */
export function simpleMovingAverage(values: readonly number[], period: number): Series {
  const out: Series = new Array(values.length).fill(null);
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) {
    sum += values[i] as number;
    if (i >= period) sum -= values[i - period] as number;
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/**
 * Exponential moving average with the usual weight 2 / (period + 1), seeded with the simple
 * average of the first `period` values (so the first value is defined at index period - 1).
 */
export function exponentialMovingAverage(values: readonly number[], period: number): Series {
  const out: Series = new Array(values.length).fill(null);
  if (values.length < period) return out;
  const weight = 2 / (period + 1);
  let sum = 0;
  for (let i = 0; i < period; i += 1) sum += values[i] as number;
  let ema = sum / period;
  out[period - 1] = ema;
  for (let i = period; i < values.length; i += 1) {
    ema = (values[i] as number) * weight + ema * (1 - weight);
    out[i] = ema;
  }
  return out;
}

export interface BollingerBands {
  middle: Series;
  upper: Series;
  lower: Series;
}

/**
 * Bollinger bands: the simple average of `period` values, and that average plus and minus
 * `deviations` standard deviations of the same window (the population deviation, dividing
 * by `period`, as Bollinger defined them).
 */
export function bollingerBands(
  values: readonly number[],
  period: number,
  deviations: number,
): BollingerBands {
  const middle = simpleMovingAverage(values, period);
  const upper: Series = new Array(values.length).fill(null);
  const lower: Series = new Array(values.length).fill(null);
  for (let i = period - 1; i < values.length; i += 1) {
    const mean = middle[i] as number;
    let squares = 0;
    for (let j = i - period + 1; j <= i; j += 1) squares += ((values[j] as number) - mean) ** 2;
    const spread = deviations * Math.sqrt(squares / period);
    upper[i] = mean + spread;
    lower[i] = mean - spread;
  }
  return { middle, upper, lower };
}

/**
 * Relative strength index with Wilder's smoothing: the first average gain and loss are the
 * plain means of the first `period` changes, each later one is (previous × (period − 1) +
 * this change) / period. RSI = 100 − 100 / (1 + average gain / average loss); 100 when
 * nothing fell, 50 when nothing moved at all. Defined from index `period` (it needs
 * `period` changes, so period + 1 values).
 */
export function relativeStrengthIndex(values: readonly number[], period: number): Series {
  const out: Series = new Array(values.length).fill(null);
  if (values.length <= period) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = (values[i] as number) - (values[i - 1] as number);
    if (change > 0) gain += change;
    else loss -= change;
  }
  gain /= period;
  loss /= period;
  out[period] = rsiOf(gain, loss);
  for (let i = period + 1; i < values.length; i += 1) {
    const change = (values[i] as number) - (values[i - 1] as number);
    gain = (gain * (period - 1) + Math.max(change, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-change, 0)) / period;
    out[i] = rsiOf(gain, loss);
  }
  return out;
}

function rsiOf(averageGain: number, averageLoss: number): number {
  if (averageLoss === 0) return averageGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + averageGain / averageLoss);
}

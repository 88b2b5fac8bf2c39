import type { Asset, OptionType } from "@tp/domain/catalogue";
import { derivedSeed, mulberry32 } from "./seeded-random.ts";
import { simulated_tick_interval_ms_default } from "./simulated-feed.ts";
import { gbmStep, quotedPrice } from "./simulated-market.ts";

/**
 * The simulator's own past (issue 11: history from the first minute), made of the same
 * geometric Brownian motion as the live feed, 4 steps a second. Each minute is walked on its
 * own: its path is a pure function of (seed, symbol, the minute's start, its open), the open
 * being the previous minute's close. So the past is the same for the same seed and clock,
 * and a minute's 1-second candles can be made again later from its stored 1-minute candle
 * alone (GET /candles?interval=1s), agreeing with it exactly: the minute candle is computed
 * as the aggregate of its seconds.
 */

/** Fixed, not SIMULATED_TICK_INTERVAL_MS: a stored past must not change with that setting. */
export const simulated_history_step_ms = simulated_tick_interval_ms_default;
const minute_ms = 60_000;
const second_ms = 1_000;
const seconds_per_minute = minute_ms / second_ms;
const steps_per_second = second_ms / simulated_history_step_ms;

export interface SimulatedBar {
  /** Start of the bar, epoch ms. */
  timeMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

const stepByType = new Map<OptionType, { drift: number; deviation: number }>();
function stepOf(optionType: OptionType) {
  let step = stepByType.get(optionType);
  if (!step) {
    step = gbmStep(optionType, simulated_history_step_ms);
    stepByType.set(optionType, step);
  }
  return step;
}

function assertMinute(timeMs: number) {
  if (!Number.isSafeInteger(timeMs) || timeMs % minute_ms !== 0) {
    throw new Error(`simulated history: ${timeMs} is not the start of a minute`);
  }
}

/**
 * Walks one minute: 240 steps of the log price from the open, 4 a second. A second opens at
 * the previous second's close; its high, low and close are the quotes of its highest, lowest
 * and last step. Quoting (exp, then rounding) is monotonic, so the extremes of the log price
 * give the extreme quotes: one exponential per bar edge, not one per step. With `onSecond`
 * every second's bar is made and given to it; without, only the minute's (same numbers: its
 * high is the quote of the highest step of all, which is the highest second's high).
 */
function walkMinute(
  seed: number,
  asset: Asset,
  minuteStartMs: number,
  open: number,
  onSecond?: (bar: SimulatedBar) => void,
): SimulatedBar {
  assertMinute(minuteStartMs);
  if (!(Number.isFinite(open) && open > 0)) {
    throw new Error(`simulated history: ${asset.symbol} needs a positive open, got ${open}`);
  }
  const { drift, deviation } = stepOf(asset.optionType);
  // Its own stream per minute: a minute does not depend on how the walk reached it.
  const random = mulberry32(derivedSeed(seed, `${asset.symbol}@${minuteStartMs / minute_ms}`));
  let logPrice = Math.log(open);
  let minuteHighLog = Number.NEGATIVE_INFINITY;
  let minuteLowLog = Number.POSITIVE_INFINITY;
  let secondOpen = open;
  for (let second = 0; second < seconds_per_minute; second += 1) {
    let highLog = Number.NEGATIVE_INFINITY;
    let lowLog = Number.POSITIVE_INFINITY;
    // Marsaglia's polar method gives two independent normals per accepted pair (one for each
    // of two steps), without the trigonometry of Box–Muller: the past is 10 million steps a day.
    for (let step = 0; step < steps_per_second; step += 2) {
      let u: number;
      let v: number;
      let radiusSquared: number;
      do {
        u = 2 * random() - 1;
        v = 2 * random() - 1;
        radiusSquared = u * u + v * v;
      } while (radiusSquared >= 1 || radiusSquared === 0);
      const scale = deviation * Math.sqrt((-2 * Math.log(radiusSquared)) / radiusSquared);
      logPrice += drift + u * scale;
      if (logPrice > highLog) highLog = logPrice;
      if (logPrice < lowLog) lowLog = logPrice;
      logPrice += drift + v * scale;
      if (logPrice > highLog) highLog = logPrice;
      if (logPrice < lowLog) lowLog = logPrice;
    }
    if (highLog > minuteHighLog) minuteHighLog = highLog;
    if (lowLog < minuteLowLog) minuteLowLog = lowLog;
    if (onSecond) {
      const close = quotedPrice(asset, Math.exp(logPrice));
      onSecond({
        timeMs: minuteStartMs + second * second_ms,
        open: secondOpen,
        high: Math.max(secondOpen, quotedPrice(asset, Math.exp(highLog))),
        low: Math.min(secondOpen, quotedPrice(asset, Math.exp(lowLog))),
        close,
      });
      secondOpen = close;
    }
  }
  return {
    timeMs: minuteStartMs,
    open,
    high: Math.max(open, quotedPrice(asset, Math.exp(minuteHighLog))),
    low: Math.min(open, quotedPrice(asset, Math.exp(minuteLowLog))),
    close: quotedPrice(asset, Math.exp(logPrice)),
  };
}

/** One simulated minute as a 1-minute candle. */
export function simulatedMinuteBar(
  seed: number,
  asset: Asset,
  minuteStartMs: number,
  open: number,
): SimulatedBar {
  return walkMinute(seed, asset, minuteStartMs, open);
}

/** The same minute's 60 one-second candles: together exactly its 1-minute candle. */
export function simulatedSecondBars(
  seed: number,
  asset: Asset,
  minuteStartMs: number,
  open: number,
): SimulatedBar[] {
  const bars: SimulatedBar[] = [];
  walkMinute(seed, asset, minuteStartMs, open, (bar) => bars.push(bar));
  return bars;
}

/**
 * The 1-minute candles of every minute from `fromMs` (the start of a minute) to before
 * `toMs`, the first opening at `open` and each next one at the previous close.
 */
export function simulatedMinuteBars(
  seed: number,
  asset: Asset,
  fromMs: number,
  toMs: number,
  open: number,
): SimulatedBar[] {
  assertMinute(fromMs);
  const bars: SimulatedBar[] = [];
  let nextOpen = open;
  for (let minuteMs = fromMs; minuteMs < toMs; minuteMs += minute_ms) {
    const bar = simulatedMinuteBar(seed, asset, minuteMs, nextOpen);
    bars.push(bar);
    nextOpen = bar.close;
  }
  return bars;
}

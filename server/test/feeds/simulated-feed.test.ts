import { assetCatalogue, findAsset, roundPrice } from "@tp/domain/catalogue";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import { SimulatedFeed } from "../../src/feeds/simulated-feed.ts";
import { simulatedStartPrices } from "../../src/feeds/simulated-market.ts";
import type { Sleep } from "../../src/feeds/sleep.ts";
import type { Tick } from "../../src/feeds/tick.ts";
import { take, within } from "./support/collect.ts";

const start = new Date("2024-06-10T12:00:00.000Z");

/** A sleep that advances the manual clock instead of waiting: the test never sleeps. */
function clockSleep(clock: ManualClock, asked: number[] = []): Sleep {
  return async (milliseconds) => {
    asked.push(milliseconds);
    clock.advance(milliseconds);
  };
}

function pathOf(feed: SimulatedFeed, steps: number): Tick[][] {
  return Array.from({ length: steps }, () => feed.step());
}

function pricesOf(feed: SimulatedFeed, symbol: string, steps: number): number[] {
  const index = feed.symbols.indexOf(symbol);
  return pathOf(feed, steps).map((batch) => batch[index]!.price);
}

describe("SimulatedFeed", () => {
  it("replays the same price path for the same seed, and another for another seed", () => {
    const clock = new ManualClock(start);
    const first = pathOf(new SimulatedFeed({ clock, seed: 7 }), 500);
    const again = pathOf(new SimulatedFeed({ clock, seed: 7 }), 500);
    const other = pathOf(new SimulatedFeed({ clock, seed: 8 }), 500);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it("walks each asset on its own stream, whatever else the feed simulates", () => {
    const clock = new ManualClock(start);
    const alone = pricesOf(
      new SimulatedFeed({ clock, seed: 3, symbols: ["EURUSD"] }),
      "EURUSD",
      300,
    );
    const together = pricesOf(new SimulatedFeed({ clock, seed: 3 }), "EURUSD", 300);
    expect(alone).toEqual(together);
  });

  it("covers every catalogue symbol once, labelled simulated, at realistic levels", () => {
    const feed = new SimulatedFeed({ clock: new ManualClock(start), seed: 1 });
    const catalogueSymbols = assetCatalogue.map((asset) => asset.symbol);
    expect([...feed.symbols].sort()).toEqual([...catalogueSymbols].sort());
    expect(Object.keys(simulatedStartPrices).sort()).toEqual([...catalogueSymbols].sort());
    const batch = feed.step();
    expect(batch.map((tick) => tick.symbol).sort()).toEqual([...catalogueSymbols].sort());
    const levels: Record<string, number> = {
      XAUUSD: 2_300,
      BTCUSDT: 65_000,
      BTCUSD: 450,
      EURUSD: 1.08,
      USDJPY: 155,
      NVDA: 900,
      US500: 5_300,
      DOGEUSDT: 0.15,
    };
    for (const tick of batch) {
      expect(tick.source).toBe("simulated");
      expect(tick.at).toBe(start.getTime());
      const level = levels[tick.symbol];
      if (level !== undefined) expect(Math.abs(tick.price / level - 1)).toBeLessThan(0.01);
    }
  });

  it("quotes every price rounded to the asset's precision", () => {
    const feed = new SimulatedFeed({ clock: new ManualClock(start), seed: 5 });
    const unrounded = pathOf(feed, 50)
      .flat()
      .filter((tick) => tick.price !== roundPrice(findAsset(tick.symbol)!, tick.price));
    expect(unrounded).toEqual([]);
  });

  it("keeps every price positive and finite, even over years of daily steps", () => {
    // One step a day for ~27 years: an additive walk with this volatility goes negative.
    const day_ms = 86_400_000;
    const feed = new SimulatedFeed({
      clock: new ManualClock(start),
      seed: 11,
      tick_interval_ms: day_ms,
    });
    let lowest = Number.POSITIVE_INFINITY;
    let finite = true;
    for (let step = 0; step < 10_000; step += 1) {
      for (const tick of feed.step()) {
        finite &&= Number.isFinite(tick.price);
        lowest = Math.min(lowest, tick.price);
      }
    }
    expect(finite).toBe(true);
    expect(lowest).toBeGreaterThan(0);
  });

  it("moves like a live market at 250 ms: EURUSD steps in its 5th decimal", () => {
    const prices = pricesOf(
      new SimulatedFeed({ clock: new ManualClock(start), seed: 2 }),
      "EURUSD",
      2_000,
    );
    const steps = prices.slice(1).map((price, index) => Math.abs(price - prices[index]!));
    const moved = steps.filter((step) => step > 0);
    expect(moved.length).toBeGreaterThan(steps.length / 3);
    expect(Math.max(...steps)).toBeLessThanOrEqual(0.0001);
    const meanStep = steps.reduce((sum, step) => sum + step, 0) / steps.length;
    expect(meanStep).toBeGreaterThan(0.000002);
    expect(meanStep).toBeLessThan(0.00003);
  });

  it("realises each option type's annual volatility over 10-second horizons", () => {
    // Written out here rather than imported, so a wrong table or scaling fails this test.
    const volatility = { forex: 0.08, commodities: 0.25, stocks: 0.3, indices: 0.15, crypto: 0.6 };
    const year_ms = 252 * 24 * 3_600_000;
    const horizon_steps = 40;
    const samples = 150;
    const feed = new SimulatedFeed({ clock: new ManualClock(start), seed: 9 });
    const path = pathOf(feed, horizon_steps * samples + 1);
    const ratios = feed.symbols.map((symbol, index) => {
      const asset = findAsset(symbol)!;
      const returns: number[] = [];
      for (let sample = 0; sample < samples; sample += 1) {
        const from = path[sample * horizon_steps]![index]!.price;
        const to = path[(sample + 1) * horizon_steps]![index]!.price;
        returns.push(Math.log(to / from));
      }
      const realised = Math.sqrt(returns.reduce((sum, r) => sum + r * r, 0) / returns.length);
      const walk = volatility[asset.optionType] * Math.sqrt((horizon_steps * 250) / year_ms);
      // Rounding both ends to the quoted precision adds (unit²/6) of variance: cheap assets
      // (NGASUSD 2.5 at 3 decimals, DOGEUSDT 0.15 at 4) move less than one unit in 10 s.
      const unitRelative = 10 ** -asset.precision / simulatedStartPrices[symbol]!;
      const expected = Math.sqrt(walk * walk + (unitRelative * unitRelative) / 6);
      expect(realised / expected, symbol).toBeGreaterThan(0.75);
      expect(realised / expected, symbol).toBeLessThan(1.3);
      return realised / expected;
    });
    // Each asset's estimate is noisy (±6 %); their mean pins the scaling down to a few %.
    const meanRatio = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    expect(meanRatio).toBeGreaterThan(0.92);
    expect(meanRatio).toBeLessThan(1.08);
  });

  it("emits 4 batches a second on the clock, each stamped with the clock's time", async () => {
    const clock = new ManualClock(start);
    const asked: number[] = [];
    const feed = new SimulatedFeed({ clock, seed: 4, sleep: clockSleep(clock, asked) });
    const controller = new AbortController();
    const iterator = feed.ticks(controller.signal)[Symbol.asyncIterator]();
    const ticks = await take(iterator, assetCatalogue.length * 40);
    controller.abort();
    expect((await iterator.next()).done).toBe(true);

    expect(asked.every((milliseconds) => milliseconds === 250)).toBe(true);
    for (const asset of assetCatalogue) {
      const times = ticks.filter((tick) => tick.symbol === asset.symbol).map((tick) => tick.at);
      expect(times).toEqual(Array.from({ length: 40 }, (_, n) => start.getTime() + n * 250));
      const firstSecond = times.filter((at) => at < start.getTime() + 1_000);
      expect(firstSecond).toHaveLength(4);
    }
  });

  it("ticks at the configured interval", async () => {
    const clock = new ManualClock(start);
    const feed = new SimulatedFeed({
      clock,
      seed: 4,
      symbols: ["EURUSD"],
      tick_interval_ms: 1_000,
      sleep: clockSleep(clock),
    });
    const controller = new AbortController();
    const ticks = await take(feed.ticks(controller.signal)[Symbol.asyncIterator](), 3);
    controller.abort();
    expect(ticks.map((tick) => tick.at - start.getTime())).toEqual([0, 1_000, 2_000]);
  });

  it("after a late wake-up ticks once, without a burst of catch-up batches", async () => {
    const clock = new ManualClock(start);
    // The process oversleeps every wait by 2 s (a suspended laptop, a blocked event loop).
    const oversleep: Sleep = async (milliseconds) => clock.advance(milliseconds + 2_000);
    const feed = new SimulatedFeed({ clock, seed: 4, symbols: ["EURUSD"], sleep: oversleep });
    const controller = new AbortController();
    const ticks = await take(feed.ticks(controller.signal)[Symbol.asyncIterator](), 4);
    controller.abort();
    const gaps = ticks.slice(1).map((tick, index) => tick.at - ticks[index]!.at);
    expect(gaps.every((gap) => gap >= 2_000)).toBe(true);
  });

  it("starts from given prices, so a restart resumes where the last run stopped", () => {
    const feed = new SimulatedFeed({
      clock: new ManualClock(start),
      seed: 1,
      symbols: ["EURUSD", "AAPL"],
      startPrices: { EURUSD: 1.2, AAPL: 250 },
    });
    const [eurusd, aapl] = feed.step();
    expect(Math.abs(eurusd!.price - 1.2)).toBeLessThan(0.001);
    expect(Math.abs(aapl!.price - 250)).toBeLessThan(1);
  });

  it("runs on real timers with the default sleep and stops at once on abort", async () => {
    const feed = new SimulatedFeed({
      clock: { now: () => new Date() },
      seed: 1,
      symbols: ["EURUSD"],
      tick_interval_ms: 20,
    });
    const controller = new AbortController();
    const iterator = feed.ticks(controller.signal)[Symbol.asyncIterator]();
    const ticks = await take(iterator, 3);
    expect(ticks[2]!.at - ticks[0]!.at).toBeGreaterThanOrEqual(35);
    const pending = iterator.next();
    controller.abort();
    // Whether a batch was due or not, the iterator ends promptly after the abort.
    let result = await within(pending, 500, "iterator after abort");
    if (!result.done) result = await within(iterator.next(), 500, "iterator after abort");
    expect(result.done).toBe(true);
    expect(feed.stats().ticks).toBeGreaterThanOrEqual(3);
  });

  it("refuses symbols outside the catalogue", () => {
    expect(
      () =>
        new SimulatedFeed({
          clock: new ManualClock(start),
          seed: 1,
          symbols: ["EURUSD", "SOLUSDT"],
        }),
    ).toThrow(/SOLUSDT is not in the catalogue/);
  });
});

import { type Asset, assetCatalogue, findAsset } from "@tp/domain/catalogue";
import type { Clock } from "../clock.ts";
import {
  emptyFeedStats,
  type FeedGapListener,
  type FeedStats,
  type ObservableFeed,
} from "./feed-stats.ts";
import { derivedSeed, mulberry32, standardNormal } from "./seeded-random.ts";
import { gbmStep, quotedPrice, simulatedStartPrices } from "./simulated-market.ts";
import { type Sleep, timerSleep } from "./sleep.ts";
import type { Tick } from "./tick.ts";

/** ARCHITECTURE.md: the simulator ticks 4 times a second per asset. */
export const simulated_tick_interval_ms_default = 250;

export interface SimulatedFeedOptions {
  clock: Clock;
  /** Same seed, same price path (per asset, whatever else the feed carries). */
  seed: number;
  tick_interval_ms?: number;
  /** Catalogue symbols to simulate; all 40 by default. */
  symbols?: readonly string[];
  /**
   * Where to start instead of the built-in levels, e.g. the last stored prices, so a
   * restart does not jump every chart back to the start level.
   */
  startPrices?: Readonly<Record<string, number>>;
  /** Injected in tests to advance a ManualClock instead of waiting. */
  sleep?: Sleep;
}

interface Walker {
  asset: Asset;
  /** Unrounded, so rounding never feeds back into the walk. */
  price: number;
  random: () => number;
  /** Per-step log drift −σ²·dt/2 keeps the expected price constant (no trend). */
  drift: number;
  /** Per-step standard deviation of the log price, σ·√dt. */
  deviation: number;
}

/**
 * Geometric Brownian motion per asset: price × exp(drift + deviation × Z) each step. The
 * exponential keeps prices positive; steps are scaled to the tick interval, so moves are
 * as small as a live market's. The path is a function of the step count only (a late
 * wake-up takes one step, not a catch-up burst), which keeps it reproducible.
 */
export class SimulatedFeed implements ObservableFeed {
  readonly source = "simulated" as const;
  readonly symbols: readonly string[];
  readonly tick_interval_ms: number;
  readonly #walkers: Walker[];
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #stats = emptyFeedStats();

  constructor(options: SimulatedFeedOptions) {
    const tickIntervalMs = options.tick_interval_ms ?? simulated_tick_interval_ms_default;
    if (!(Number.isFinite(tickIntervalMs) && tickIntervalMs > 0)) {
      throw new Error(`SimulatedFeed: tick_interval_ms must be positive, got ${tickIntervalMs}`);
    }
    if (!Number.isSafeInteger(options.seed)) {
      throw new Error(`SimulatedFeed: seed must be an integer, got ${options.seed}`);
    }
    this.tick_interval_ms = tickIntervalMs;
    this.#clock = options.clock;
    this.#sleep = options.sleep ?? timerSleep;
    this.symbols = [...(options.symbols ?? assetCatalogue.map((asset) => asset.symbol))];
    this.#walkers = this.symbols.map((symbol) => {
      const asset = findAsset(symbol);
      if (!asset) throw new Error(`SimulatedFeed: ${symbol} is not in the catalogue`);
      const price = options.startPrices?.[symbol] ?? simulatedStartPrices[symbol];
      if (price === undefined || !(Number.isFinite(price) && price > 0)) {
        throw new Error(`SimulatedFeed: no positive start price for ${symbol}`);
      }
      return {
        asset,
        price,
        random: mulberry32(derivedSeed(options.seed, symbol)),
        ...gbmStep(asset.optionType, tickIntervalMs),
      };
    });
  }

  stats(): FeedStats {
    return { ...this.#stats };
  }

  /** Never calls back: the simulator has no line to lose (its past comes from its seed). */
  onGap(_listener: FeedGapListener): () => void {
    return () => {};
  }

  /** Moves every asset one tick interval and returns the batch, stamped with the clock. */
  step(): Tick[] {
    const at = this.#clock.now().getTime();
    return this.#walkers.map((walker) => {
      walker.price *= Math.exp(walker.drift + walker.deviation * standardNormal(walker.random));
      const price = quotedPrice(walker.asset, walker.price);
      this.#stats.ticks += 1;
      return { symbol: walker.asset.symbol, price, at, source: this.source };
    });
  }

  /** A batch now, then one every tick interval on the clock until `signal` aborts. */
  async *ticks(signal: AbortSignal): AsyncGenerator<Tick> {
    let dueAt = this.#clock.now().getTime();
    while (!signal.aborted) {
      for (const tick of this.step()) {
        if (signal.aborted) return;
        yield tick;
      }
      dueAt += this.tick_interval_ms;
      const now = this.#clock.now().getTime();
      // Behind schedule (slow consumer, suspended process): tick once now, don't burst.
      if (dueAt < now) dueAt = now;
      await this.#sleep(dueAt - now, signal);
    }
  }
}
